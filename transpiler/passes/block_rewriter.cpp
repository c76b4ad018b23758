#include "transpiler/passes/block_rewriter.h"

#include "transpiler/base/diagnostic.h"

namespace agc::passes {

using namespace ast;

namespace {

/// Like AstMutator::rewrite_block: `out` is only built once something changed.
bool run(const Refs& stmts, size_t start, const std::function<Stmts(const Ref&)>& visit,
         const std::function<Placement(Stmts)>& after, Refs& out, int guards = 0) {
  bool changed = start > 0;
  for (size_t i = start; i < stmts.size(); ++i) {
    Stmts r = visit(stmts[i]);
    Placement p;
    if (!r.empty()) p = after(std::move(r));
    if (!changed) {
      if (!p.into && p.nodes.size() == 1 && p.nodes[0] == stmts[i]) continue;
      changed = true;
      out.assign(stmts.begin() + static_cast<long>(start), stmts.begin() + static_cast<long>(i));
    }
    if (!p.into) {
      out.insert(out.end(), p.nodes.begin(), p.nodes.end());
      continue;
    }
    // Everything after this statement moves into the chosen block of `into`.
    if (i + 1 < stmts.size() && guards >= kMaxGuardNesting) {
      throw DiagnosticError(stmts[i + 1]->span)
          << "the code from here on would be nested more than " << kMaxGuardNesting
          << " levels deep: each return or continue before it in this block wraps the rest of the block in "
             "one more condition; split the block into smaller functions";
    }
    Refs rest;
    run(stmts, i + 1, visit, after, rest, guards + 1);
    for (const Ref& n : p.nodes) {
      if (n.get() != p.into) {
        out.push_back(n);
        continue;
      }
      auto c = clone(n->as<If>());
      Refs& dest = p.into_orelse ? c->orelse : c->body;
      dest.insert(dest.end(), rest.begin(), rest.end());
      out.push_back(c);
    }
    return true;
  }
  return changed;
}

}  // namespace

Refs visit_block(const Refs& stmts, const std::function<Stmts(const Ref&)>& visit,
                 const std::function<Placement(Stmts)>& after) {
  Refs out;
  return run(stmts, 0, visit, after, out) ? out : stmts;
}

}  // namespace agc::passes
