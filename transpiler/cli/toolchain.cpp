#include "transpiler/cli/toolchain.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "agc_config.h"

extern char** environ;

namespace agc::cli {

bool file_exists(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0;
}

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

}  // namespace

std::optional<Installation> installation() {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return std::nullopt;
  // PREFIX is the directory <bindir> is in, or the configured prefix for a
  // bindir outside it (absolute: no moving then).
  const fs::path bindir = AGC_INSTALL_BINDIR;
  fs::path dir = exe.parent_path(), prefix = AGC_INSTALL_PREFIX;
  if (bindir.is_absolute()) {
    if (dir != bindir) return std::nullopt;
  } else {
    prefix = dir;
    for (auto it = bindir.begin(); it != bindir.end(); ++it) prefix = prefix.parent_path();
    if ((prefix / bindir).lexically_normal() != dir.lexically_normal()) return std::nullopt;
  }
  // `/` keeps an absolute right-hand side as it is: a dir outside the prefix.
  Installation in{(prefix / AGC_INSTALL_INCLUDEDIR).string(), (prefix / AGC_INSTALL_LIBDIR / "libagrt.a").string(),
                  (prefix / AGC_INSTALL_LIBEXECDIR / "agc-model").string()};
  if (!file_exists(in.include_dir + "/ag/ag.h")) return std::nullopt;
  return in;
}

RuntimeLocation find_runtime() {
  RuntimeLocation rt;
  std::string dir = env("AGC_RUNTIME_DIR");
  std::optional<Installation> installed = dir.empty() ? installation() : std::nullopt;
  if (!dir.empty()) {
    rt.include_dirs = {dir + "/include"};
    rt.library = dir + "/lib/libagrt.a";
  } else if (installed) {
    rt.include_dirs = {installed->include_dir};
    rt.library = installed->library;
  } else {
    rt.include_dirs = {AGC_SOURCE_DIR, std::string(AGC_SOURCE_DIR) + "/runtime/include"};
    rt.library = AGC_RUNTIME_LIBRARY;
  }
  bool have_header = false;
  for (const auto& inc : rt.include_dirs) have_header = have_header || file_exists(inc + "/ag/ag.h");
  const char* where = !dir.empty() ? "AGC_RUNTIME_DIR" : installed ? "agc's installation" : "the agc build";
  if (!have_header) {
    rt.problem = std::string("the runtime's headers (ag/ag.h) are not in ") + where + " (looked in " +
                 rt.include_dirs.back() + ")";
  } else if (!file_exists(rt.library)) {
    std::string fix = !dir.empty() ? "AGC_RUNTIME_DIR must hold include/ and lib/libagrt.a"
                      : installed  ? "install agc again: meson install -C BUILD"
                                   : std::string("build it: ninja -C ") + AGC_BUILD_DIR + " runtime/libagrt.a";
    rt.problem = "the runtime library " + rt.library + " does not exist (" + fix + ")";
  }
  return rt;
}

namespace {

/// Appends the space-separated words of `text` to `out`.
void append_words(const std::string& text, std::vector<std::string>& out) {
  size_t i = 0;
  while (i < text.size()) {
    size_t j = text.find(' ', i);
    if (j == std::string::npos) j = text.size();
    if (j > i) out.push_back(text.substr(i, j - i));
    i = j + 1;
  }
}

}  // namespace

bool on_path(const std::string& program) {
  const std::string path = env("PATH");
  for (size_t i = 0; i <= path.size();) {
    size_t j = path.find(':', i);
    if (j == std::string::npos) j = path.size();
    if (j > i && ::access((path.substr(i, j - i) + "/" + program).c_str(), X_OK) == 0) return true;
    i = j + 1;
  }
  return false;
}

std::vector<std::string> compiler_command(const RuntimeLocation& rt, bool fast) {
  std::vector<std::string> cmd;
  append_words(env("CXX"), cmd);
  if (cmd.empty()) cmd.push_back("c++");
  // -Og, the fast build: 2.4x less compile time than -O2 for 6% more run
  // time of Python-level code (-O0: 2.5x less, but 110% more; performance.md).
  cmd.push_back(fast ? "-Og" : "-O2");
  cmd.push_back("-std=c++20");
  // A compile flag as well as a link flag: it defines _REENTRANT, and the
  // precompiled ag.h is only used by compiles with the same macros (without it
  // in the header's own compile, GCC silently ignored the .gch: 2.4 s instead
  // of 1.4 s per program).
  cmd.push_back("-pthread");
  // The instruction set libagrt was built for (meson option cpu).
  append_words(AGC_CPU_FLAGS, cmd);
  // LLVM's linker when it is installed: a program links against libagrt.a in
  // 0.13 s where GNU ld takes 0.31 s.
  static const bool lld = on_path("ld.lld");
  if (lld) cmd.push_back("-fuse-ld=lld");
  // After agc's own flags, so they can override them (-O0, -g, -march=native).
  append_words(env("AGC_CXXFLAGS"), cmd);
  for (const auto& inc : rt.include_dirs) cmd.push_back("-I" + inc);
  return cmd;
}

std::vector<std::string> link_libraries(const RuntimeLocation& rt) {
  // What libagrt needs (meson.build's agc_link_libs, which agc.pc lists too).
  std::vector<std::string> libs = {rt.library};
  append_words(AGC_LINK_LIBS, libs);
  return libs;
}

