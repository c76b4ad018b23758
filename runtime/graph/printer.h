// Printing graphs: print_graph() as the seeds list a GraphDef's nodes
// (`print(f'{node.input} -> {node.name}')`), dump_graph() with op types,
// output types, attributes and nested subgraphs for debugging.
#pragma once

#include <string>

namespace ag {

class Graph;
struct Output;

/// A data input as a NodeDef lists it: "x" for output 0 of node x, "split:1".
std::string input_name(const Output& o);

/// One line per node, "['a', 'a'] -> add": the node's inputs as GraphDef
/// names them ("x" for output 0, "split:1", "^node" for a control input),
/// then its name.
std::string print_graph(const Graph& g);

/// A multi-line dump: per node "name = Op(inputs) : float32(2, 3) {attrs}",
/// subgraphs indented below their node, then the inputs and outputs.
std::string dump_graph(const Graph& g);

}  // namespace ag
