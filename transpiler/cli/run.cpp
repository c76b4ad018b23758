// agc run: builds FILE.py into the cache (keyed by the content of what would
// be compiled) and execs it, so its output and exit status are the program's.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "agc_config.h"
#include "transpiler/cli/commands.h"
#include "transpiler/cli/toolchain.h"

namespace agc::cli {

namespace {

const char* kRunHelp =
    "usage: agc run [options] FILE.py [FUNC ARGS_JSON... [--results OUT.jsonl]]\n"
    "\n"
    "Builds FILE.py (as 'agc build' does; cached, see below) and runs its\n"
    "module-level code, printing what Python + TensorFlow would print.\n"
    "\n"
    "With FUNC (a module-level function, @tf.function, or object with __call__),\n"
    "then calls FUNC once per ARGS_JSON, in order, in the same process (so tracing\n"
    "and the tf.function cache behave as in one Python session). An ARGS_JSON is a\n"
    "JSON array of positional arguments or {\"args\": [...], \"kwargs\": {...}};\n"
    "3 is an int and 3.0 a float; a tensor is {\"tensor\": [[1, 2]], \"dtype\": \"float32\"}\n"
    "(dtype optional, inferred as tf.constant does).\n"
    "Each call's outcome is printed after its output as print() shows it (an\n"
    "error as 'ValueError: message'), or with --results written to OUT.jsonl, one\n"
    "line per call: {\"result\": ...} (tensors as {\"tensor\", \"dtype\", \"shape\"}) or\n"
    "{\"error\": {\"type\": \"ValueError\", \"message\": \"...\"}}.\n"
    "\n"
    "Exit status: the program's: 0 when it ran (errors raised by FUNC are outcomes),\n"
    "1 when an exception escaped module-level code (a Python traceback on stderr) or\n"
    "FUNC / an ARGS_JSON is wrong; agc's own: 1 when FILE.py does not transpile or\n"
    "compile, 2 on bad usage. After FILE.py, the options below are still agc's;\n"
    "everything else goes to the program, and all that follows a '--' to its\n"
    "sys.argv.\n"
    "\n"
    "Cache: $AGC_CACHE_DIR, else $XDG_CACHE_HOME/agc, else ~/.cache/agc; one\n"
    "directory per hash of the generated C++, the compiler command and libagrt.a's\n"
    "identity (path, size, mtime), pch/ for the precompiled ag/ag.h (~90 MB per\n"
    "runtime version and optimization), and failed/ for the generated files of\n"
    "a build the C++ compiler rejected (a bug in agc: the error says how to report\n"
    "it). Kept under $AGC_CACHE_MAX_MB (default 4096) by removing the least\n"
    "recently used entries. Delete it at will.\n"
    "\n"
    "The build is 'agc build''s ('agc build --help'): its C++ compiled in parts\n"
    "side by side, a progress line on a terminal when it takes over a second.\n"
    "\n"
    "options (before or after FILE.py; --verbose also says whether the program\n"
    "came from the cache, and how long it ran):\n";

}  // namespace

std::string cached_program(const std::string& path, const BuildOptions& options) {
  GeneratedCpp generated;
  if (!generate_cpp(path, options.conversion, /*library=*/false, generated, options.verbose)) return {};
  RuntimeLocation rt = find_runtime();
  if (!rt.problem.empty()) {
    std::fprintf(stderr, "agc: error: %s\n", rt.problem.c_str());
    return {};
  }

  // Everything that decides the program's bytes names its cache entry (how
  // the C++ is cut into units does not).
  std::string stem = module_stem(path);
  std::vector<std::string> cmd = compiler_command(rt, options.fast);
  for (const auto& l : link_libraries(rt)) cmd.push_back(l);
  ContentHash hash;
  hash.add(AGC_VERSION).add(stem).add(generated.cpp.header);
  for (std::string_view piece : generated.cpp.source_pieces()) hash.add(piece);
  std::string key = hash.add(shell_quote(cmd)).add(file_identity(rt.library)).hex();
  std::string entry = cache_dir() + "/" + key;
  std::string program = entry + "/" + stem;
  if (file_exists(program)) {
    if (options.verbose) std::fprintf(stderr, "agc: cached: %s\n", program.c_str());
    touch(entry);
  } else {
    if (!make_dirs(entry)) {
      std::fprintf(stderr, "agc: error: cannot create the cache directory '%s': %s\n", entry.c_str(),
                   std::strerror(errno));
      return {};
    }
    // Build beside the final name and rename, so a concurrent `agc run` of the
    // same file never executes a half-written program.
    std::string partial = program + ".partial." + std::to_string(getpid());
    if (!build_program(generated, partial, false, options)) {
      std::remove(partial.c_str());
      return {};
    }
    if (std::rename(partial.c_str(), program.c_str()) != 0) {
      std::fprintf(stderr, "agc: error: cannot move the program into the cache '%s': %s\n", program.c_str(),
                   std::strerror(errno));
      std::remove(partial.c_str());
      return {};
    }
    trim_cache({entry});
  }
  return program;
}

int run_run(const std::vector<std::string>& args) {
  auto usage_error = [](const std::string& msg) {
    std::fprintf(stderr, "agc run: error: %s\n(run 'agc run --help' for usage)\n", msg.c_str());
    return 2;
  };
  std::string path;
  BuildOptions options;
  size_t i = 0;
  for (; i < args.size() && path.empty(); ++i) {
    const std::string& a = args[i];
    std::string error;
    if (a == "-h" || a == "--help") {
      std::printf("%s%s%s  -h, --help                 show this help\n", kRunHelp, kBuildOptionsHelp,
                  kConversionOptionsHelp);
      return 0;
    } else if (parse_build_option(a, options, error)) {
      if (!error.empty()) return usage_error(error);
    } else if (!a.empty() && a[0] == '-') {
      return usage_error("unknown option '" + a + "'");
    } else {
      path = a;
    }
  }
  if (path.empty()) return usage_error("missing FILE.py");
  // After FILE.py, agc run's own options still mean what they mean before it
  // (`agc run model.py --verbose`): the program has none of these names. The
  // rest, and everything after a `--`, is the program's.
  std::vector<std::string> program_args;
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string error;
    if (a == "--") {
      program_args.insert(program_args.end(), args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
      break;
    }
    if (parse_build_option(a, options, error)) {
      if (!error.empty()) return usage_error(error);
    } else {
      program_args.push_back(a);
    }
  }

  std::string program = cached_program(path, options);
  if (program.empty()) return 1;
  std::string stem = module_stem(path);

  if (options.verbose) {
    // The program's run is a step too: run it as a child to time it.
    std::vector<std::string> argv{stem};
    argv.insert(argv.end(), program_args.begin(), program_args.end());
    Stopwatch running;
    int status = run_program(program, argv);
    std::fprintf(stderr, "agc: run: %.2f s (exit status %d)\n", running.seconds(), status);
    return status < 0 ? 1 : status;
  }
  std::vector<char*> argv;
  argv.push_back(stem.data());
  for (auto& a : program_args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  execv(program.c_str(), argv.data());
  std::fprintf(stderr, "agc: error: cannot run '%s': %s\n", program.c_str(), std::strerror(errno));
  return 1;
}

}  // namespace agc::cli
