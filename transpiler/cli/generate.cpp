// What emit-cpp, build and run share: FILE.py to C++ text, and the conversion
// options that change it.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <sstream>

#include "transpiler/base/source.h"
#include "transpiler/frontend/parse.h"
#include "transpiler/cli/commands.h"
#include "transpiler/cli/toolchain.h"
#include "transpiler/emit/cpp_emitter.h"
#include "transpiler/passes/convert_module.h"

namespace agc::cli {

const char* const kConversionOptionsHelp =
    "  --autograph-compat         turn off agc's list conversion (append/pop and item\n"
    "                             assignment in loops), as TensorFlow converts code\n"
    "  --optional-features=LIST   AutoGraph optional features, comma-separated:\n"
    "                             ASSERT_STATEMENTS, BUILTIN_FUNCTIONS, EQUALITY_OPERATORS\n";

std::string module_stem(const std::string& path) {
  size_t slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.size() > 3 && name.compare(name.size() - 3, 3, ".py") == 0) name.resize(name.size() - 3);
  return name;
}

bool parse_conversion_option(const std::string& arg, passes::ConversionOptions& options, std::string& error) {
  if (arg == "--autograph-compat") {
    options.lists = false;
    return true;
  }
  const std::string prefix = "--optional-features=";
  if (arg.rfind(prefix, 0) != 0) return false;
  std::stringstream ss(arg.substr(prefix.size()));
  std::string f;
  while (std::getline(ss, f, ',')) {
    if (f.empty()) continue;
    bool known = false;
    for (const auto& s : passes::supported_optional_features()) known = known || s == f;
    if (!known) {
      error = "unknown optional feature '" + f + "'";
      return true;
    }
    options.optional_features.insert(f);
  }
  return true;
}

namespace {

/// 1073 as "1,073".
std::string with_commas(size_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

std::string GeneratedCpp::description() const {
  size_t slash = path.find_last_of('/');
  return (slash == std::string::npos ? path : path.substr(slash + 1)) + " (" + with_commas(functions) + " function" +
         (functions == 1 ? "" : "s") + ", " + with_commas(lines) + " line" + (lines == 1 ? "" : "s") + ")";
}

bool generate_cpp(const std::string& path, const passes::ConversionOptions& options, bool library, GeneratedCpp& out,
                  bool verbose) {
  out.path = path;
  if (!read_source_file(path, out.python)) return false;
  auto file = std::make_shared<SourceFile>(path, out.python);
  out.lines = static_cast<size_t>(std::count(out.python.begin(), out.python.end(), '\n')) +
              (!out.python.empty() && out.python.back() != '\n');
  // passes::convert_file, a stage at a time.
  Stopwatch stage;
  DiagnosticSink parsing;
  ast::Module m = frontend::parse_module(file, parsing);
  out.parse_seconds = stage.seconds();
  stage.restart();
  passes::ModuleRequest request{options, {}, {}};
  request.decorator_features = true;
  passes::ConvertedModule cm;
  if (parsing.has_file_errors()) {
    cm.module = std::move(m);
    cm.diagnostics.report_all(parsing);
  } else {
    cm = passes::convert_module(m, request, parsing.diagnostics());
  }
  out.convert_seconds = stage.seconds();
  out.functions = cm.entities.size();
  stage.restart();
  DiagnosticSink sink;
  sink.report_all(cm.diagnostics);
  // A function agc cannot convert or compile is a warning (emit_cpp reports
  // it): the rest of the file still builds.
  out.cpp = emit::emit_cpp(cm, module_stem(path), library, sink);
  out.emit_seconds = stage.seconds();
  std::fputs(sink.render_all().c_str(), stderr);
  if (verbose) {
    std::fprintf(stderr, "agc: parse %.3f s, convert %.3f s, emit C++ %.3f s (%s of C++)\n", out.parse_seconds,
                 out.convert_seconds, out.emit_seconds, (with_commas(out.cpp.source_size() / 1024) + " KB").c_str());
  }
  return !sink.has_errors();
}

}  // namespace agc::cli
