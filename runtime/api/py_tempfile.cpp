// Python's tempfile module: mkdtemp and gettempdir (CPython's tempfile.py:
// the directory from TMPDIR, TEMP or TMP, else /tmp; a new directory named
// prefix + 8 random characters of "abcdefghijklmnopqrstuvwxyz0123456789_" +
// suffix, made with mode 0700, retried while the name exists).
#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/core/error.h"

namespace ag::pymod {
namespace {

std::string temp_dir() {
  for (const char* var : {"TMPDIR", "TEMP", "TMP"}) {
    if (const char* v = std::getenv(var); v != nullptr && *v != '\0') return v;
  }
  return "/tmp";
}

std::string str_or(const Value& v, const char* fallback, const char* what) {
  if (v.is_none()) return fallback;
  if (!v.is_str()) throw TypeError(std::string(what) + " must be str, not " + v.type_name());
  return v.as_str();
}

}  // namespace

namespace impl {

Value tempfile_gettempdir(const TfCall&) { return Value(temp_dir()); }

Value tempfile_mkdtemp(const TfCall& c) {
  std::string prefix = str_or(c["prefix"], "tmp", "prefix");
  std::string suffix = str_or(c["suffix"], "", "suffix");
  std::string dir = c["dir"].is_none() ? temp_dir() : str_or(c["dir"], "", "dir");
  static constexpr char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789_";
  thread_local std::mt19937_64 rng{std::random_device{}()};
  std::uniform_int_distribution<size_t> pick(0, sizeof kChars - 2);
  for (int attempt = 0; attempt < 10000; ++attempt) {
    std::string name;
    for (int i = 0; i < 8; ++i) name += kChars[pick(rng)];
    std::string path = dir + "/" + prefix + name + suffix;
    if (::mkdir(path.c_str(), 0700) == 0) return Value(path);
    if (errno == EEXIST) continue;
    std::string msg = "[Errno " + std::to_string(errno) + "] " + std::strerror(errno) + ": " + repr(Value(path));
    if (errno == ENOENT) throw FileNotFoundError(msg);
    if (errno == EACCES || errno == EPERM) throw PermissionError(msg);
    throw OSError(msg);
  }
  throw FileExistsError("No usable temporary directory name found");
}

}  // namespace impl
}  // namespace ag::pymod
