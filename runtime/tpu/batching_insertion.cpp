#include "runtime/tpu/batching_insertion.h"

#include <set>

#include "runtime/core/error.h"
#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/core/proto_convert.h"
#include "runtime/graph/node_def_format.h"
#include "runtime/ops/registry.h"
#include "runtime/tpu/function_def_edit.h"

namespace ag::tpu {
namespace {

bool has_role(const tensorflow::NodeDef& nd, OpRole role) {
  const OpDef* op = op_of(nd);
  return op != nullptr && op->role() == role;
}

std::string called(const tensorflow::NodeDef& nd) {
  auto f = nd.attr().find("f");
  return f != nd.attr().end() && f->second.has_func() ? f->second.func().name() : std::string();
}

/// The entry's options as BatchFunction's attrs (B13: splitting on unless disabled).
void set_batch_attrs(tensorflow::NodeDef* nd, const BatchOptions& b) {
  auto& a = *nd->mutable_attr();
  a["num_batch_threads"].set_i(b.num_batch_threads());
  a["max_batch_size"].set_i(b.max_batch_size());
  a["batch_timeout_micros"].set_i(b.batch_timeout_micros());
  a["max_enqueued_batches"].set_i(b.max_enqueued_batches());
  auto* sizes = a["allowed_batch_sizes"].mutable_list();
  sizes->clear_i();
  for (int32_t s : b.allowed_batch_sizes()) sizes->add_i(s);
  a["enable_large_batch_splitting"].set_b(!b.disable_large_batch_splitting());
  for (const char* key : {"container", "shared_name", "batching_queue"}) {
    if (!a.count(key)) a[key].set_s("");
  }
}

/// B14: a batched input needs rank >= 1 and an unknown dim 0.
void check_batchable(const std::string& name, const tensorflow::FunctionDef& f, const std::vector<int>& batched) {
  for (int i : batched) {
    std::optional<Shape> s = node_def::arg_output_shape(f, i);
    if (s && s->rank_known() && s->rank() >= 1 && s->dim(0) < 0) continue;
    std::string text = s ? s->str() : std::string("<unknown>");
    throw InvalidArgumentError("Cannot batch \"" + name + "\": input " + std::to_string(i) + " has shape " + text +
                               "; dimension 0 must be unknown (None or -1)");
  }
}

class Inserter {
 public:
  Inserter(tensorflow::MetaGraphDef& meta, const BatchOptions& options) : meta_(meta), options_(options) {}

