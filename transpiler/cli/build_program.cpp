// What `agc build` and `agc run` share: their options, and compiling a
// module's C++ (cut into translation units for the machine's cores) with a
// failure reported at the user's lines.
#include <cstdio>

#include "transpiler/cli/commands.h"
#include "transpiler/cli/compile.h"
#include "transpiler/cli/compile_failure.h"

namespace agc::cli {

const char* const kBuildOptionsHelp =
    "  --fast-build               compile the C++ at -Og instead of -O2: a big program\n"
    "                             builds in about 40% of the time, and its Python-level\n"
    "                             code (not its tensor kernels) runs about 6% slower\n"
    "  --verbose, -v              show each step (the compiler's commands and output)\n"
    "                             and the time it took\n";

bool parse_build_option(const std::string& arg, BuildOptions& options, std::string& error) {
  if (arg == "--fast-build") {
    options.fast = true;
    return true;
  }
  if (arg == "--verbose" || arg == "-v") {
    options.verbose = true;
    return true;
  }
  return parse_conversion_option(arg, options.conversion, error);
}

bool build_program(const GeneratedCpp& generated, const std::string& output, bool library,
                   const BuildOptions& options) {
  RuntimeLocation rt = find_runtime();
  if (!rt.problem.empty()) {
    std::fprintf(stderr, "agc: error: %s\n", rt.problem.c_str());
    return false;
  }
  CompileRequest request;
  request.stem = module_stem(generated.path);
  request.header = generated.cpp.header;
  request.units = emit::translation_units(generated.cpp, build_units(generated.cpp.source_size()));
  request.output = output;
  request.library = library;
  request.fast = options.fast;
  request.verbose = options.verbose;
  request.description = generated.description();
  CompileFailure failure;
  if (compile(request, rt, failure)) return true;
  if (!failure.tool.empty()) report_compile_failure(generated, failure);
  return false;
}

}  // namespace agc::cli
