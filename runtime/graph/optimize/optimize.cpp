// The optimizer's pass lists (pipeline.h), each position with its reason.
#include "runtime/graph/optimize/optimize.h"

#include <iterator>

#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/fuse_matmul.h"
#include "runtime/graph/optimize/pipeline.h"

namespace ag {
namespace {

constexpr GraphPass kSimplification[] = {
    // First: every later pass sees through calls (their bodies, subgraphs,
    // were simplified already).
    {"inline_calls", inline_calls},
    {"canonicalize", canonicalize},  // every later pass sees one form of each op
    {"remove_identities", remove_identities},
    {"fold_constants", fold_constants},
    // Before CSE and fusion: they then see the inlined branches.
    {"lower_if_to_select", lower_if_to_select},
    {"eliminate_common_subexpressions", eliminate_common_subexpressions},
    // Needs the loop bounds folded; before fusion takes the body's MatMul.
    {"hoist_row_products", hoist_row_products},
};

// Fusion runs after every If that can be lowered was (a fused node in a
// branch would keep its If from being lowered), and last of all: gradients
// and device placement are decided on the graph before it.
constexpr GraphPass kFusion[] = {
    {"prune", prune},  // a fused run executes all of its ops: dead ones (which might fail) go first
    {"fuse_scalar", fuse_scalar},
    {"fuse_matmul", fuse_matmul},  // before elementwise fusion takes the Adds and the activation
    {"fuse_elementwise", fuse_elementwise},
    {"prune_fused", prune},
};

}  // namespace

std::span<const GraphPass> simplification_passes() { return kSimplification; }
std::span<const GraphPass> fusion_passes() { return kFusion; }

void optimize(Graph& g) {
  run_passes(g, simplification_passes());
  run_passes(g, fusion_passes());
}

}  // namespace ag
