// What emit-cpp, build and run share: FILE.py to C++ text, and the conversion
// options that change it.
#include <cstdio>
#include <memory>
#include <sstream>

#include "transpiler/base/source.h"
#include "transpiler/cli/commands.h"
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

bool generate_cpp(const std::string& path, const passes::ConversionOptions& options, bool library,
                  emit::CppOutput& out) {
  std::string text;
  if (!read_source_file(path, text)) return false;
  auto file = std::make_shared<SourceFile>(path, std::move(text));
  passes::ModuleRequest request{options, {}, {}};
  request.decorator_features = true;
  passes::ConvertedModule cm = passes::convert_file(file, request);
  DiagnosticSink sink;
  sink.report_all(cm.diagnostics);
  // A function agc cannot convert or compile is a warning (emit_cpp reports
  // it): the rest of the file still builds.
  out = emit::emit_cpp(cm, module_stem(path), library, sink);
  std::fputs(sink.render_all().c_str(), stderr);
  return !sink.has_errors();
}

}  // namespace agc::cli
