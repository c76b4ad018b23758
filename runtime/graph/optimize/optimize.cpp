#include "runtime/graph/optimize/optimize.h"

#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/fuse_matmul.h"

namespace ag {
namespace {

/// The rewrites that shrink the graph, innermost graphs first, so that an If
/// is lowered once its branches are as small as they get.
void simplify(Graph& g) {
  for (const auto& n : g.nodes()) {
    for (const auto& sub : n->subgraphs) simplify(*sub);
  }
  remove_identities(g);
  fold_constants(g);
  lower_if_to_select(g);  // before CSE and fusion: they then see the inlined branches
  eliminate_common_subexpressions(g);
  hoist_row_products(g);  // needs the loop bounds folded; before fusion takes the body's MatMul
}

/// Fusion runs after every If that can be lowered was: a fused node in a
/// branch would keep its If from being lowered.
void fuse(Graph& g) {
  for (const auto& n : g.nodes()) {
    for (const auto& sub : n->subgraphs) fuse(*sub);
  }
  prune(g);  // a fused run executes all of its ops: dead ones (which might fail) go first
  fuse_scalar(g);
  fuse_matmul(g);  // before elementwise fusion takes the Adds and the activation
  fuse_elementwise(g);
  prune(g);
}

}  // namespace

void optimize(Graph& g) {
  simplify(g);
  fuse(g);
}

}  // namespace ag
