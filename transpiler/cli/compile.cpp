#include "transpiler/cli/compile.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <mutex>
#include <thread>

#include "agc_config.h"

namespace agc::cli {

namespace {

bool is_header_file(const std::filesystem::path& p) {
  std::string ext = p.extension().string();
  return ext == ".h" || ext == ".def" || ext == ".inc";
}

// The identity (path, size, mtime) of every runtime header ag/ag.h can reach,
// so that a precompiled header is rebuilt whenever one of them changes (GCC
// does not check that itself).
std::string runtime_headers_identity(const RuntimeLocation& rt) {
  std::string id;
  for (const auto& inc : rt.include_dirs) {
    for (const char* sub : {"ag", "runtime"}) {
      std::error_code ec;
      std::filesystem::recursive_directory_iterator it(inc + "/" + sub, ec), end;
      std::vector<std::string> files;
      for (; !ec && it != end; it.increment(ec)) {
        if (it->is_regular_file(ec) && is_header_file(it->path())) files.push_back(file_identity(it->path().string()));
      }
      std::sort(files.begin(), files.end());
      for (const auto& f : files) id += f + "\n";
    }
  }
  return id;
}

// A precompiled ag/ag.h, built once per compiler, flags and runtime headers
// under the cache dir: parsing ag.h is most of a small model's compile time.
// GCC only (it finds <name>.gch beside a header given with -include); empty
// when unavailable, and then the compile simply goes without.
std::string precompiled_header(const std::vector<std::string>& cmd, const RuntimeLocation& rt, bool verbose) {
  if (std::getenv("AGC_NO_PCH") != nullptr && *std::getenv("AGC_NO_PCH") != 0) return {};
  std::vector<std::string> version_cmd = {cmd[0], "--version"};
  ToolResult version = run_tool(version_cmd);
  if (version.status != 0 || version.output.find("Free Software Foundation") == std::string::npos) return {};
  std::string key =
      ContentHash().add(AGC_VERSION).add(shell_quote(cmd)).add(version.output).add(runtime_headers_identity(rt)).hex();
  std::string dir = cache_dir() + "/pch/" + key;
  std::string header = dir + "/ag_pch.h";
  std::string gch = header + ".gch";
  if (file_identity(gch).empty()) {
    if (!make_dirs(dir) || !write_file(header, "#include <ag/ag.h>\n")) return {};
    std::string partial = gch + ".partial." + std::to_string(getpid());
    std::vector<std::string> pch_cmd = cmd;
    pch_cmd.insert(pch_cmd.end(), {"-x", "c++-header", header, "-o", partial});
    if (verbose) std::fprintf(stderr, "agc: %s\n", shell_quote(pch_cmd).c_str());
    ToolResult r = run_tool(pch_cmd);
    if (r.status != 0 || std::rename(partial.c_str(), gch.c_str()) != 0) {
      if (verbose) std::fprintf(stderr, "%sagc: no precompiled header (it did not build)\n", r.output.c_str());
      std::remove(partial.c_str());
      return {};
    }
  }
  touch(dir);
  return header;
}

/// Runs `commands`, `jobs` at a time, each with its output captured; calls
/// `tick` every tenth of a second until all are done.
std::vector<ToolResult> run_all(const std::vector<std::vector<std::string>>& commands, size_t jobs,
                                const std::function<void()>& tick) {
  std::vector<ToolResult> results(commands.size());
  std::atomic<size_t> next{0};
  size_t done = 0;
  std::mutex m;
  std::condition_variable finished;
  std::vector<std::thread> workers;
  for (size_t w = 0; w < std::min(jobs, commands.size()); ++w) {
    workers.emplace_back([&] {
      for (size_t i; (i = next++) < commands.size();) {
        results[i] = run_tool(commands[i]);
        std::lock_guard<std::mutex> lock(m);
        ++done;
        finished.notify_one();
      }
    });
  }
  {
    std::unique_lock<std::mutex> lock(m);
    while (done < commands.size()) {
      finished.wait_for(lock, std::chrono::milliseconds(100));
      lock.unlock();
      tick();
      lock.lock();
    }
  }
  for (std::thread& t : workers) t.join();
  return results;
}

/// `text` with every `from` replaced by `to`.
std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

/// Copies what a failed compile read into cache_dir()/failed/<stem>-<hash>,
/// with build.sh (its commands, run from there) and the tools' output;
/// fills `failure.kept` ("" when that did not work) and makes the output's
/// paths into the work dir paths into the kept directory.
void keep_failed_build(const CompileRequest& request, const std::string& work,
                       const std::vector<std::vector<std::string>>& commands, CompileFailure& failure) {
  namespace fs = std::filesystem;
  ContentHash hash;
  hash.add(request.header);
  for (const std::string& u : request.units) hash.add(u);
  const std::string kept = cache_dir() + "/failed/" + request.stem + "-" + hash.hex().substr(0, 12);
  std::error_code ec;
  fs::remove_all(kept, ec);
  if (!make_dirs(kept)) return;
  // The files as the compiler read them (a compiler wrapper may have changed them).
  std::vector<std::string> files = failure.unit_files;
  files.push_back(request.stem + ".h");
  for (const std::string& f : files) {
    fs::copy_file(work + "/" + f, kept + "/" + f, fs::copy_options::overwrite_existing, ec);
    if (ec) return;
  }
  std::string script = "#!/bin/sh\n# The commands of agc " AGC_VERSION "'s build of " + request.stem +
                       " that failed, run from this directory\n# (without the precompiled ag/ag.h agc keeps in its "
                       "cache: the same code, parsed again).\nset -e\ncd \"$(dirname \"$0\")\"\n";
  for (const std::vector<std::string>& c : commands) {
    // Without the precompiled ag.h, which lives in the cache (and only saves time).
    std::vector<std::string> args;
    for (size_t i = 0; i < c.size(); ++i) {
      if (c[i] == "-Winvalid-pch") continue;
      if (c[i] == "-include" && i + 1 < c.size() && c[i + 1].find("/pch/") != std::string::npos) {
        ++i;
        continue;
      }
      args.push_back(c[i]);
    }
    for (size_t i = 0; i < args.size(); ++i) {
      if (i > 0 && args[i - 1] == "-o" && args[i] == request.output) args[i] = request.library ? "lib" + request.stem + ".a" : request.stem;
      args[i] = replace_all(args[i], work, ".");
    }
    script += shell_quote(args) + "\n";
  }
  failure.output = replace_all(failure.output, work, kept);
  if (!write_file(kept + "/build.sh", script) || !write_file(kept + "/compiler-output.txt", failure.output)) return;
  fs::permissions(kept + "/build.sh", fs::perms::owner_exec, fs::perm_options::add, ec);
  failure.kept = kept;
}

/// "agc: compiling DESCRIPTION ..." once a build has run for a second, when
/// stderr is a terminal (a script or a test sees nothing), and then how long
/// it took.
class Progress {
 public:
  explicit Progress(const CompileRequest& request)
      : request_(request), shown_(!request.verbose && !request.description.empty() && isatty(2) == 1) {}
  void tick() {
    if (!shown_ || announced_ || clock_.seconds() < 1.0) return;
    announced_ = true;
    std::fprintf(stderr, "agc: compiling %s ...\n", request_.description.c_str());
    std::fflush(stderr);
  }
  void done() const {
    if (announced_) std::fprintf(stderr, "agc: compiled %s in %.1f s\n", request_.stem.c_str(), clock_.seconds());
  }