  /// Wraps call node `nd` (of a FunctionDef `owner`, or of the GraphDef when
  /// null) in a BatchFunction running a copy of it.
  void wrap(tensorflow::NodeDef* nd, tensorflow::FunctionDef* owner) {
    const std::string callee = called(*nd);
    const tensorflow::FunctionDef* g = find(callee);
    if (g == nullptr) throw NotFoundError("Function \"" + callee + "\" not found in the function library");
    const bool tpu = has_role(*nd, OpRole::DeviceCall);
    // The call's data inputs (a TPU call's ordinal and control inputs aside).
    std::vector<std::string> data, control;
    for (const std::string& in : nd->input()) (in.rfind('^', 0) == 0 ? control : data).push_back(in);
    if (tpu && !data.empty()) data.pop_back();
    const auto& tin = nd->attr().at("Tin").list();
    std::vector<int> batched, captured;
    for (int i = 0; i < static_cast<int>(data.size()); ++i) {
      (i < tin.type_size() && tin.type(i) == tensorflow::DT_RESOURCE ? captured : batched).push_back(i);
    }
    check_batchable(callee, *g, batched);
    // The batch function: in_tensors then captured tensors in, the call's results out.
    tensorflow::FunctionDef w;
    std::string wname = fresh(callee + "_batch");
    w.mutable_signature()->set_name(wname);
    w.mutable_signature()->set_is_stateful(true);
    std::vector<std::string> arg_of(data.size());
    int index = 0;
    for (const std::vector<int>* part : {&batched, &captured}) {
      for (int i : *part) {
        auto* a = w.mutable_signature()->add_input_arg();
        a->set_name("in_" + std::to_string(i));
        a->set_type(tin.type(i));
        if (auto s = node_def::arg_output_shape(*g, i)) {
          tensorflow::AttrValue shapes;
          proto::write_shape(*s, shapes.mutable_list()->add_shape());
          (*(*w.mutable_arg_attr())[static_cast<uint32_t>(index)].mutable_attr())["_output_shapes"] = shapes;
        }
        arg_of[static_cast<size_t>(i)] = a->name();
        ++index;
      }
    }
    tensorflow::NodeDef* call = w.add_node_def();
    *call = *nd;
    call->set_name("call");
    call->clear_input();
    for (const std::string& a : arg_of) call->add_input(a);
    if (tpu) {
      tensorflow::NodeDef* sel = w.add_node_def();
      sel->set_name("TPUOrdinalSelector");
      sel->set_op("TPUOrdinalSelector");
      w.mutable_node_def(0)->add_input("TPUOrdinalSelector:device_ordinals:0");
    }
    const auto& tout = nd->attr().at("Tout").list();
    for (int k = 0; k < tout.type_size(); ++k) {
      auto* o = w.mutable_signature()->add_output_arg();
      o->set_name("out_" + std::to_string(k));
      o->set_type(tout.type(k));
      (*w.mutable_ret())[o->name()] = "call:output:" + std::to_string(k);
    }
    // The call becomes the BatchFunction, under the same name.
    tensorflow::NodeDef b;
    b.set_name(nd->name());
    b.set_op("BatchFunction");
    b.set_device(nd->device());
    auto& a = *b.mutable_attr();
    for (const std::vector<int>* part : {&batched, &captured}) {
      auto* types = part == &batched ? a["Tin"].mutable_list() : a["Tcaptured"].mutable_list();
      for (int i : *part) {
        b.add_input(data[static_cast<size_t>(i)]);
        types->add_type(tin.type(i));
      }
    }
    a["Tcaptured"].mutable_list();
    *a["Tout"].mutable_list() = tout;
    a["f"].mutable_func()->set_name(wname);
    set_batch_attrs(&b, options_);
    for (const std::string& c : control) b.add_input(c);
    const std::string name = nd->name();
    *nd = std::move(b);
    if (owner != nullptr) rename_outputs(*owner, name);
    *meta_.mutable_graph_def()->mutable_library()->add_function() = std::move(w);
  }

  const tensorflow::FunctionDef* find(const std::string& name) const {
    for (const auto& f : meta_.graph_def().library().function()) {
      if (f.signature().name() == name) return &f;
    }
    return nullptr;
  }

 private:
  /// A FunctionDef names a BatchFunction's results "out_tensors".
  static void rename_outputs(tensorflow::FunctionDef& f, const std::string& node) {
    const std::string from = node + ":output:", to = node + ":out_tensors:";
    auto fix = [&](std::string& ref) {
      if (ref.rfind(from, 0) == 0) ref = to + ref.substr(from.size());
    };
    for (auto& nd : *f.mutable_node_def()) {
      for (auto& in : *nd.mutable_input()) fix(in);
    }
    for (auto& [key, ref] : *f.mutable_ret()) fix(ref);
  }

  std::string fresh(const std::string& base) {
    std::string name;
    do {
      name = base + "_" + std::to_string(next_++);
    } while (find(name) != nullptr);
    return name;
  }

