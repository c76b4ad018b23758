#include "transpiler/emit/to_code.h"

#include <fmt/format.h>

#include "transpiler/emit/python_printer.h"

namespace agc::emit {

std::string to_code(const ast::Module& m, const ToCodeRequest& request, DiagnosticSink& sink) {
  auto entities = passes::find_entities(m);
  std::vector<bool> wanted(entities.size(), request.functions.empty());
  for (const auto& name : request.functions) {
    bool found = false;
    for (size_t i = 0; i < entities.size(); ++i) {
      const auto& e = entities[i];
      if (e.qualified_name == name || e.fn->as<ast::FunctionDef>().name == name) {
        wanted[i] = true;
        found = true;
      }
    }
    if (!found) {
      sink.error({m.file.get(), 0, 0}, fmt::format("no function named '{}' in {}", name, m.file->path()));
    }
  }
  if (sink.has_errors()) return "";
  auto globals = passes::module_names(m);
  auto imports = passes::module_imports(m);
  std::string out;
  for (size_t i = 0; i < entities.size(); ++i) {
    if (!wanted[i]) continue;
    ast::Ref converted =
        passes::convert_entity(entities[i].fn, request.options, globals, imports, sink, request.observer);
    if (!converted) continue;
    // inspect.getsource ends the function with a newline; print adds another.
    out += to_source(converted);
    out += "\n\n";
  }
  if (sink.has_errors()) return "";
  return out;
}

}  // namespace agc::emit