std::string shell_quote(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    bool plain = !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=+./:,@%") == std::string::npos;
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) {
      if (c == '\'') out += "'\\''";
      else out += c;
    }
    out += '\'';
  }
  return out;
}

ToolResult run_tool(const std::vector<std::string>& argv) {
  ToolResult r;
  int fds[2];
  // Close-on-exec: compilers run side by side (cli/compile.cpp), and one
  // that inherited another's pipe would hold that pipe open until it ends.
  if (pipe2(fds, O_CLOEXEC) != 0) {
    r.output = std::string("cannot create a pipe: ") + std::strerror(errno) + "\n";
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  pid_t pid = 0;
  int err = posix_spawnp(&pid, cargv[0], &actions, nullptr, cargv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (err != 0) {
    close(fds[0]);
    r.output = "cannot run '" + argv[0] + "': " + std::strerror(err) + "\n";
    return r;
  }
  char buf[8192];
  for (;;) {
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n > 0) {
      r.output.append(buf, static_cast<size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;
    }
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

int run_program(const std::string& program, const std::vector<std::string>& argv) {
  std::vector<char*> cargv;
  for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = 0;
  int err = posix_spawn(&pid, program.c_str(), nullptr, nullptr, cargv.data(), environ);
  if (err != 0) {
    std::fprintf(stderr, "agc: error: cannot run '%s': %s\n", program.c_str(), std::strerror(err));
    return -1;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool make_dirs(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) {
    errno = ec.value();
    return false;
  }
  return true;
}

bool write_file(const std::string& path, const std::string& text) {
  return write_file(path, std::vector<std::string_view>{text});
}

bool write_file(const std::string& path, const std::vector<std::string_view>& pieces) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  for (std::string_view p : pieces) out << p;
  out.close();
  if (!out) {
    std::fprintf(stderr, "agc: error: cannot write '%s': %s\n", path.c_str(), std::strerror(errno));
    return false;
  }
  return true;
}

WorkDir::WorkDir() {
  std::string base = env("TMPDIR");
  if (base.empty()) base = "/tmp";
  std::string tmpl = base + "/agc-build-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data()) != nullptr) path_ = buf.data();
}

WorkDir::~WorkDir() {
  if (path_.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

ContentHash& ContentHash::add(std::string_view bytes) {
  // Two independent 64-bit FNV-1a lanes; the length goes in too, so that
  // ("ab", "c") and ("a", "bc") differ.
  auto mix = [&](unsigned char c) {
    a_ = (a_ ^ c) * 0x100000001b3ull;
    b_ = (b_ ^ c) * 0x00000100000001b3ull + 0x9e3779b97f4a7c15ull;
  };
  for (unsigned char c : bytes) mix(c);
  uint64_t n = bytes.size();
  for (int i = 0; i < 8; ++i) mix(static_cast<unsigned char>(n >> (8 * i)));
  return *this;
}

std::string ContentHash::hex() const {
  // Final avalanche so that nearby inputs give unrelated names.
  auto fmix = [](uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ull;
    k ^= k >> 33;
    return k;
  };
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(fmix(a_)),
                static_cast<unsigned long long>(fmix(b_ ^ a_)));
  return buf;
}

std::string cache_dir() {
  std::string d = env("AGC_CACHE_DIR");
  if (!d.empty()) return d;
  d = env("XDG_CACHE_HOME");
  if (!d.empty()) return d + "/agc";
  d = env("HOME");
  if (!d.empty()) return d + "/.cache/agc";
  return "/tmp/agc-cache-" + std::to_string(getuid());
}

void touch(const std::string& path) { utimensat(AT_FDCWD, path.c_str(), nullptr, 0); }

void trim_cache(const std::vector<std::string>& in_use) {
  namespace fs = std::filesystem;
  uint64_t limit_mb = 4096;
  if (std::string e = env("AGC_CACHE_MAX_MB"); !e.empty()) limit_mb = std::strtoull(e.c_str(), nullptr, 10);
  const uint64_t limit = limit_mb << 20;
  struct Entry {
    fs::path path;
    fs::file_time_type used;
    uint64_t bytes = 0;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  auto add = [&](const fs::path& dir) {
    Entry e{dir, fs::last_write_time(dir, ec), 0};
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      if (it->is_regular_file(ec)) e.bytes += it->file_size(ec);
    }
    total += e.bytes;
    entries.push_back(std::move(e));
  };
  const fs::path root = cache_dir();
  for (const auto& d : fs::directory_iterator(root, ec)) {
    if (!d.is_directory(ec)) continue;
    if (d.path().filename() == "pch") {
      for (const auto& p : fs::directory_iterator(d.path(), ec)) add(p.path());
    } else {
      add(d.path());
    }
  }
  if (total <= limit) return;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (const Entry& e : entries) {
    if (total <= limit) break;
    bool used = std::any_of(in_use.begin(), in_use.end(), [&](const std::string& u) {
      return fs::path(u).lexically_normal().string().rfind(e.path.lexically_normal().string(), 0) == 0;
    });
    if (used) continue;
    fs::remove_all(e.path, ec);
    total -= e.bytes;
  }
}

std::string file_identity(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return {};
  return path + "\n" + std::to_string(st.st_size) + "\n" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

}  // namespace agc::cli