  tensorflow::MetaGraphDef& meta_;
  const BatchOptions& options_;
  int next_ = 0;
};

/// Every node of the model (GraphDef and functions) with its owner.
template <class F>
void for_each_node(tensorflow::MetaGraphDef& meta, F&& f) {
  for (auto& nd : *meta.mutable_graph_def()->mutable_node()) f(&nd, static_cast<tensorflow::FunctionDef*>(nullptr));
  auto* lib = meta.mutable_graph_def()->mutable_library();
  for (int i = 0; i < lib->function_size(); ++i) {
    for (auto& nd : *lib->mutable_function(i)->mutable_node_def()) f(&nd, lib->mutable_function(i));
  }
}

}  // namespace

void insert_batching(tensorflow::MetaGraphDef& meta, const ConverterOptions& options,
                     const std::vector<TpuSelection>& selected, const ModelFunctions& model) {
  if (options.batch_options_size() == 0) return;
  const BatchOptions& b = options.batch_options(0);
  // B15: a model batched already keeps its batch ops, with these options.
  if (options.disable_default_optimizations()) {
    bool any = false;
    for_each_node(meta, [&](tensorflow::NodeDef* nd, tensorflow::FunctionDef*) {
      if (has_role(*nd, OpRole::Batched)) {
        set_batch_attrs(nd, b);
        any = true;
      }
    });
    if (any) return;
  }
  std::set<std::string> on_tpu;
  for (const std::string& f : tpu_function_names(selected)) {
    for (std::string& g : model.reachable(f)) on_tpu.insert(std::move(g));
  }
  // What to wrap: call nodes in CPU code, chosen by the experimental component.
  std::set<std::string> targets;
  bool whole_signature = false;
  const auto& component = b.experimental();
  switch (component.batch_component_case()) {
    case BatchOptions::Experimental::kFunctionAlias: {
      std::vector<std::string> fs = model.aliased(component.function_alias());
      if (fs.empty()) throw NotFoundError("Function alias \"" + component.function_alias() + "\" not found in the SavedModel");
      targets.insert(fs.begin(), fs.end());
      break;
    }
    case BatchOptions::Experimental::kConcreteFunctionName:
      if (model.find(component.concrete_function_name()) == nullptr) {
        throw NotFoundError("Function \"" + component.concrete_function_name() + "\" not found in the function library");
      }
      targets.insert(component.concrete_function_name());
      break;
    case BatchOptions::Experimental::kSignatureName: {
      std::string f = model.signature_function(component.signature_name());
      if (f.empty()) throw NotFoundError("Signature \"" + component.signature_name() + "\" not found in the SavedModel");
      whole_signature = true;
      break;
    }
    case BatchOptions::Experimental::BATCH_COMPONENT_NOT_SET: break;
  }
  for (const std::string& f : targets) {
    if (on_tpu.count(f)) throw InvalidArgumentError("Batch function \"" + f + "\" must be called on the CPU");
  }
  Inserter inserter(meta, b);
  std::vector<std::pair<int, int>> sites;  // (function index, or -1 for the GraphDef; node index)
  auto* lib = meta.mutable_graph_def()->mutable_library();
  auto wanted = [&](const tensorflow::NodeDef& nd, bool in_graph) {
    if (whole_signature) {
      if (!in_graph || !has_role(nd, OpRole::Call)) return false;
      for (const auto& [out, info] : meta.signature_def().at(component.signature_name()).outputs()) {
        if (info.name().substr(0, info.name().find(':')) == nd.name()) return true;
      }
      return false;
    }
    if (!targets.empty()) return has_role(nd, OpRole::Call) && targets.count(called(nd)) > 0;
    return has_role(nd, OpRole::DeviceCall);
  };
  for (int i = 0; i < meta.graph_def().node_size(); ++i) {
    if (wanted(meta.graph_def().node(i), true)) sites.emplace_back(-1, i);
  }
  for (int f = 0; f < lib->function_size(); ++f) {
    if (on_tpu.count(lib->function(f).signature().name())) continue;
    for (int i = 0; i < lib->function(f).node_def_size(); ++i) {
      if (wanted(lib->function(f).node_def(i), false)) sites.emplace_back(f, i);
    }
  }
  // Wrapping appends functions: resolve each site before it.
  for (const auto& [f, i] : sites) {
    if (f < 0) {
      inserter.wrap(meta.mutable_graph_def()->mutable_node(i), nullptr);
    } else {
      inserter.wrap(lib->mutable_function(f)->mutable_node_def(i), lib->mutable_function(f));
    }
  }
}

}  // namespace ag::tpu
