// agc emit-cpp: writes the generated C++ (DIR/<stem>.h and DIR/<stem>.cpp).
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "transpiler/cli/commands.h"
#include "transpiler/cli/toolchain.h"

namespace agc::cli {

namespace {

const char* kEmitCppHelp =
    "usage: agc emit-cpp FILE.py -o DIR [options]\n"
    "\n"
    "Writes FILE.py as C++20 against agc's runtime: DIR/<stem>.h is the module's API\n"
    "for a C++ app (its functions, its objects' tf.function methods, typed overloads\n"
    "for input_signatures), DIR/<stem>.cpp holds the module and a main() that runs\n"
    "its module-level code (<stem> is FILE's name without .py). DIR is created if\n"
    "needed. Compile with: c++ -O2 DIR/<stem>.cpp $(pkg-config --cflags --libs agc)\n"
    "once agc is installed (or use 'agc build').\n"
    "\n"
    "options:\n"
    "  -o DIR                     the output directory (required)\n"
    "  --lib                      no main(): the module as a library for a C++ app,\n"
    "                             imported (__name__ is <stem>, not \"__main__\")\n";

}  // namespace

int run_emit_cpp(const std::vector<std::string>& args) {
  auto usage_error = [](const std::string& msg) {
    std::fprintf(stderr, "agc emit-cpp: error: %s\n(run 'agc emit-cpp --help' for usage)\n", msg.c_str());
    return 2;
  };
  std::string path, dir;
  bool library = false;
  passes::ConversionOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    std::string error;
    if (a == "-h" || a == "--help") {
      std::printf("%s%s  -h, --help                 show this help\n", kEmitCppHelp, kConversionOptionsHelp);
      return 0;
    } else if (a == "-o") {
      if (i + 1 >= args.size()) return usage_error("-o needs a DIR");
      dir = args[++i];
    } else if (a == "--lib") {
      library = true;
    } else if (parse_conversion_option(a, options, error)) {
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
  if (dir.empty()) return usage_error("missing -o DIR");
  GeneratedCpp generated;
  if (!generate_cpp(path, options, library, generated)) return 1;
  const emit::CppOutput& out = generated.cpp;
  if (!make_dirs(dir)) {
    std::fprintf(stderr, "agc: error: cannot create '%s': %s\n", dir.c_str(), std::strerror(errno));
    return 1;
  }
  std::string stem = module_stem(path);
  if (!write_file(dir + "/" + stem + ".h", out.header) || !write_file(dir + "/" + stem + ".cpp", out.source_pieces())) return 1;
  return 0;
}

}  // namespace agc::cli
