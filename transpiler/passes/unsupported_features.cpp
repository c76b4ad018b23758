#include "transpiler/passes/unsupported_features.h"

#include <fmt/format.h>

#include "transpiler/ast/visitor.h"

namespace agc::passes {

using namespace ast;

namespace {

/// The `else` keyword introducing a loop's else block (the AST keeps no node
/// for it): the last `else` before the block's first statement.
SourceSpan else_keyword(const Node& loop, const Refs& orelse) {
  const SourceSpan& first = orelse.front()->span;
  if (!first.known()) return loop.span;
  std::string_view text = first.file->text();
  size_t at = text.rfind("else", first.begin);
  if (at == std::string_view::npos || at < loop.span.begin) return loop.span;
  return {first.file, static_cast<uint32_t>(at), static_cast<uint32_t>(at + 4)};
}

class Checker : public AstVisitor {
 public:
  explicit Checker(DiagnosticSink& sink) : sink_(sink) {}

 protected:
  void visit_For(const Ptr<For>& n) override {
    if (!n->orelse.empty()) {
      sink_.error(else_keyword(*n, n->orelse),
                  "for/else is not supported by AutoGraph; set a flag in the loop and test it after");
    }
    visit_children(*n);
  }
  void visit_While(const Ptr<While>& n) override {
    if (!n->orelse.empty()) {
      sink_.error(else_keyword(*n, n->orelse),
                  "while/else is not supported by AutoGraph; set a flag in the loop and test it after");
    }
    visit_children(*n);
  }
  void visit_Attribute(const Ptr<Attribute>& n) override {
    const std::string& a = n->attr;
    if (a.size() > 2 && a.compare(0, 2, "__") == 0 && a.compare(a.size() - 2, 2, "__") != 0) {
      sink_.error(n->span, fmt::format("mangled names are not supported by AutoGraph ('{}'); rename the attribute "
                                       "without the leading double underscore",
                                       a));
    }
    visit_children(*n);
  }
  // AutoGraph never converts a generator (TF runs it as written); to-code
  // reports this, and run/build compile it as Python (cpp_module.cpp).
  void visit_Yield(const Ptr<Yield>& n) override { generator(*n); }
  void visit_YieldFrom(const Ptr<YieldFrom>& n) override { generator(*n); }
  void generator(const Node& n) {
    sink_.error(n.span, kGeneratorNotConverted);
  }
  void visit_ClassDef(const Ptr<ClassDef>& n) override {
    sink_.error(n->span, fmt::format("class '{}' is defined inside a function; define it at module level", n->name));
  }

 private:
  DiagnosticSink& sink_;
};

}  // namespace

Ref check_unsupported_features(const Ref& fn, PassContext& ctx) {
  Checker c(ctx.sink);
  c.visit(fn);
  return fn;
}

}  // namespace agc::passes
