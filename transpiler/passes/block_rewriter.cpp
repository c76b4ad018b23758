#include "transpiler/passes/block_rewriter.h"

namespace agc::passes {

using namespace ast;

namespace {

Refs run(const Refs& stmts, size_t start, const std::function<Refs(const Ref&)>& visit,
         const std::function<Placement(Refs)>& after) {
  Refs out;
  for (size_t i = start; i < stmts.size(); ++i) {
    Refs r = visit(stmts[i]);
    if (r.empty()) continue;
    Placement p = after(std::move(r));
    if (!p.into) {
      out.insert(out.end(), p.nodes.begin(), p.nodes.end());
      continue;
    }
    // Everything after this statement moves into the chosen block of `into`.
    Refs rest = run(stmts, i + 1, visit, after);
    for (auto& n : p.nodes) {
      if (n.get() != p.into) continue;
      auto c = clone(n->as<If>());
      Refs& dest = p.into_orelse ? c->orelse : c->body;
      dest.insert(dest.end(), rest.begin(), rest.end());
      n = c;
    }
    out.insert(out.end(), p.nodes.begin(), p.nodes.end());
    return out;
  }
  return out;
}

}  // namespace

Refs visit_block(const Refs& stmts, const std::function<Refs(const Ref&)>& visit,
                 const std::function<Placement(Refs)>& after) {
  return run(stmts, 0, visit, after);
}

}  // namespace agc::passes
