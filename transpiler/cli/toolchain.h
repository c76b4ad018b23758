// How agc turns generated C++ into a program or a library: where the runtime
// is (its headers and libagrt.a), the system C++ compiler's command line,
// running it, and the content-addressed cache `agc run` keeps its programs in.
// Nothing here knows about Python; build/run/emit-cpp hand it C++ text.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agc::cli {

/// Where `meson install` put this agc's parts, found from where the running
/// agc is: PREFIX/<bindir>/agc has its runtime in PREFIX/<includedir>/agc
/// (ag/ag.h, runtime/...) and PREFIX/<libdir>/libagrt.a, and agc-model in
/// PREFIX/<libexecdir>, whatever PREFIX is now, so an install tree may move
/// (DESTDIR, a copied prefix). nullopt for an agc that runs from its build
/// dir, or whose install has no ag/ag.h.
struct Installation {
  std::string include_dir;
  std::string library;
  std::string model_tool;
};
std::optional<Installation> installation();

/// The runtime a generated program compiles and links against:
///   AGC_RUNTIME_DIR=DIR: DIR/include (holding ag/ag.h and runtime/...) and
///            DIR/lib/libagrt.a;
///   else an installed agc's (installation());
///   else the source tree and build dir agc was built from (configured by
///            meson into agc_config.h).
struct RuntimeLocation {
  std::vector<std::string> include_dirs;
  std::string library;  // libagrt.a
  /// Why the runtime is unusable (empty when it is): a missing header or library.
  std::string problem;
};
RuntimeLocation find_runtime();

/// The compiler and its flags: $CXX (split on spaces, so "ccache g++" works)
/// or `c++`, at -O2 (-Og when `fast`) -std=c++20 with the runtime's include
/// dirs, then $AGC_CXXFLAGS.
std::vector<std::string> compiler_command(const RuntimeLocation& rt, bool fast = false);
/// What a program links after its object: libagrt.a and its dependencies.
std::vector<std::string> link_libraries(const RuntimeLocation& rt);

struct ToolResult {
  int status = -1;     // the exit status; -1 when it could not run or was killed
  std::string output;  // stdout and stderr, interleaved
};
/// Runs argv[0] (searched in PATH) with its output captured.
ToolResult run_tool(const std::vector<std::string>& argv);
/// Runs `program` with arguments `argv` (argv[0] its name) on this process's
/// stdin, stdout and stderr, and waits: its exit status, 128 + the signal
/// that killed it, or -1 (with a message on stderr) when it cannot start.
int run_program(const std::string& program, const std::vector<std::string>& argv);
/// True when an executable `program` is in a directory of PATH.
bool on_path(const std::string& program);
/// The command as a shell would show it (for --verbose and error messages).
std::string shell_quote(const std::vector<std::string>& argv);

/// Time since it was made (or restarted), for the times --verbose prints.
class Stopwatch {
 public:
  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  void restart() { start_ = std::chrono::steady_clock::now(); }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

/// A 128-bit content hash as 32 hex digits (not cryptographic: it names cache
/// entries, and everything that goes into it is the user's own).
class ContentHash {
 public:
  ContentHash& add(std::string_view bytes);
  std::string hex() const;

 private:
  uint64_t a_ = 0xcbf29ce484222325ull, b_ = 0x84222325cbf29ce4ull;
};

/// $AGC_CACHE_DIR, else $XDG_CACHE_HOME/agc, else $HOME/.cache/agc.
std::string cache_dir();

/// Keeps the cache under its size limit ($AGC_CACHE_MAX_MB, default 4096):
/// removes the least recently used entries (program directories and
/// precompiled headers, by mtime) until it fits, never `in_use`. Each runtime
/// rebuild makes every program a new entry, so without this a developer's
/// cache grows by gigabytes a day. Errors are ignored: the cache is a cache.
void trim_cache(const std::vector<std::string>& in_use);
/// Marks a cache entry as just used (its mtime), for trim_cache's order.
void touch(const std::string& path);

/// True when `path` names an existing file or directory.
bool file_exists(const std::string& path);
/// The identity of a file for a cache key: its path, size and mtime (ns);
/// empty when it does not exist.
std::string file_identity(const std::string& path);

/// A fresh directory under $TMPDIR (else /tmp), removed with what it holds
/// when this goes out of scope; path() is empty when it could not be made.
class WorkDir {
 public:
  WorkDir();
  ~WorkDir();
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// mkdir -p; false with errno set on failure.
bool make_dirs(const std::string& path);
/// Writes `text` to `path`; on failure prints `agc: error: cannot write ...`.
bool write_file(const std::string& path, const std::string& text);
/// The pieces one after the other, without joining them first.
bool write_file(const std::string& path, const std::vector<std::string_view>& pieces);

}  // namespace agc::cli