 private:
  const CompileRequest& request_;
  const bool shown_;
  bool announced_ = false;
  const Stopwatch clock_;
};

}  // namespace

size_t build_jobs() {
  if (const char* j = std::getenv("AGC_BUILD_JOBS"); j != nullptr && std::atoi(j) > 0) {
    return static_cast<size_t>(std::atoi(j));
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

size_t build_units(size_t bytes) {
  constexpr size_t kUnitBytes = 64 * 1024;
  return std::clamp<size_t>(bytes / kUnitBytes, 1, build_jobs());
}

bool compile(const CompileRequest& request, const RuntimeLocation& rt, CompileFailure& failure) {
  WorkDir work;
  const std::string& dir = work.path();
  if (dir.empty()) {
    std::fprintf(stderr, "agc: error: cannot create a build directory: %s\n", std::strerror(errno));
    return false;
  }
  std::vector<std::string>& files = failure.unit_files;
  files.clear();
  for (size_t i = 0; i < request.units.size(); ++i) {
    files.push_back(request.stem + (i == 0 ? "" : "_" + std::to_string(i + 1)) + ".cpp");
    if (!write_file(dir + "/" + files[i], request.units[i])) return false;
  }
  if (!write_file(dir + "/" + request.stem + ".h", request.header)) return false;

  std::vector<std::string> cmd = compiler_command(rt, request.fast);
  std::string pch = precompiled_header(cmd, rt, request.verbose);
  const char* ar = std::getenv("AR");
  std::vector<std::string> link =
      request.library ? std::vector<std::string>{ar != nullptr && *ar != 0 ? ar : "ar", "rcs", request.output} : cmd;
  // -Winvalid-pch: a .gch that GCC skips (flags or macros that differ) says so under --verbose.
  if (!pch.empty()) cmd.insert(cmd.end(), {"-Winvalid-pch", "-include", pch});
  cmd.push_back("-I" + dir);
  std::vector<std::vector<std::string>> compiles;
  for (const std::string& f : files) {
    std::string object = dir + "/" + f.substr(0, f.size() - 4) + ".o";
    compiles.push_back(cmd);
    compiles.back().insert(compiles.back().end(), {"-c", "-o", object, dir + "/" + f});
    link.push_back(object);
  }
  if (!request.library) {
    link.insert(link.end(), {"-o", request.output});
    for (const auto& l : link_libraries(rt)) link.push_back(l);
  }
  std::vector<std::vector<std::string>> all = compiles;
  all.push_back(link);

  // Compile the units side by side, then link (or archive) them.
  if (request.verbose) {
    for (const auto& c : compiles) std::fprintf(stderr, "agc: %s\n", shell_quote(c).c_str());
  }
  Progress progress(request);
  const size_t jobs = build_jobs();
  Stopwatch step;
  std::vector<ToolResult> results = run_all(compiles, jobs, [&] { progress.tick(); });
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i].status == 0 && !request.verbose) continue;
    failure.output += results[i].output;
    if (results[i].status != 0 && failure.tool.empty()) {
      failure.compiling = true;
      failure.tool = "the C++ compiler";
      failure.status = results[i].status;
    }
  }
  if (request.verbose) {
    std::fputs(failure.output.c_str(), stderr);
    std::fprintf(stderr, "agc: compile: %.2f s (%zu translation unit%s, %zu at a time)\n", step.seconds(),
                 files.size(), files.size() == 1 ? "" : "s", std::min(jobs, files.size()));
  }
  if (failure.tool.empty()) {
    failure.output.clear();
    if (request.library) std::remove(request.output.c_str());  // `ar r` would add to an old archive
    if (request.verbose) std::fprintf(stderr, "agc: %s\n", shell_quote(link).c_str());
    step.restart();
    ToolResult r = run_tool(link);
    if (request.verbose) {
      std::fputs(r.output.c_str(), stderr);
      std::fprintf(stderr, "agc: %s: %.2f s\n", request.library ? "archive" : "link", step.seconds());
    }
    if (r.status != 0) {
      failure.output = r.output;
      failure.tool = request.library ? "ar" : "the linker";
      failure.status = r.status;
    }
  }
  if (failure.tool.empty()) {
    progress.done();
    return true;
  }
  keep_failed_build(request, dir, all, failure);
  return false;
}

}  // namespace agc::cli
