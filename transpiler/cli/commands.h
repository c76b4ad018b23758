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
/// Reads, parses, converts and emits FILE.py as C++. Diagnostics go to
/// stderr (file:line:col: error: ...); false then.
bool generate_cpp(const std::string& path, const passes::ConversionOptions& options, bool library,
                  emit::CppOutput& out);
/// Builds FILE.py into agc run's cache, or finds it there (cli/run.cpp):
/// the program's path; "" when it does not build (why is on stderr).
std::string cached_program(const std::string& path, const passes::ConversionOptions& options, bool verbose);
/// The conversion options shared by to-code, emit-cpp, build and run
/// (--autograph-compat, --optional-features=LIST). True when `arg` is one of
/// them; `error` is set when it is one but malformed.
bool parse_conversion_option(const std::string& arg, passes::ConversionOptions& options, std::string& error);
/// The help text of those options.
extern const char* const kConversionOptionsHelp;

/// Reads a whole file; on failure prints `agc: error: ...` and returns false.
bool read_source_file(const std::string& path, std::string& out);

}  // namespace agc::cli
