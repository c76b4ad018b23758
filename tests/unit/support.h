// Helpers shared by the unit tests: parsing snippets and printing results.
#pragma once

#include <memory>
#include <string>

#include "transpiler/ast/ast.h"
#include "transpiler/base/diagnostic.h"
#include "transpiler/ast/python_printer.h"
#include "transpiler/frontend/parse.h"

namespace agc::testing {

/// A parsed snippet; the SourceFile lives as long as the module.
struct Parsed {
  ast::Module module;
  DiagnosticSink sink;
  std::string errors() const { return sink.render_all(); }
  const ast::Refs& body() const { return module.body; }
  const ast::Ref& first() const { return module.body.at(0); }
};

inline std::unique_ptr<Parsed> parse(const std::string& source, const std::string& path = "t.py") {
  auto p = std::make_unique<Parsed>();
  p->module = frontend::parse_module(std::make_shared<SourceFile>(path, source), p->sink);
  return p;
}

/// Source text as the printer (astunparse) writes it.
inline std::string roundtrip(const std::string& source) {
  auto p = parse(source);
  if (p->sink.has_errors()) return "ERRORS:\n" + p->errors();
  return ast::to_source(p->body());
}

}  // namespace agc::testing
