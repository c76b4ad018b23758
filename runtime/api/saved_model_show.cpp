// `saved_model_cli show --dir DIR --all` (TF's saved_model_cli.py: _show_all,
// _show_inputs_outputs, _print_tensor_info, _show_defined_functions,
// _print_args), read from saved_model.pb alone: the concrete functions'
// signatures come from the object graph, so a SavedModel whose ops agc
// lacks is shown too.
#include <map>

#include "runtime/api/saved_model.h"
#include "runtime/api/structured_value.h"
#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/value/tensor_shape_value.h"
#include "runtime/value/tensor_spec_value.h"

namespace ag {
namespace {

void tensor_info(const tensorflow::TensorInfo& t, std::string& out) {
  std::string shape;
  if (t.tensor_shape().unknown_rank()) {
    shape = "unknown_rank";
  } else {
    shape = "(";
    for (int i = 0; i < t.tensor_shape().dim_size(); ++i) {
      shape += (i ? ", " : "") + std::to_string(t.tensor_shape().dim(i).size());
    }
    shape += ")";
  }
  out += "        dtype: " + tensorflow::DataType_Name(t.dtype()) + "\n";
  out += "        shape: " + shape + "\n";
  out += "        name: " + t.name() + "\n";
}

void signature(const std::string& key, const tensorflow::SignatureDef& s, std::string& out) {
  out += "\nsignature_def['" + key + "']:\n";
  out += "  The given SavedModel SignatureDef contains the following input(s):\n";
  std::map<std::string, const tensorflow::TensorInfo*> inputs, outputs;
  for (const auto& [k, v] : s.inputs()) inputs[k] = &v;
  for (const auto& [k, v] : s.outputs()) outputs[k] = &v;
  for (const auto& [k, v] : inputs) {
    out += "    inputs['" + k + "'] tensor_info:\n";
    tensor_info(*v, out);
  }
  out += "  The given SavedModel SignatureDef contains the following output(s):\n";
  for (const auto& [k, v] : outputs) {
    out += "    outputs['" + k + "'] tensor_info:\n";
    tensor_info(*v, out);
  }
  out += "  Method name is: " + s.method_name() + "\n";
}

/// Python's type(v).__name__ and str(v) for _print_args' "DType:" lines.
std::string type_name(const Value& v) { return v.is_none() ? "NoneType" : v.type_name(); }

/// _print_args(arguments, argument_type, indent=4).
void print_args(const std::vector<std::pair<std::string, Value>>& args, const std::string& kind, std::string& out) {
  const std::string indent(8, ' ');
  for (size_t i = 0; i < args.size(); ++i) {
    out += indent + kind + " #" + std::to_string(i + 1) + "\n";
    const Value& v = args[i].second;
    if (std::optional<TensorSpec> spec = tensor_spec_of(v)) {
      out += std::string(10, ' ') + tensor_spec_name(v) + ": " + tensor_spec_repr(*spec, tensor_spec_name(v)) + "\n";
    } else if (v.is_str()) {
      out += indent + "  " + v.as_str() + "\n";
    } else {
      out += indent + "  DType: " + type_name(v) + "\n";
      out += indent + "  Value: " + str(v) + "\n";
    }
  }
}

void functions(const tensorflow::SavedObjectGraph& g, std::string& out) {
  out += "\nConcrete Functions:";
  if (g.nodes_size() == 0) return;
  std::map<std::string, std::vector<std::string>> by_name;  // child name -> concrete functions, sorted
  for (const auto& ref : g.nodes(0).children()) {
    if (ref.node_id() < 0 || ref.node_id() >= g.nodes_size()) continue;
    const tensorflow::SavedObject& child = g.nodes(ref.node_id());
    std::vector<std::string> names;
    if (child.has_function()) {
      names.assign(child.function().concrete_functions().begin(), child.function().concrete_functions().end());
    } else if (child.has_bare_concrete_function()) {
      names.push_back(child.bare_concrete_function().concrete_function_name());
    } else {
      continue;
    }
    std::sort(names.begin(), names.end());
    by_name[ref.local_name()] = std::move(names);
  }
  for (const auto& [name, concrete] : by_name) {
    out += "\n  Function Name: '" + name + "'\n";
    for (size_t i = 0; i < concrete.size(); ++i) {
      auto it = g.concrete_functions().find(concrete[i]);
      if (it == g.concrete_functions().end()) continue;
      Value sig = decode_structure(it->second.canonicalized_input_signature());
      std::vector<std::pair<std::string, Value>> args, kwargs;
      if (sig.is_tuple() && sig.items().size() == 2) {
        for (const Value& a : sig.items()[0].items()) args.emplace_back("", a);
        for (const auto& [k, v] : sig.items()[1].as_dict().entries) kwargs.emplace_back(str(k), v);
      }
      if (!args.empty()) {
        out += "    Option #" + std::to_string(i + 1) + "\n      Callable with:\n";
        print_args(args, "Argument", out);
      }
      if (!kwargs.empty()) print_args(kwargs, "Named Argument", out);
    }
  }
}

}  // namespace

std::string saved_model_show_all(const std::string& dir) {
  auto model = read_saved_model(dir);
  std::map<std::string, const tensorflow::MetaGraphDef*> by_tags;
  for (const auto& m : model->meta_graphs()) {
    std::vector<std::string> tags(m.meta_info_def().tags().begin(), m.meta_info_def().tags().end());
    std::sort(tags.begin(), tags.end());
    std::string set;
    for (const std::string& t : tags) set += (set.empty() ? "" : ", ") + t;
    by_tags[set] = &m;
  }
  std::string out;
  for (const auto& [tags, m] : by_tags) {
    out += "\nMetaGraphDef with tag-set: '" + tags + "' contains the following SignatureDefs:\n";
    std::map<std::string, const tensorflow::SignatureDef*> sigs;
    for (const auto& [k, v] : m->signature_def()) sigs[k] = &v;
    for (const auto& [k, v] : sigs) signature(k, *v, out);
  }
  for (const auto& m : model->meta_graphs()) {
    if (m.has_object_graph_def()) {
      functions(m.object_graph_def(), out);
      break;
    }
  }
  return out;
}

}  // namespace ag
