#include "runtime/graph/dot.h"

#include <algorithm>
#include <unordered_map>

#include "runtime/core/error.h"
#include "runtime/core/tensor_format.h"
#include "runtime/core/variable.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/printer.h"

namespace ag {

std::string dot_type_text(const TensorSpec& spec) {
  std::string s = dtype_name(spec.dtype);
  if (!spec.shape.rank_known()) return s + "[unknown]";
  s += "[";
  bool first = true;
  for (int64_t d : spec.shape.dims()) {
    s += first ? "" : ",";
    s += d < 0 ? std::string("?") : std::to_string(d);
    first = false;
  }
  return s + "]";
}

std::string dot_quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out + "\"";
}

namespace {

/// The value of a Const small enough to read in a box, else "".
std::string constant_text(const Node& n) {
  if (n.op->role() != OpRole::Constant || !n.attrs.has("value")) return {};
  const Tensor& t = n.attrs.get<Tensor>("value");
  if (t.dtype() == DType::Variant || t.num_elements() > 6) return {};
  std::string text = t.rank() == 0 ? numpy_repr(t) : numpy_str(t);
  if (text.size() > 40 || text.find('\n') != std::string::npos) return {};
  return "= " + text;
}

/// The variable a variable op reads or writes (agc names it by attr "var").
std::string variable_text(int64_t id) {
  try {
    return "variable " + Variable::lookup(id)->name();
  } catch (const NotFoundError&) {
    return "variable #" + std::to_string(id) + " (deleted)";  // a trace outlives its variables
  }
}

/// Fill colours by role, so inputs, constants, control flow and fused
/// kernels stand out from ordinary ops.
const char* fill_of(OpRole role) {
  switch (role) {
    case OpRole::Argument: return "#dbe8f7";
    case OpRole::Constant: return "#eeeeee";
    case OpRole::If:
    case OpRole::While:
    case OpRole::Call:
    case OpRole::DeviceCall:
    case OpRole::Batched: return "#fff2cc";
    case OpRole::Fused: return "#e2f0d9";
    case OpRole::Compute:
    case OpRole::Identity: return "#ffffff";
  }
  return "#ffffff";
}

/// What subgraph `k` of `n` is, by TF's attribute names: then_branch /
/// else_branch, cond / body, f.
std::string subgraph_role(const Node& n, size_t k) {
  switch (n.op->role()) {
    case OpRole::If: return k == 0 ? "then_branch" : "else_branch";
    case OpRole::While: return k == 0 ? "cond" : "body";
    case OpRole::Call:
    case OpRole::DeviceCall:
    case OpRole::Batched: return "f";
    case OpRole::Fused: return "body";
    case OpRole::Compute:
    case OpRole::Constant:
    case OpRole::Argument:
    case OpRole::Identity: break;
  }
  return "subgraph " + std::to_string(k);
}

class DotWriter {
 public:
  std::string out;

