// Canonicalization: each op that has a simpler equivalent says so in its
// definition (OpDef::canonicalize, as MLIR ops carry their canonicalization
// patterns); this pass only applies what the definitions say.
#include "runtime/core/error.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/optimize.h"
#include "runtime/ops/registry.h"

namespace ag {

void canonicalize(Graph& g) {
  for (const auto& up : g.nodes()) {
    Node& n = *up;
    if (n.op->canonicalize == nullptr) continue;
    std::optional<CanonicalForm> form = with_context(n, n.op->canonicalize);
    if (!form) continue;
    n.op = &OpRegistry::global().get(form->op);
    n.attrs = std::move(form->attrs);
  }
}

}  // namespace ag
