// Python's os and os.path modules (py_modules.def's os rows) as CPython 3.11
// computes them on POSIX: os.path's string functions are posixpath's rules
// (join, split, splitext, normpath, expanduser), the file-system ones call
// the same system calls CPython does (stat, mkdir, unlink, rmdir, opendir),
// and a failing call raises the OSError subclass CPython picks for its errno
// with CPython's text: "[Errno 17] File exists: 'x'".
//
// os.environ is a dict: a snapshot of the process environment taken at its
// first use. Programs read and change it as Python's mapping (os.environ[k],
// .get, `in`, KeyError on a missing key) and os.getenv reads it, but a change
// is not passed on to the process environment (CPython also calls putenv).
#include <dirent.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/core/error.h"

extern char** environ;  // NOLINT: POSIX's process environment

namespace ag::pymod {
namespace {

/// The exception CPython raises for `err` (OSError's errno -> subclass map).
[[noreturn]] void raise_os_error(int err, const std::string& filename) {
  std::string msg = "[Errno " + std::to_string(err) + "] " + std::strerror(err) + ": " + repr(Value(filename));
  switch (err) {
    case EEXIST: throw FileExistsError(msg);
    case ENOENT: throw FileNotFoundError(msg);
    case EISDIR: throw IsADirectoryError(msg);
    case ENOTDIR: throw NotADirectoryError(msg);
    case EACCES:
    case EPERM: throw PermissionError(msg);
    default: throw OSError(msg);
  }
}

/// A path argument of a system call (os.mkdir, os.stat): a str.
const std::string& path_arg(const Value& v, const char* fn) {
  if (!v.is_str()) {
    throw TypeError(std::string(fn) + ": path should be string, bytes or os.PathLike, not " + v.type_name());
  }
  return v.as_str();
}

/// A path argument of os.path's string functions (os.fspath's check).
const std::string& fspath(const Value& v) {
  if (!v.is_str()) throw TypeError("expected str, bytes or os.PathLike object, not " + v.type_name());
  return v.as_str();
}

bool stat_ok(const Value& v, struct stat* st) {
  if (!v.is_str()) return false;  // CPython's genericpath answers False for what stat rejects
  return ::stat(v.as_str().c_str(), st) == 0;
}

// posixpath.split: everything after the last '/' is the tail; the head loses
// its trailing slashes unless it is all slashes.
std::pair<std::string, std::string> split(const std::string& p) {
  size_t i = p.rfind('/');
  i = i == std::string::npos ? 0 : i + 1;
  std::string head = p.substr(0, i), tail = p.substr(i);
  if (!head.empty() && head.find_first_not_of('/') != std::string::npos) {
    head.erase(head.find_last_not_of('/') + 1);
  }
  return {head, tail};
}

std::string normpath(const std::string& path) {
  if (path.empty()) return ".";
  int initial = path[0] == '/' ? 1 : 0;
  // POSIX lets two leading slashes mean something else; three or more are one.
  if (initial && path.rfind("//", 0) == 0 && path.rfind("///", 0) != 0) initial = 2;
  std::vector<std::string> comps;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string::npos) slash = path.size();
    std::string comp = path.substr(start, slash - start);
    start = slash + 1;
    if (comp.empty() || comp == ".") continue;
    if (comp != ".." || (!initial && comps.empty()) || (!comps.empty() && comps.back() == "..")) {
      comps.push_back(comp);
    } else if (!comps.empty()) {
      comps.pop_back();
    }
  }
  std::string out(static_cast<size_t>(initial), '/');
  for (size_t i = 0; i < comps.size(); ++i) out += (i ? "/" : "") + comps[i];
  return out.empty() ? "." : out;
}

std::string getcwd() {
  std::vector<char> buf(4096);
  while (::getcwd(buf.data(), buf.size()) == nullptr) {
    if (errno != ERANGE) raise_os_error(errno, ".");
    buf.resize(buf.size() * 2);
  }
  return buf.data();
}

void mkdir(const std::string& path, int64_t mode) {
  if (::mkdir(path.c_str(), static_cast<mode_t>(mode)) != 0) raise_os_error(errno, path);
}

// os.makedirs: the missing parents first, then the leaf; an existing leaf is
// an error unless exist_ok and it is a directory.
void makedirs(const std::string& name, int64_t mode, bool exist_ok) {
  auto [head, tail] = split(name);
  if (tail.empty()) std::tie(head, tail) = split(head);
  struct stat st{};
  if (!head.empty() && !tail.empty() && ::stat(head.c_str(), &st) != 0) {
    try {
      makedirs(head, mode, exist_ok);
    } catch (const FileExistsError&) {
      // Another process made it meanwhile (CPython ignores this too).
    }
    if (tail == ".") return;
  }
  if (::mkdir(name.c_str(), static_cast<mode_t>(mode)) != 0) {
    int err = errno;
    if (!exist_ok || ::stat(name.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) raise_os_error(err, name);
  }
}

}  // namespace

