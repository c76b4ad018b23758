// A graph as Graphviz DOT text (`agc graph --format dot`, which Graphviz's
// `dot` turns into SVG or PNG): one box per node labelled with its name, op
// and output types, data edges solid, control edges dashed, and the graphs a
// node holds (If's branches, While's cond and body, a call's function, a
// fused node's body) drawn as nested clusters below it.
#pragma once

#include <string>

namespace ag {

class Graph;
struct TensorSpec;

/// `g` as a DOT digraph titled `title`. The text depends only on the graph:
/// DOT ids are positions ("n3" for node 3, "n3_s1_n0" for node 0 of node 3's
/// subgraph 1, "out0" for output 0), emitted in node order, so the same trace
/// always gives the same bytes. A node's label is "name (Op)" and then a line
/// per output type (dot_type_text); a Const of a few elements shows its
/// value, a variable op its variable, a placeholder fed from an enclosing
/// graph the tensor it captures.
std::string graph_to_dot(const Graph& g, const std::string& title);

/// A tensor type as a label shows it: "float32[2,3]", "int32[]" for a
/// scalar, "?" for an unknown dimension ("float32[?,3]"), "float32[unknown]"
/// for an unknown rank.
std::string dot_type_text(const TensorSpec& spec);

/// `s` as a DOT double-quoted string: `"` and `\` escaped, a newline as DOT's
/// `\n` (a centered line break in a label), other control bytes as spaces.
std::string dot_quoted(const std::string& s);

}  // namespace ag
