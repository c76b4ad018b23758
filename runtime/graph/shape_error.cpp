#include "runtime/graph/shape_error.h"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

#include "runtime/core/tensor_format.h"
#include "runtime/graph/evaluate.h"

namespace ag {
namespace {

/// TF's EnumName_DataType: "DT_FLOAT", "DT_INT32".
std::string enum_name(DType t) {
  std::string s = "DT_";
  for (const char* c = dtype_tf_string(t); *c != '\0'; ++c) s += static_cast<char>(std::toupper(static_cast<unsigned char>(*c)));
  return s;
}

/// TF's SummarizeString: quoted and escaped, the middle of a long one elided.
std::string summarize_string(std::string_view s) {
  std::string e = tf_c_escape(s, false);
  if (e.size() >= 80) e = e.substr(0, 10) + "..." + e.substr(e.size() - 10);
  return "\"" + e + "\"";
}

/// TF's SummarizeAttrValue.
std::string summarize_attr(const AttrValue& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) {
          return x ? "true" : "false";
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return std::to_string(x);
        } else if constexpr (std::is_same_v<T, double>) {
          return tf_float_string(static_cast<float>(x));
        } else if constexpr (std::is_same_v<T, std::string>) {
          return summarize_string(x);
        } else if constexpr (std::is_same_v<T, DType>) {
          return enum_name(x);
        } else if constexpr (std::is_same_v<T, Shape>) {
          return x.debug_string();
        } else if constexpr (std::is_same_v<T, Tensor>) {
          return "Tensor<type: " + std::string(dtype_tf_string(x.dtype())) + " shape: " + x.shape().debug_string() +
                 " values: " + tf_summarize_value(x, 3) + ">";
        } else {
          std::string s = "[";
          for (size_t i = 0; i < x.size(); ++i) {
            if (i > 0) s += ", ";
            if constexpr (std::is_same_v<T, std::vector<std::string>>) {
              s += summarize_string(x[i]);
            } else if constexpr (std::is_same_v<T, std::vector<double>>) {
              s += tf_float_string(static_cast<float>(x[i]));
            } else {
              s += std::to_string(x[i]);
            }
          }
          return s + "]";
        }
      },
      v);
}

/// InferenceContext::DebugString of a shape: "[4,?]", "?" for an unknown rank.
std::string shape_string(const Shape& s) { return s.rank_known() ? s.debug_string() : "?"; }

}  // namespace

std::string summarize_node(const FailedNode& node) {
  std::vector<std::pair<std::string, std::string>> attrs;
  for (const auto& [name, input] : node.op.type_attrs) {
    if (input >= 0 && static_cast<size_t>(input) < node.inputs.size()) {
      attrs.emplace_back(name, enum_name(node.ctx.inputs[static_cast<size_t>(input)].dtype));
    }
  }
  for (const auto& item : node.attrs.items()) {
    // A type attr the node also holds itself (Range's Tidx, a NodeDef read back) is listed once.
    const std::string& name = item.first;
    if (std::none_of(attrs.begin(), attrs.end(), [&](const auto& a) { return a.first == name; })) {
      attrs.emplace_back(name, summarize_attr(item.second));
    }
  }
  std::sort(attrs.begin(), attrs.end());
  std::string s = "{{node " + std::string(node.name) + "}} = " + node.op.name + "[";
  for (size_t i = 0; i < attrs.size(); ++i) s += (i > 0 ? ", " : "") + attrs[i].first + "=" + attrs[i].second;
  if (!node.device.empty()) s += std::string(attrs.empty() ? "" : ", ") + "_device=\"" + std::string(node.device) + "\"";
  s += "](";
  bool first = true;
  auto add = [&](const std::string& in) {
    s += (first ? "" : ", ") + in;
    first = false;
  };
  for (const Output& in : node.inputs) add(in.index == 0 ? in.node->name : in.name());
  for (const Node* c : node.control_inputs) add("^" + c->name);
  return s + ")";
}

std::string shape_function_error(std::string_view message, const FailedNode& node) {
  std::string s = std::string(message) + " for '" + summarize_node(node) + "' with input shapes: ";
  for (size_t i = 0; i < node.ctx.inputs.size(); ++i) s += (i > 0 ? ", " : "") + shape_string(node.ctx.inputs[i].shape);
  // Per input the rule read, its partial shape when it asked for one (and
  // one of known rank is known), else its value when it asked for that.
  std::string computed, partial;
  for (size_t i = 0; i < node.inputs.size() && i < 64; ++i) {
    std::optional<Shape> as_shape;
    if ((node.ctx.requested_shapes >> i) & 1) as_shape = partial_shape_value(node.inputs[i]);
    const Tensor* v = i < node.ctx.constants.size() ? node.ctx.constants[i] : nullptr;
    if (as_shape && as_shape->rank_known()) {
      partial += (partial.empty() ? "" : ",") + ("input[" + std::to_string(i) + "] = " + shape_string(*as_shape));
    } else if (v != nullptr && ((node.ctx.requested >> i) & 1)) {
      computed += (computed.empty() ? "" : ", ") + ("input[" + std::to_string(i) + "] = <" + tf_summarize_value(*v, 256) + ">");
    }
  }
  if (!computed.empty()) s += " and with computed input tensors: " + computed;
  if (!partial.empty()) s += " and with input tensors computed as partial shapes: " + partial;
  return s + ".";
}

}  // namespace ag