namespace impl {

Value os_path_join(const TfCall& c) {
  std::string path = fspath(c["a"]);
  for (const Value& v : c["p"].items()) {
    if (!v.is_str()) {
      throw TypeError("join() argument must be str, bytes, or os.PathLike object, not '" + v.type_name() + "'");
    }
    const std::string& b = v.as_str();
    if (!b.empty() && b[0] == '/') {
      path = b;
    } else if (path.empty() || path.back() == '/') {
      path += b;
    } else {
      path += "/" + b;
    }
  }
  return Value(path);
}

Value os_path_split(const TfCall& c) {
  auto [head, tail] = split(fspath(c.arg(0)));
  std::string_view part = c.data();
  if (part == "basename") return Value(tail);
  if (part == "dirname") return Value(head);
  return Value::tuple({Value(head), Value(tail)});
}

Value os_path_splitext(const TfCall& c) {
  const std::string& p = fspath(c.arg(0));
  size_t sep = p.rfind('/');
  size_t dot = p.rfind('.');
  size_t name = sep == std::string::npos ? 0 : sep + 1;
  // A dot after the last slash that is not one of the name's leading dots.
  if (dot != std::string::npos && (sep == std::string::npos || dot > sep)) {
    for (size_t i = name; i < dot; ++i) {
      if (p[i] != '.') return Value::tuple({Value(p.substr(0, dot)), Value(p.substr(dot))});
    }
  }
  return Value::tuple({Value(p), Value("")});
}

Value os_path_normpath(const TfCall& c) { return Value(normpath(fspath(c.arg(0)))); }

Value os_path_abspath(const TfCall& c) {
  const std::string& p = fspath(c.arg(0));
  if (!p.empty() && p[0] == '/') return Value(normpath(p));
  std::string cwd = getcwd();
  return Value(normpath(p.empty() ? cwd : cwd + (cwd.back() == '/' ? "" : "/") + p));
}

Value os_path_isabs(const TfCall& c) {
  const std::string& p = fspath(c.arg(0));
  return Value(!p.empty() && p[0] == '/');
}

Value os_path_expanduser(const TfCall& c) {
  const std::string& p = fspath(c.arg(0));
  if (p.empty() || p[0] != '~') return Value(p);
  size_t i = p.find('/', 1);
  if (i == std::string::npos) i = p.size();
  std::string home;
  if (i == 1) {
    if (const char* h = std::getenv("HOME")) {
      home = h;
    } else if (const passwd* pw = ::getpwuid(::getuid())) {
      home = pw->pw_dir;
    } else {
      return Value(p);
    }
  } else {
    const passwd* pw = ::getpwnam(p.substr(1, i - 1).c_str());
    if (!pw) return Value(p);
    home = pw->pw_dir;
  }
  while (!home.empty() && home.back() == '/') home.pop_back();
  std::string out = home + p.substr(i);
  return Value(out.empty() ? "/" : out);
}

Value os_path_stat_test(const TfCall& c) {
  struct stat st{};
  if (!stat_ok(c.arg(0), &st)) return Value(false);
  std::string_view test = c.data();
  if (test == "isfile") return Value(S_ISREG(st.st_mode) != 0);
  if (test == "isdir") return Value(S_ISDIR(st.st_mode) != 0);
  return Value(true);
}

Value os_path_getsize(const TfCall& c) {
  const std::string& p = path_arg(c.arg(0), "stat");
  struct stat st{};
  if (::stat(p.c_str(), &st) != 0) raise_os_error(errno, p);
  return Value(static_cast<int64_t>(st.st_size));
}

Value os_getcwd(const TfCall&) { return Value(getcwd()); }

Value os_chdir(const TfCall& c) {
  const std::string& p = path_arg(c["path"], "chdir");
  if (::chdir(p.c_str()) != 0) raise_os_error(errno, p);
  return Value();
}

Value os_mkdir(const TfCall& c) {
  mkdir(path_arg(c["path"], "mkdir"), c["mode"].as_int());
  return Value();
}

Value os_makedirs(const TfCall& c) {
  makedirs(fspath(c["name"]), c["mode"].as_int(), truthy(c["exist_ok"]));
  return Value();
}

Value os_remove(const TfCall& c) {
  std::string_view fn = c.data();
  const std::string& p = path_arg(c.arg(0), fn == "rmdir" ? "rmdir" : "remove");
  int r = fn == "rmdir" ? ::rmdir(p.c_str()) : ::unlink(p.c_str());
  if (r != 0) raise_os_error(errno, p);
  return Value();
}

Value os_listdir(const TfCall& c) {
  const std::string& p = path_arg(c["path"], "listdir");
  DIR* dir = ::opendir(p.c_str());
  if (!dir) raise_os_error(errno, p);
  std::vector<Value> names;
  while (const dirent* e = ::readdir(dir)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") names.emplace_back(std::move(n));
  }
  ::closedir(dir);
  return Value::list(std::move(names));
}

Value os_getenv(const TfCall& c) {
  const Value& key = c["key"];
  if (!key.is_str()) throw TypeError("str expected, not " + key.type_name());
  const DictObj& env = api::os_environ().as_dict();
  int64_t i = env.find(key);
  return i < 0 ? c["default"] : env.entries[static_cast<size_t>(i)].second;
}

Value os_cpu_count(const TfCall&) {
  long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? Value() : Value(static_cast<int64_t>(n));
}

Value os_getpid(const TfCall&) { return Value(static_cast<int64_t>(::getpid())); }

}  // namespace impl

namespace api {

const Value& os_environ() {
  static const Value env = [] {
    std::vector<std::pair<Value, Value>> items;
    for (char** e = environ; *e; ++e) {
      std::string kv = *e;
      size_t eq = kv.find('=');
      if (eq == std::string::npos) continue;
      items.emplace_back(Value(kv.substr(0, eq)), Value(kv.substr(eq + 1)));
    }
    return Value::dict(std::move(items));
  }();
  return env;
}

const Value& os_sep() {
  static const Value v("/");
  return v;
}
const Value& os_linesep() {
  static const Value v("\n");
  return v;
}
const Value& os_pathsep() {
  static const Value v(":");
  return v;
}
const Value& os_curdir() {
  static const Value v(".");
  return v;
}
const Value& os_pardir() {
  static const Value v("..");
  return v;
}
const Value& os_name() {
  static const Value v("posix");
  return v;
}

}  // namespace api
}  // namespace ag::pymod
