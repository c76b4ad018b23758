// Graph optimizer passes. Each rewrites a graph in place, keeps the graph's
// outputs and its stateful nodes (and their program order), and keeps nodes
// in a valid topological order: nodes are removed or rewritten where they
// stand, and inlined nodes take the place of the node they replace.
#pragma once

namespace ag {

class Graph;

/// Function inlining: replaces each call of a traced function (role Call)
/// whose graph holds no If or While by that graph's nodes, its stateful ones
/// taking the call's place in the chain of stateful nodes.
/// Before: y = PartitionedCall(x){body: z = Mul(a, a); return z}
/// After:  y = PartitionedCall/Mul(x, x)
void inline_calls(Graph& g);

/// Replaces each node whose op has a simpler canonical form (OpDef::
/// canonicalize) by that form, so later passes see one kind of each thing.
/// Before: y = BiasAdd(x, b){data_format "NHWC"}  After: y = AddV2(x, b)
void canonicalize(Graph& g);

/// Forwards consumers of identity nodes (role Identity) to the Identity's input and removes
/// them, except Identity nodes that are graph outputs (the seeds' `Identity`).
/// Before: y = Identity(x); z = Neg(y)  After: z = Neg(x)
void remove_identities(Graph& g);

/// Evaluates non-stateful nodes whose inputs are all Const (by running their
/// kernels) and turns each into a Const node of the same name. Nodes whose
/// kernel throws keep their error for run time; huge results are not folded.
void fold_constants(Graph& g);

/// If-conversion: replaces each If whose branches are small (<= 16 ops) and
/// hold only ops that can never fail or have an effect (float math, wrapping
/// integer arithmetic, comparisons, logical ops, Cast, Select, Const; integer
/// division only by a nonzero Const) and whose outputs have one fully defined
/// shape in both branches, by both branches inlined in its place plus one
/// SelectV2 per output on the scalar predicate (none for an output both
/// branches pass through). Nested Ifs lower first (the pass recurses).
/// Before: r = If(c, x){then: x + 1; else: x * 2}
/// After:  a = x + 1; b = x * 2; r = SelectV2(c, a, b)
void lower_if_to_select(Graph& g);

/// Merges nodes with the same op, inputs and attributes into the first one
/// (never stateful nodes or nodes with subgraphs).
void eliminate_common_subexpressions(Graph& g);

/// Fuses chains of float elementwise ops (any op with an ElementwiseDef block
/// step: AddV2, Mul, Tanh, ...) whose intermediates have one consumer into one
/// FusedElementwise node holding them as its body, which takes the chain's
/// last node's place and name.
void fuse_elementwise(Graph& g);

/// Fuses runs of scalar (rank-0) int/float/bool ops (any op with an
/// ElementwiseDef scalar step: arithmetic, FloorMod, comparisons, logical ops,
/// SelectV2) into one FusedScalar node per run holding them as its body, with
/// one output per value used outside the run; it takes the run's last node's
/// place. Loop bodies over scalar counters then run one kernel per iteration.
void fuse_scalar(Graph& g);

/// Loop-invariant code motion of row products: in the body of a While that
/// runs a known number of times (a counter from a Const, stepped by 1,
/// tested against an invariant Const: `for i in tf.range(n)`, `for row in
/// x`), a float MatMul(X[i], W) of a row of a captured [T, r, k] X (selected
/// by StridedSlice or GatherV2 on axis 0) by a captured W becomes row i of one
/// X·W computed before the loop, when the loop runs at least T times (so the
/// hoisted product never costs more multiply-adds) and X·W takes at most
/// 256 MiB.
/// Before: While{body: y = MatMul(StridedSlice(x, [i], [i+1], [1]){shrink 1}, w)}
/// After:  p = Reshape(MatMul(Reshape(x, [T*r, k]), w), [T, r, n])
///         While{body: y = StridedSlice(p, [i], [i+1], [1]){shrink 1}}
void hoist_row_products(Graph& g);

/// Removes nodes that neither reach a graph output nor a stateful node.
/// Placeholders in Graph::inputs() stay (they are the graph's signature).
void prune(Graph& g);

/// Runs simplification_passes() then fusion_passes() (pipeline.h) on `g`
/// and its subgraphs: what the CPU target does before planning (compile.h).
void optimize(Graph& g);

}  // namespace ag
