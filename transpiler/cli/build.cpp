// agc build: FILE.py to a program (module-level code is main) or, with --lib,
// a static library and its header.
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "transpiler/cli/commands.h"
#include "transpiler/cli/toolchain.h"

namespace agc::cli {

namespace {

const char* kBuildHelp =
    "usage: agc build FILE.py -o OUT [options]\n"
    "\n"
    "Compiles FILE.py with the system C++ compiler ($CXX, else c++; -O2 -std=c++20)\n"
    "and links agc's runtime (libagrt.a) into the program OUT, whose main runs the\n"
    "module-level code. 'OUT FUNC ARGS_JSON...' also calls FUNC (see 'agc run --help').\n"
    "With --lib, OUT is a static library holding the module, and <stem>.h (its\n"
    "functions for a C++ app) is written beside it; build the app with\n"
    "  c++ app.cpp OUT $(pkg-config --cflags --libs agc)\n"
    "once agc is installed (meson install), or see the user guide for the flags.\n"
    "\n"
    "The runtime is the one agc was built with, or an installed agc's (PREFIX/include/agc\n"
    "and PREFIX/lib/.../libagrt.a); AGC_RUNTIME_DIR=DIR uses DIR/include and\n"
    "DIR/lib/libagrt.a instead.\n"
    "With GCC, ag/ag.h is precompiled once into the\n"
    "cache directory ('agc run --help'), which saves most of a small model's\n"
    "parse time; AGC_NO_PCH=1 compiles without it.\n"
    "\n"
    "A big module's C++ is compiled in parts side by side, one per 64 KB, as many\n"
    "at a time as the machine has cores ($AGC_BUILD_JOBS sets how many). On a\n"
    "terminal, a build that takes longer than a second says what it compiles and,\n"
    "at the end, how long it took. If the C++ compiler rejects the generated code\n"
    "(a bug in agc), each of its errors is shown at your line, and the generated\n"
    "files are kept under the cache directory for the bug report.\n"
    "\n"
    "options:\n"
    "  -o OUT                     the program or library to write (required)\n"
    "  --lib                      a static library and header instead of a program\n";

}  // namespace

int run_build(const std::vector<std::string>& args) {
  auto usage_error = [](const std::string& msg) {
    std::fprintf(stderr, "agc build: error: %s\n(run 'agc build --help' for usage)\n", msg.c_str());
    return 2;
  };
  std::string path, output;
  bool library = false;
  BuildOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string error;
    if (a == "-h" || a == "--help") {
      std::printf("%s%s%s  -h, --help                 show this help\n", kBuildHelp, kBuildOptionsHelp,
                  kConversionOptionsHelp);
      return 0;
    } else if (a == "-o") {
      if (i + 1 >= args.size()) return usage_error("-o needs a file name");
      output = args[++i];
    } else if (a == "--lib") {
      library = true;
    } else if (parse_build_option(a, options, error)) {
      if (!error.empty()) return usage_error(error);
    } else if (!a.empty() && a[0] == '-') {
      return usage_error("unknown option '" + a + "'");
    } else if (path.empty()) {
      path = a;
    } else {
      return usage_error("more than one input file ('" + path + "' and '" + a + "')");
    }
  }
  if (path.empty()) return usage_error("missing FILE.py");
  if (output.empty()) return usage_error("missing -o OUT");
  GeneratedCpp generated;
  if (!generate_cpp(path, options.conversion, library, generated, options.verbose)) return 1;
  size_t slash = output.find_last_of('/');
  std::string dir = slash == std::string::npos ? "." : output.substr(0, slash == 0 ? 1 : slash);
  if (!make_dirs(dir)) {
    std::fprintf(stderr, "agc: error: cannot create '%s': %s\n", dir.c_str(), std::strerror(errno));
    return 1;
  }
  if (!build_program(generated, output, library, options)) return 1;
  if (library && !write_file(dir + "/" + module_stem(path) + ".h", generated.cpp.header)) return 1;
  return 0;
}

}  // namespace agc::cli