  /// Writes `g`'s nodes, edges, outputs and nested clusters; DOT ids start
  /// with `prefix`. Returns the id of a node inside (for an edge into the
  /// cluster that holds it).
  std::string graph(const Graph& g, const std::string& prefix, int depth) {
    const std::string pad(static_cast<size_t>(depth) * 2, ' ');
    std::unordered_map<const Node*, std::string> capture_of;
    for (const auto& [outer, inner] : g.captures()) capture_of[inner.node] = input_name(outer);
    for (const auto& n : g.nodes()) {
      const std::string id = prefix + "n" + std::to_string(n->id);
      ids_[n.get()] = id;
      std::string label = n->name + " (" + n->op->name + ")";
      for (size_t i = 0; i < n->outputs.size(); ++i) {
        label += "\n";
        if (n->outputs.size() > 1) label += std::to_string(i) + ": ";
        label += dot_type_text(n->outputs[i]);
      }
      if (std::string c = constant_text(*n); !c.empty()) label += "\n" + c;
      if (n->attrs.has("var")) label += "\n" + variable_text(n->attrs.get<int64_t>("var"));
      if (auto it = capture_of.find(n.get()); it != capture_of.end()) label += "\ncaptures " + it->second;
      out += pad + id + " [label=" + dot_quoted(label);
      if (n->op->role() == OpRole::Argument) out += ", shape=invhouse";
      out += std::string(", fillcolor=\"") + fill_of(n->op->role()) + "\"];\n";
    }
    for (const auto& n : g.nodes()) {
      const std::string& to = ids_.at(n.get());
      for (size_t k = 0; k < n->inputs.size(); ++k) {
        // A tensor passed twice (an If's capture both branches take, x + x) is one edge.
        const Output& in = n->inputs[k];
        if (std::find(n->inputs.begin(), n->inputs.begin() + static_cast<std::ptrdiff_t>(k), in) !=
            n->inputs.begin() + static_cast<std::ptrdiff_t>(k)) {
          continue;
        }
        out += pad + ids_.at(in.node) + " -> " + to;
        if (in.node->outputs.size() > 1) out += " [label=" + dot_quoted(std::to_string(in.index)) + "]";
        out += ";\n";
      }
      for (const Node* c : n->control_inputs) out += pad + ids_.at(c) + " -> " + to + " [style=dashed, color=\"#888888\"];\n";
    }
    for (size_t i = 0; i < g.outputs().size(); ++i) {
      const Output& o = g.outputs()[i];
      const std::string id = prefix + "out" + std::to_string(i);
      out += pad + id + " [label=" + dot_quoted("output " + std::to_string(i)) +
             ", shape=house, fillcolor=\"#fce5cd\"];\n";
      out += pad + ids_.at(o.node) + " -> " + id;
      if (o.node->outputs.size() > 1) out += " [label=" + dot_quoted(std::to_string(o.index)) + "]";
      out += ";\n";
    }
    for (const auto& n : g.nodes()) {
      for (size_t k = 0; k < n->subgraphs.size(); ++k) cluster(*n, k, depth);
    }
    if (!g.nodes().empty()) return ids_.at(g.nodes().front().get());
    if (!g.outputs().empty()) return prefix + "out0";
    const std::string id = prefix + "empty";
    out += pad + id + " [label=\"(empty)\", shape=plaintext];\n";
    return id;
  }

 private:
  /// Subgraph `k` of `n` as a cluster, and a dotted edge from `n` into it.
  void cluster(const Node& n, size_t k, int depth) {
    const std::string pad(static_cast<size_t>(depth) * 2, ' ');
    const Graph& sub = *n.subgraphs[k];
    const std::string inner = ids_.at(&n) + "_s" + std::to_string(k);
    const std::string role = subgraph_role(n, k);
    std::string name = sub.name();
    const OpRole r = n.op->role();
    if ((r == OpRole::Call || r == OpRole::DeviceCall || r == OpRole::Batched) && n.attrs.has("f")) {
      name = n.attrs.get<std::string>("f");
    }
    out += pad + "subgraph cluster_" + inner + " {\n";
    out += pad + "  label=" + dot_quoted(n.name + " " + role + ": " + name) + ";\n";
    out += pad + "  style=rounded;\n" + pad + "  color=\"#999999\";\n";
    const std::string anchor = graph(sub, inner + "_", depth + 1);
    out += pad + "}\n";
    out += pad + ids_.at(&n) + " -> " + anchor + " [lhead=cluster_" + inner + ", label=" + dot_quoted(role) +
           ", style=dotted, arrowhead=none];\n";
  }

  std::unordered_map<const Node*, std::string> ids_;
};

}  // namespace

std::string graph_to_dot(const Graph& g, const std::string& title) {
  DotWriter w;
  w.out = "digraph " + dot_quoted(title) + " {\n";
  w.out += "  graph [label=" + dot_quoted(title) + ", labelloc=t, compound=true];\n";
  w.out += "  node [shape=box, style=\"rounded,filled\", fontsize=11];\n";
  w.out += "  edge [fontsize=9];\n";
  w.graph(g, "", 1);
  w.out += "}\n";
  return w.out;
}

}  // namespace ag
