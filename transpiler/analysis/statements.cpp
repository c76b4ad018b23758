#include "transpiler/analysis/statements.h"

namespace agc::analysis {

using namespace ast;

namespace {

void walk(const Refs& body, const std::function<void(const Node*)>& on_statement, std::vector<const Node*>& nested);

void walk_stmt(const Node* s, const std::function<void(const Node*)>& on_statement, std::vector<const Node*>& nested) {
  switch (s->kind) {
    case NodeKind::FunctionDef:
      nested.push_back(s);
      break;
    case NodeKind::If:
      walk(s->as<If>().body, on_statement, nested);
      walk(s->as<If>().orelse, on_statement, nested);
      break;
    case NodeKind::While:
      walk(s->as<While>().body, on_statement, nested);
      walk(s->as<While>().orelse, on_statement, nested);
      break;
    case NodeKind::For:
      walk(s->as<For>().body, on_statement, nested);
      walk(s->as<For>().orelse, on_statement, nested);
      break;
    case NodeKind::Try: {
      const auto& t = s->as<Try>();
      walk(t.body, on_statement, nested);
      for (const auto& h : t.handlers) {
        walk(h->as<ExceptHandler>().body, on_statement, nested);
        on_statement(h.get());
      }
      walk(t.orelse, on_statement, nested);
      walk(t.finalbody, on_statement, nested);
      break;
    }
    case NodeKind::With:
      walk(s->as<With>().body, on_statement, nested);
      break;
    default:
      break;
  }
  on_statement(s);
}

void walk(const Refs& body, const std::function<void(const Node*)>& on_statement, std::vector<const Node*>& nested) {
  for (const auto& s : body) walk_stmt(s.get(), on_statement, nested);
}

}  // namespace

void for_each_statement(const Node* function, const std::function<void(const Node*)>& on_statement,
                        const std::function<void(const Node*)>& on_nested) {
  std::vector<const Node*> nested;
  walk(function->as<FunctionDef>().body, on_statement, nested);
  for (const Node* n : nested) on_nested(n);
}

}  // namespace agc::analysis
