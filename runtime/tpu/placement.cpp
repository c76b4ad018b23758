#include "runtime/tpu/placement.h"

#include <set>

#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/ops/registry.h"

namespace ag::tpu {
namespace {

/// The call `nd` (of a TPU function) as a TPUPartitionedCall reading its
/// core from `ordinal` (its data inputs first, control inputs last).
void make_tpu_call(tensorflow::NodeDef* nd, const std::string& ordinal, const PlacementOptions& options) {
  nd->set_op("TPUPartitionedCall");
  int first_control = nd->input_size();
  for (int i = 0; i < nd->input_size(); ++i) {
    if (!nd->input(i).empty() && nd->input(i)[0] == '^') {
      first_control = i;
      break;
    }
  }
  nd->add_input(ordinal);
  for (int i = nd->input_size() - 1; i > first_control; --i) nd->mutable_input()->SwapElements(i, i - 1);
  auto& attrs = *nd->mutable_attr();
  for (const char* key : {"config", "config_proto", "executor_type"}) attrs.erase(key);
  attrs["autotuner_thresh"].set_i(0);
  attrs["_io_shape_optimization"].set_b(options.io_shape_optimization);
  attrs["_bfloat16_optimization"].set_b(options.bfloat16_optimization);
  attrs["_num_cores_per_replica"].set_i(options.num_cores_per_replica);
}

/// A node name `base` that none of `taken` has.
template <class Nodes>
std::string unique_name(const Nodes& nodes, const std::string& base) {
  std::set<std::string> taken;
  for (const auto& n : nodes) taken.insert(n.name());
  std::string name = base;
  for (int i = 1; taken.count(name); ++i) name = base + "_" + std::to_string(i);
  return name;
}

bool calls(const tensorflow::NodeDef& nd, const std::set<std::string>& tpu) {
  auto f = nd.attr().find("f");
  const OpDef* op = OpRegistry::global().find(nd.op());
  return f != nd.attr().end() && f->second.has_func() && tpu.count(f->second.func().name()) && op != nullptr &&
         op->role() == OpRole::Call;
}

void place_in_function(tensorflow::FunctionDef& def, const std::set<std::string>& tpu, const PlacementOptions& options) {
  for (int i = 0; i < def.node_def_size(); ++i) {
    tensorflow::NodeDef* nd = def.mutable_node_def(i);
    if (!calls(*nd, tpu)) continue;
    tensorflow::NodeDef* sel = def.add_node_def();
    sel->set_name(unique_name(def.node_def(), nd->name() + "/TPUOrdinalSelector"));
    sel->set_op("TPUOrdinalSelector");
    make_tpu_call(def.mutable_node_def(i), sel->name() + ":device_ordinals:0", options);
  }
}

void place_in_graph(tensorflow::GraphDef& graph, const std::set<std::string>& tpu, const PlacementOptions& options) {
  for (int i = 0; i < graph.node_size(); ++i) {
    if (!calls(graph.node(i), tpu)) continue;
    tensorflow::NodeDef* sel = graph.add_node();
    sel->set_name(unique_name(graph.node(), graph.node(i).name() + "/TPUOrdinalSelector"));
    sel->set_op("TPUOrdinalSelector");
    make_tpu_call(graph.mutable_node(i), sel->name(), options);
  }
}

/// The CPU stub of signature function `w`: its arguments, a TPU call of
/// `w`, its results.
tensorflow::FunctionDef stub_of(const tensorflow::FunctionDef& w, const std::string& name, const PlacementOptions& options) {
  tensorflow::FunctionDef s;
  *s.mutable_signature() = w.signature();
  s.mutable_signature()->set_name(name);
  s.mutable_signature()->set_is_stateful(true);
  *s.mutable_arg_attr() = w.arg_attr();
  tensorflow::NodeDef* sel = s.add_node_def();
  sel->set_name("TPUOrdinalSelector");
  sel->set_op("TPUOrdinalSelector");
  tensorflow::NodeDef* call = s.add_node_def();
  call->set_name("TPUPartitionedCall");
  auto& attrs = *call->mutable_attr();
  for (const auto& a : w.signature().input_arg()) {
    call->add_input(a.name());
    attrs["Tin"].mutable_list()->add_type(a.type());
  }
  for (int i = 0; i < w.signature().output_arg_size(); ++i) {
    const auto& a = w.signature().output_arg(i);
    attrs["Tout"].mutable_list()->add_type(a.type());
    (*s.mutable_ret())[a.name()] = "TPUPartitionedCall:output:" + std::to_string(i);
  }
  attrs["f"].mutable_func()->set_name(w.signature().name());
  make_tpu_call(call, "TPUOrdinalSelector:device_ordinals:0", options);
  return s;
}

}  // namespace

void place_on_tpu(tensorflow::MetaGraphDef& meta, const std::vector<TpuSelection>& selected, const ModelFunctions& model,
                  const PlacementOptions& options) {
  std::vector<std::string> names = tpu_function_names(selected);
  std::set<std::string> tpu(names.begin(), names.end());
  // Code the TPU programs hold: the TPU functions and all they reach.
  std::set<std::string> on_tpu;
  for (const std::string& f : names) {
    for (std::string& g : model.reachable(f)) on_tpu.insert(std::move(g));
  }
  auto* library = meta.mutable_graph_def()->mutable_library();
  for (int i = 0; i < library->function_size(); ++i) {
    if (!on_tpu.count(library->function(i).signature().name())) place_in_function(*library->mutable_function(i), tpu, options);
  }
  // Signatures placed whole: their stub runs them from the CPU.
  std::set<std::string> whole;
  for (const TpuSelection& s : selected) {
    if (s.signature) whole.insert(s.functions.begin(), s.functions.end());
  }
  for (const std::string& w : whole) {
    const tensorflow::FunctionDef* def = model.find(w);
    std::string stub = w + "_cpu_stub";
    *library->add_function() = stub_of(*def, stub, options);
    for (auto& nd : *meta.mutable_graph_def()->mutable_node()) {
      auto f = nd.mutable_attr()->find("f");
      if (f != nd.mutable_attr()->end() && f->second.has_func() && f->second.func().name() == w) {
        f->second.mutable_func()->set_name(stub);
      }
    }
    auto* objects = meta.mutable_object_graph_def();
    for (auto& node : *objects->mutable_nodes()) {
      if (node.has_bare_concrete_function() && node.bare_concrete_function().concrete_function_name() == w) {
        node.mutable_bare_concrete_function()->set_concrete_function_name(stub);
      }
    }
    if (auto it = objects->concrete_functions().find(w); it != objects->concrete_functions().end()) {
      tensorflow::SavedConcreteFunction copy = it->second;
      (*objects->mutable_concrete_functions())[stub] = std::move(copy);
    }
  }
  place_in_graph(*meta.mutable_graph_def(), tpu, options);
}

}  // namespace ag::tpu
