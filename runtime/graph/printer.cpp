#include "runtime/graph/printer.h"

#include "runtime/graph/graph.h"

namespace ag {
std::string input_name(const Output& o) {
  return o.index == 0 ? o.node->name : o.node->name + ":" + std::to_string(o.index);
}

namespace {

std::string spec_str(const TensorSpec& s) { return std::string(dtype_name(s.dtype)) + s.shape.str(); }

std::string attr_str(const AttrValue& v) {
  struct Visitor {
    std::string operator()(int64_t x) const { return std::to_string(x); }
    std::string operator()(double x) const { return std::to_string(x); }
    std::string operator()(bool x) const { return x ? "true" : "false"; }
    std::string operator()(const std::string& x) const { return "'" + x + "'"; }
    std::string operator()(DType x) const { return dtype_name(x); }
    std::string operator()(const Shape& x) const { return x.str(); }
    std::string operator()(const std::vector<int64_t>& x) const {
      std::string s = "[";
      for (size_t i = 0; i < x.size(); ++i) s += (i ? ", " : "") + std::to_string(x[i]);
      return s + "]";
    }
    std::string operator()(const std::vector<double>& x) const {
      std::string s = "[";
      for (size_t i = 0; i < x.size(); ++i) s += (i ? ", " : "") + std::to_string(x[i]);
      return s + "]";
    }
    std::string operator()(const std::vector<std::string>& x) const {
      std::string s = "[";
      for (size_t i = 0; i < x.size(); ++i) s += (i ? ", '" : "'") + x[i] + "'";
      return s + "]";
    }
    std::string operator()(const Tensor& t) const {
      std::string s = std::string("<tensor ") + dtype_name(t.dtype()) + t.shape().str();
      if (t.num_elements() == 1 && t.dtype() != DType::String) {
        s += " = ";
        dispatch_dtype(t.dtype(), [&]<class T>() {
          if constexpr (std::is_same_v<T, bool>) {
            s += t.scalar_value<bool>() ? "True" : "False";
          } else if constexpr (std::is_same_v<T, bfloat16>) {
            s += std::to_string(static_cast<float>(t.scalar_value<bfloat16>()));
          } else if constexpr (std::is_arithmetic_v<T>) {
            s += std::to_string(t.scalar_value<T>());
          }
        });
      }
      return s + ">";
    }
  };
  return std::visit(Visitor{}, v);
}

void dump(const Graph& g, int depth, std::string& out) {
  const std::string pad(static_cast<size_t>(depth) * 2, ' ');
  out += pad + "graph " + g.name() + "\n";
  for (const auto& n : g.nodes()) {
    out += pad + "  " + n->name + " = " + n->op->name + "(";
    bool first = true;
    for (const Output& in : n->inputs) {
      out += (first ? "" : ", ") + input_name(in);
      first = false;
    }
    for (const Node* c : n->control_inputs) {
      out += (first ? "^" : ", ^") + c->name;
      first = false;
    }
    out += ") :";
    for (const TensorSpec& s : n->outputs) out += " " + spec_str(s);
    if (!n->attrs.items().empty()) {
      out += " {";
      bool f = true;
      for (const auto& [k, v] : n->attrs.items()) {
        out += (f ? "" : ", ") + k + "=" + attr_str(v);
        f = false;
      }
      out += "}";
    }
    out += "\n";
    for (const auto& sub : n->subgraphs) dump(*sub, depth + 2, out);
  }
  out += pad + "  inputs:";
  for (const Node* in : g.inputs()) out += " " + in->name;
  out += "\n" + pad + "  outputs:";
  for (const Output& o : g.outputs()) out += " " + input_name(o);
  out += "\n";
}

}  // namespace

std::string print_graph(const Graph& g) {
  std::string out;
  for (const auto& n : g.nodes()) {
    out += "[";
    bool first = true;
    auto item = [&](const std::string& s) {
      out += (first ? "'" : ", '") + s + "'";
      first = false;
    };
    for (const Output& in : n->inputs) item(input_name(in));
    for (const Node* c : n->control_inputs) item("^" + c->name);
    out += "] -> " + n->name + "\n";
  }
  return out;
}

std::string dump_graph(const Graph& g) {
  std::string out;
  dump(g, 0, out);
  return out;
}

}  // namespace ag
