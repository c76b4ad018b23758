// The graph verifier: the invariants every graph keeps, as traced and after
// every optimizer pass (graph/optimize/pipeline.h runs it between passes in
// the tests and under AG_VERIFY_GRAPHS=1). A broken invariant is a bug in
// agc, reported as an InternalError naming the graph, the node and the rule.
#pragma once

namespace ag {

class Graph;

/// Checks `g` and, recursively, the graphs nested in its nodes:
/// - order: nodes are numbered by position; every input and control input
///   is an earlier node of the same graph (trace order is topological);
/// - captures: inputs() are argument nodes of the graph, the arguments first,
///   then one placeholder per capture, whose outer tensor belongs to the
///   parent graph; outputs are tensors of the graph;
/// - stateful chain: each stateful node depends (through data or control
///   edges) on the stateful node before it, so program order survives;
/// - types: each node's op accepts its arity, and its shape rule, run again
///   on the node's current inputs, gives the node's output dtypes and shapes
///   compatible with those recorded (this checks If/While/fused bodies
///   against the node's inputs too);
/// - nesting: each subgraph's parent is `g`.
void verify_graph(const Graph& g);

}  // namespace ag
