// The agc subcommands. Each takes its arguments (after the subcommand name) and
// returns the process exit status: 0 success, 1 diagnostics, 2 usage errors.
#pragma once

#include <string>
#include <vector>

#include "transpiler/emit/cpp_emitter.h"
#include "transpiler/passes/pass.h"

namespace agc::cli {

int run_to_code(const std::vector<std::string>& args);
/// agc explain: to-code's conversion report (to-code --report).
int run_explain(const std::vector<std::string>& args);
int run_emit_cpp(const std::vector<std::string>& args);
int run_build(const std::vector<std::string>& args);
int run_run(const std::vector<std::string>& args);
int run_graph(const std::vector<std::string>& args);
/// saved-model, convert, serve: runs the runtime's agc-model program in
/// this process's place (cli/model_tool.cpp).
int run_model_tool(const std::string& command, const std::vector<std::string>& args);

/// The module name of a Python file: its file name without directories and
/// without ".py" ("models/mnist.py" -> "mnist").
std::string module_stem(const std::string& path);
/// FILE.py as C++, and what went into it.
struct GeneratedCpp {
  /// FILE.py as given, and its text.
  std::string path;
  std::string python;
  emit::CppOutput cpp;
  /// The module-level functions and methods converted, and FILE.py's lines.
  size_t functions = 0;
  size_t lines = 0;
  /// Seconds spent parsing, converting and emitting C++.
  double parse_seconds = 0, convert_seconds = 0, emit_seconds = 0;

  /// "model.py (42 functions, 1,073 lines)", for a build's progress line.
  std::string description() const;
};
/// Reads, parses, converts and emits FILE.py as C++. Diagnostics go to
/// stderr (file:line:col: error: ...); false then. With `verbose`, the time
/// of each stage goes there too.
bool generate_cpp(const std::string& path, const passes::ConversionOptions& options, bool library,
                  GeneratedCpp& out, bool verbose = false);

/// How `agc build` and `agc run` compile (their shared options).
struct BuildOptions {
  passes::ConversionOptions conversion;
  /// --fast-build: the C++ at -Og, not -O2.
  bool fast = false;
  /// --verbose: each step, its output and its time.
  bool verbose = false;
};
/// True when `arg` is one of build's and run's own options (--fast-build,
/// --verbose/-v, a conversion option); `error` is set when it is one but
/// malformed.
bool parse_build_option(const std::string& arg, BuildOptions& options, std::string& error);
/// The help text of those options.
extern const char* const kBuildOptionsHelp;

/// Compiles `generated` into `output` (a program, or a static library)
/// as `options` say; on failure the report is on stderr.
bool build_program(const GeneratedCpp& generated, const std::string& output, bool library,
                   const BuildOptions& options);
/// Builds FILE.py into agc run's cache, or finds it there (cli/run.cpp):
/// the program's path; "" when it does not build (why is on stderr).
std::string cached_program(const std::string& path, const BuildOptions& options);
/// The conversion options shared by to-code, emit-cpp, build and run
/// (--autograph-compat, --optional-features=LIST). True when `arg` is one of
/// them; `error` is set when it is one but malformed.
bool parse_conversion_option(const std::string& arg, passes::ConversionOptions& options, std::string& error);
/// The help text of those options.
extern const char* const kConversionOptionsHelp;

/// Reads a whole file; on failure prints `agc: error: ...` and returns false.
bool read_source_file(const std::string& path, std::string& out);

}  // namespace agc::cli
