// tf.saved_model.save and tf.saved_model.SaveOptions (TF's save.py and
// signature_serialization.py), writing the layout saved_model.h describes.
//
// The object graph is the checkpoint's (api/checkpoint) plus, on every
// object, its tf.functions (TF's _list_functions_for_serialization: the
// attributes that are tf.functions or concrete functions, in dir() order)
// and, on the root, "signatures": a signature map whose children are the
// signature functions. Each signature is a wrapper function TF's way
// ("__inference_signature_wrapper_N"): it takes the inputs by name, calls
// the concrete function and returns its results by output key, and the
// GraphDef calls it from placeholders "<key>_<input>" so TF Serving's
// SignatureDef names real tensors.
//
// Everything is built before the first file is written, so an error (an
// unsupported op, an untracked variable) leaves no partial directory.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "runtime/api/checkpoint.h"
#include "runtime/api/python_api.h"
#include "runtime/api/saved_model.h"
#include "runtime/api/structured_value.h"
#include "runtime/api/tf_call.h"
#include "runtime/api/tf_module.h"
#include "runtime/core/error.h"
#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/core/proto_convert.h"
#include "runtime/core/variable.h"
#include "runtime/function/function_value.h"
#include "runtime/graph/control_flow.h"
#include "runtime/graph/function_def.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/nest.h"
#include "runtime/value/object_model.h"
#include "runtime/value/tensor_spec_value.h"

namespace ag {
namespace {

namespace fs = std::filesystem;

// ---- signatures

/// One signature: a concrete function whose inputs are tensors named by
/// key and whose outputs are a tensor, a sequence or a dict of tensors.
struct Signature {
  std::string key;
  std::shared_ptr<ConcreteFunction> cf;
  std::vector<std::string> input_keys;
  std::vector<TensorSpec> inputs;
  std::vector<std::string> output_keys;  // sorted, as TF's nest orders a dict
  std::vector<size_t> output_index;      // per output key, its tensor among cf's outputs
  std::vector<TensorSpec> outputs;
  std::string wrapper;                   // the wrapper function's name
};

/// The signature map (TF's _SignatureMap): the root's "signatures" child.
struct SignatureMapState : NativeState {
  std::vector<std::pair<std::string, Value>> functions;  // key -> SignatureFunction object
};
/// One signature's function in the object graph (a bare concrete function).
struct SignatureFunctionState : NativeState {
  const Signature* signature = nullptr;
};

const Value& signature_map_class() {
  static const Value cls = make_class("_SignatureMap", {}, {});
  return cls;
}
const Value& saved_signature_class() {
  static const Value cls = make_class("_SignatureFunction", {}, {});
  return cls;
}

/// The concrete function a `signatures` entry stands for (TF's
/// signature_serialization.canonicalize_signatures).
std::shared_ptr<ConcreteFunction> signature_function(const Value& f) {
  if (auto cf = concrete_function_of(f)) return cf;
  if (auto fn = function_of(f); fn && fn->options().input_signature) return fn->get_concrete_function();
  throw ValueError("Expected a TensorFlow function for which to generate a signature, but got " + str(f) +
                   ". Only `tf.functions` with an input signature or concrete functions can be used as a signature.");
}

Signature make_signature(const std::string& key, std::shared_ptr<ConcreteFunction> cf) {
  Signature s;
  s.key = key;
  s.cf = std::move(cf);
  // Inputs: each parameter a tensor, named by its spec's name or the parameter's.
  const Graph& g = s.cf->graph();
  if (g.inputs().size() != s.cf->traced_args().size()) {
    throw UnimplementedError("agc: the function of signature '" + key + "' takes structured or non-tensor arguments; "
                             "a signature's arguments must each be one tensor");
  }
  for (size_t i = 0; i < g.inputs().size(); ++i) {
    const Value& arg = s.cf->traced_args()[i];
    if (!arg.is_tensor()) {
      throw UnimplementedError("agc: the function of signature '" + key + "' takes a non-tensor argument '" +
                               s.cf->params()[i].name + "'");
    }
    s.input_keys.push_back(s.cf->params()[i].name);
    s.inputs.push_back(g.inputs()[i]->outputs[0]);
  }
  // Outputs (TF's _normalize_outputs): a dict by its keys, else output_<i>.
  const Value& out = s.cf->structured_outputs();
  std::vector<std::pair<std::string, Value>> named;
  if (out.is_dict()) {
    for (const auto& [k, v] : out.as_dict().entries) {
      if (!k.is_str()) {
        throw ValueError("Got a dictionary with a non-string key " + repr(k) + " in the output of the function " +
                         s.cf->inference_name() + " used to generate the SavedModel signature '" + key + "'.");
      }
      named.emplace_back(k.as_str(), v);
    }
  } else if (out.is_list() || out.is_tuple()) {
    for (size_t i = 0; i < out.items().size(); ++i) named.emplace_back("output_" + std::to_string(i), out.items()[i]);
  } else {
    named.emplace_back("output_0", out);
  }
  std::vector<Value> flat = nest::flatten(out);
  for (const auto& [k, v] : named) {
    if (!v.is_tensor()) {
      throw ValueError("Got a non-Tensor value " + repr(v) + " for key '" + k + "' in the output of the function " +
                       s.cf->inference_name() + " used to generate the SavedModel signature '" + key +
                       "'. Outputs for functions used as signatures must be a single Tensor, a sequence of Tensors, "
                       "or a dictionary from string to Tensor.");
    }
  }
  std::sort(named.begin(), named.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [k, v] : named) {
    size_t index = 0;
    size_t tensors = 0;
    for (const Value& leaf : flat) {
      if (!leaf.is_tensor()) continue;
      if (leaf.as_tensor().symbolic() && v.as_tensor().symbolic() && leaf.as_tensor().output() == v.as_tensor().output()) {
        index = tensors;
        break;
      }
      ++tensors;
    }
    s.output_keys.push_back(k);
    s.output_index.push_back(index);
    s.outputs.push_back({v.as_tensor().dtype(), v.as_tensor().shape()});
  }
  // TF's wrapper is "__inference_signature_wrapper_<uid>"; agc takes the
  // wrapped function's number, unique among its functions.
  const std::string& name = s.cf->inference_name();
  s.wrapper = "__inference_signature_wrapper_" + name.substr(name.find_last_of('_') + 1);
  return s;
}

/// The wrapper graph: inputs by key, a call of the function, outputs by key.
std::shared_ptr<Graph> wrapper_graph(const Signature& s) {
  auto g = std::make_shared<Graph>("signature_wrapper");
  std::vector<Output> args;
  for (size_t i = 0; i < s.inputs.size(); ++i) args.push_back(g->placeholder(s.inputs[i], s.input_keys[i]));
  Node* call = add_call(*g, args, s.cf->graph().clone(g.get()), s.cf->inference_name());
  for (size_t index : s.output_index) {
    g->outputs().push_back(g->add_node(op::Identity, {call->output(static_cast<int>(index))}, {}, "Identity")->output(0));
  }
  return g;
}

// ---- the object graph's functions

/// The tf.functions and concrete functions among `node`'s attributes, by
/// name in dir() order; tf.functions with an input signature are traced
/// first, as TF's save does. Methods (tf.functions of its class, bound to
/// it) are added to `methods` when given.
std::vector<std::pair<std::string, Value>> functions_of(const Value& node, std::set<const Function*>* methods = nullptr) {
  std::vector<std::pair<std::string, Value>> out;
  if (!node.is_object()) return out;
  if (native_state<SignatureMapState>(node) != nullptr) return native_state<SignatureMapState>(node)->functions;
  std::set<std::string> names, of_class;
  auto is_function = [](const Value& v) { return function_of(v) != nullptr || concrete_function_of(v) != nullptr; };
  for (const auto& [name, v] : node.as_object().attrs) {
    if (is_function(v)) names.insert(name);
  }
  if (!node.as_object().cls.is_none()) {
    for (const Value& cls : mro(node.as_object().cls)) {
      if (!cls.is_object()) continue;
      for (const auto& [name, v] : cls.as_object().attrs) {
        if (function_of(v) != nullptr) of_class.insert(name);
      }
    }
  }
  for (const std::string& name : of_class) {
    if (!names.count(name) && methods) methods->insert(function_of(node.getattr(name)).get());
  }
  names.insert(of_class.begin(), of_class.end());
  for (const std::string& name : names) {
    Value f = node.getattr(name);
    if (auto fn = function_of(f); fn && fn->options().input_signature && fn->concrete_functions().empty()) {
      fn->get_concrete_function();
    }
    out.emplace_back(name, std::move(f));
  }
  return out;
}

/// inspect.getfullargspec of a tf.function's Python function, as TF's
/// FunctionSpec records it (a FullArgSpec named tuple).
void write_fullargspec(const Function& fn, bool is_method, tensorflow::StructuredValue* out) {
  auto* nt = out->mutable_named_tuple_value();
  nt->set_name("FullArgSpec");
  auto field = [&](const char* name) {
    auto* p = nt->add_values();
    p->set_key(name);
    return p->mutable_value();
  };
  auto* args = field("args")->mutable_list_value();
  if (is_method) args->add_values()->set_string_value("self");
  for (const Param& p : fn.params()) args->add_values()->set_string_value(p.name);
  field("varargs")->mutable_none_value();
  field("varkw")->mutable_none_value();
  field("defaults")->mutable_none_value();
  field("kwonlyargs")->mutable_list_value();
  field("kwonlydefaults")->mutable_none_value();
  field("annotations")->mutable_dict_value();
}

void write_function_spec(const Function& fn, bool is_method, tensorflow::FunctionSpec* spec) {
  write_fullargspec(fn, is_method, spec->mutable_fullargspec());
  spec->set_is_method(is_method);
  if (fn.options().input_signature) {
    encode_structure(Value::tuple(*fn.options().input_signature), spec->mutable_input_signature());
  }
  if (fn.options().jit_compile) {
    spec->set_jit_compile(*fn.options().jit_compile ? tensorflow::FunctionSpec::ON : tensorflow::FunctionSpec::OFF);
  }
}

/// What TF's loader recreates an object as (its revived-type identifier).
std::string identifier_of(const Value& v) {
  if (v.is_list()) return "trackable_list_wrapper";
  if (v.is_tuple()) return "trackable_tuple_wrapper";
  if (v.is_dict()) return "trackable_dict_wrapper";
  if (native_state<SignatureMapState>(v) != nullptr) return "signature_map";
  if (is_instance(v, tf::api::keras_optimizers_Optimizer())) return "optimizer";
  return "_generic_user_object";
}

void set_version(tensorflow::VersionDef* v) {
  v->set_producer(1);
  v->set_min_consumer(1);
}

/// TF's error for a function reading a variable the saved object does not track.
[[noreturn]] void untracked(const std::string& function, int64_t var) {
  std::string captured = "<unknown variable>";
  if (auto v = Variable::lookup(var)) captured = "<tf.Variable '" + v->name() + ":0' shape=" + v->shape().str() +
                                                 " dtype=" + dtype_name(v->dtype()) + ">";
  throw AssertionError(
      "Tried to export a function which references an 'untracked' resource. TensorFlow objects (e.g. tf.Variable) "
      "captured by functions must be 'tracked' by assigning them to an attribute of a tracked object or assigned to "
      "an attribute of the main object directly. See the information below:\n\tFunction name = b'" +
      function + "'\n\tCaptured Tensor = " + captured);
}

// ---- the writer

class SavedModelWriter {
 public:
  SavedModelWriter(Value root, std::vector<Signature> signatures, std::map<std::string, std::string> aliases)
      : root_(std::move(root)), signatures_(std::move(signatures)), aliases_(std::move(aliases)) {}

  void save(const std::string& dir) {
    // The signature map hangs off the root as "signatures".
    Value map;
    if (!signatures_.empty()) {
      auto st = std::make_shared<SignatureMapState>();
      for (const Signature& s : signatures_) {
        auto f = std::make_shared<SignatureFunctionState>();
        f->signature = &s;
        st->functions.emplace_back(s.key, native_object(saved_signature_class(), f));
      }
      map = native_object(signature_map_class(), st);
    }
    ObjectGraphView view = object_graph_view(root_, [&](const Value& node) {
      auto out = functions_of(node, &methods_);
      if (node.is_object() && &node.as_object() == &root_.as_object() && !map.is_none()) out.emplace_back("signatures", map);
      return out;
    });
    for (size_t i = 0; i < view.nodes.size(); ++i) {
      if (view.nodes[i].is_variable()) variable_nodes_[view.nodes[i].as_variable()->id()] = static_cast<int>(i);
    }
    tensorflow::SavedModel model;
    model.set_saved_model_schema_version(1);
    tensorflow::MetaGraphDef* meta = model.add_meta_graphs();
    write_meta_info(meta->mutable_meta_info_def());
    tensorflow::SavedObjectGraph* objects = meta->mutable_object_graph_def();
    for (size_t i = 0; i < view.nodes.size(); ++i) write_object(view, i, objects);
    write_graph(meta);
    *meta->mutable_graph_def()->mutable_library() = *functions_.library();
    // Everything is built: now the files.
    std::error_code ec;
    fs::create_directories(fs::path(dir) / "variables", ec);
    if (ec) throw PermissionDeniedError(dir + "; " + ec.message());
    fs::create_directories(fs::path(dir) / "assets", ec);
    write_object_graph(view, (fs::path(dir) / "variables" / "variables").string());
    std::string bytes;
    if (!model.SerializeToString(&bytes)) throw InternalError("agc could not serialize the SavedModel of " + dir);
    fs::path pb = fs::path(dir) / "saved_model.pb";
    std::ofstream out(pb, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw PermissionDeniedError("Failed to write " + pb.string());
  }

 private:
  void write_meta_info(tensorflow::MetaGraphDef::MetaInfoDef* info) {
    info->add_tags(kServeTag);
    // The TF release whose layout this is; the git version says who wrote it.
    info->set_tensorflow_version("2.13.0");
    info->set_tensorflow_git_version("agc-0.1.0");
    info->set_stripped_default_attrs(true);
    for (const auto& [name, alias] : aliases_) (*info->mutable_function_aliases())[name] = alias;
  }

  /// Writes `cf` into the library (once) and the object graph's record of it.
  void write_concrete(const ConcreteFunction& cf, tensorflow::SavedObjectGraph* objects) {
    const std::string& name = cf.inference_name();
    if (objects->concrete_functions().count(name)) return;
    std::vector<int64_t> vars = functions_.write(cf.graph(), name);
    tensorflow::SavedConcreteFunction& saved = (*objects->mutable_concrete_functions())[name];
    for (int64_t v : vars) saved.add_bound_inputs(node_of(name, v));
    // canonicalized_input_signature: ((args...), {}); a method's bound self is not an argument.
    encode_structure(Value::tuple({Value::tuple(cf.traced_args()), Value::dict({})}),
                     saved.mutable_canonicalized_input_signature());
    encode_structure(cf.structured_outputs(), saved.mutable_output_signature());
    // A TensorSpec of an argument is named after its parameter, as TF's are.
    auto* specs = saved.mutable_canonicalized_input_signature()->mutable_tuple_value()->mutable_values(0);
    name_arg_specs(cf, specs);
  }

  static void name_arg_specs(const ConcreteFunction& cf, tensorflow::StructuredValue* args) {
    for (int i = 0; i < args->tuple_value().values_size() && static_cast<size_t>(i) < cf.params().size(); ++i) {
      auto* v = args->mutable_tuple_value()->mutable_values(i);
      if (v->has_tensor_spec_value()) v->mutable_tensor_spec_value()->set_name(cf.params()[static_cast<size_t>(i)].name);
    }
  }

  int node_of(const std::string& function, int64_t var) const {
    auto it = variable_nodes_.find(var);
    if (it == variable_nodes_.end()) untracked(function, var);
    return it->second;
  }

  void write_object(const ObjectGraphView& view, size_t i, tensorflow::SavedObjectGraph* objects) {
    const Value& v = view.nodes[i];
    tensorflow::SavedObject* node = objects->add_nodes();
    for (const auto& [name, id] : view.edges[i]) {
      auto* ref = node->add_children();
      ref->set_node_id(id);
      ref->set_local_name(name);
    }
    if (v.is_variable()) {
      const Variable& var = *v.as_variable();
      auto* sv = node->mutable_variable();
      sv->set_dtype(proto::tf_data_type(var.dtype()));
      proto::write_shape(var.shape(), sv->mutable_shape());
      sv->set_trainable(var.trainable());
      sv->set_name(var.name());
      return;
    }
    if (auto* sf = native_state<SignatureFunctionState>(v)) {
      const Signature& s = *sf->signature;
      write_signature(s, objects);
      auto* bare = node->mutable_bare_concrete_function();
      bare->set_concrete_function_name(s.wrapper);
      for (const std::string& k : s.input_keys) bare->add_argument_keywords(k);
      return;
    }
    if (auto fn = function_of(v)) {
      bool is_method = methods_.count(fn.get()) > 0;
      auto* f = node->mutable_function();
      for (const auto& cf : fn->concrete_functions()) {
        write_concrete(*cf, objects);
        f->add_concrete_functions(cf->inference_name());
      }
      write_function_spec(*fn, is_method, f->mutable_function_spec());
      return;
    }
    if (auto cf = concrete_function_of(v)) {
      write_concrete(*cf, objects);
      auto* bare = node->mutable_bare_concrete_function();
      bare->set_concrete_function_name(cf->inference_name());
      for (const Param& p : cf->params()) bare->add_argument_keywords(p.name);
      bare->set_allowed_positional_arguments(static_cast<int64_t>(cf->params().size()));
      return;
    }
    auto* user = node->mutable_user_object();
    user->set_identifier(identifier_of(v));
    set_version(user->mutable_version());
  }

  /// The wrapper function and its record: called by keyword only.
  void write_signature(const Signature& s, tensorflow::SavedObjectGraph* objects) {
    if (objects->concrete_functions().count(s.wrapper)) return;
    write_concrete(*s.cf, objects);
    std::vector<int64_t> vars = functions_.write(*wrapper_graph(s), s.wrapper, s.output_keys);
    tensorflow::SavedConcreteFunction& saved = (*objects->mutable_concrete_functions())[s.wrapper];
    for (int64_t v : vars) saved.add_bound_inputs(node_of(s.wrapper, v));
    std::vector<std::pair<Value, Value>> kwargs, outputs;
    for (size_t i = 0; i < s.inputs.size(); ++i) {
      kwargs.emplace_back(Value(s.input_keys[i]), make_tensor_spec(s.inputs[i].shape, s.inputs[i].dtype, s.input_keys[i]));
    }
    for (size_t i = 0; i < s.outputs.size(); ++i) {
      outputs.emplace_back(Value(s.output_keys[i]), make_tensor_spec(s.outputs[i].shape, s.outputs[i].dtype, s.output_keys[i]));
    }
    encode_structure(Value::tuple({Value::tuple({}), Value::dict(std::move(kwargs))}),
                     saved.mutable_canonicalized_input_signature());
    encode_structure(Value::dict(std::move(outputs)), saved.mutable_output_signature());
    wrapper_vars_[s.wrapper] = vars;
  }

  /// The GraphDef: per signature, placeholders and a call of its wrapper;
  /// the variables as VarHandleOps the calls take.
  void write_graph(tensorflow::MetaGraphDef* meta) {
    tensorflow::GraphDef* graph = meta->mutable_graph_def();
    graph->mutable_versions()->set_producer(1286);
    graph->mutable_versions()->set_min_consumer(12);
    std::set<std::string> taken;
    auto unique = [&](const std::string& base) {
      std::string n = base;
      for (int i = 1; taken.count(n); ++i) n = base + "_" + std::to_string(i);
      taken.insert(n);
      return n;
    };
    std::map<int64_t, std::string> handles;
    auto handle = [&](int64_t id) -> const std::string& {
      if (auto it = handles.find(id); it != handles.end()) return it->second;
      auto var = Variable::lookup(id);
      tensorflow::NodeDef* nd = graph->add_node();
      nd->set_name(unique(var->name()));
      nd->set_op("VarHandleOp");
      auto& a = *nd->mutable_attr();
      a["dtype"].set_type(proto::tf_data_type(var->dtype()));
      proto::write_shape(var->shape(), a["shape"].mutable_shape());
      a["shared_name"].set_s(nd->name());
      a["container"].set_s("");
      a["allowed_devices"].mutable_list();
      return handles[id] = nd->name();
    };
    for (const Signature& s : signatures_) {
      tensorflow::SignatureDef& def = (*meta->mutable_signature_def())[s.key];
      def.set_method_name(kPredictMethodName);
      std::vector<std::string> inputs;
      for (size_t i = 0; i < s.inputs.size(); ++i) {
        tensorflow::NodeDef* nd = graph->add_node();
        nd->set_name(unique(s.key + "_" + s.input_keys[i]));
        nd->set_op("Placeholder");
        (*nd->mutable_attr())["dtype"].set_type(proto::tf_data_type(s.inputs[i].dtype));
        proto::write_shape(s.inputs[i].shape, (*nd->mutable_attr())["shape"].mutable_shape());
        inputs.push_back(nd->name());
        tensorflow::TensorInfo& info = (*def.mutable_inputs())[s.input_keys[i]];
        info.set_name(nd->name() + ":0");
        info.set_dtype(proto::tf_data_type(s.inputs[i].dtype));
        proto::write_shape(s.inputs[i].shape, info.mutable_tensor_shape());
      }
      tensorflow::NodeDef* call = graph->add_node();
      call->set_name(unique("StatefulPartitionedCall"));
      call->set_op("StatefulPartitionedCall");
      auto& a = *call->mutable_attr();
      for (size_t i = 0; i < inputs.size(); ++i) {
        call->add_input(inputs[i]);
        a["Tin"].mutable_list()->add_type(proto::tf_data_type(s.inputs[i].dtype));
      }
      for (int64_t v : wrapper_vars_.at(s.wrapper)) {
        call->add_input(handle(v));
        a["Tin"].mutable_list()->add_type(tensorflow::DT_RESOURCE);
      }
      for (size_t i = 0; i < s.outputs.size(); ++i) {
        a["Tout"].mutable_list()->add_type(proto::tf_data_type(s.outputs[i].dtype));
        tensorflow::TensorInfo& info = (*def.mutable_outputs())[s.output_keys[i]];
        info.set_name(call->name() + ":" + std::to_string(i));
        info.set_dtype(proto::tf_data_type(s.outputs[i].dtype));
        proto::write_shape(s.outputs[i].shape, info.mutable_tensor_shape());
      }
      a["f"].mutable_func()->set_name(s.wrapper);
      a["config"].set_s("");
      a["config_proto"].set_s("");
      a["executor_type"].set_s("");
    }
    // TF2's init op: a NoOp every SavedModel names as its
    // "__saved_model_init_op" signature (nothing to initialize here).
    tensorflow::NodeDef* init = graph->add_node();
    init->set_name(unique("NoOp"));
    init->set_op("NoOp");
    tensorflow::SignatureDef& def = (*meta->mutable_signature_def())[kInitOpSignature];
    tensorflow::TensorInfo& info = (*def.mutable_outputs())[kInitOpSignature];
    info.set_name(init->name());
    info.mutable_tensor_shape()->set_unknown_rank(true);
  }

  Value root_;
  std::vector<Signature> signatures_;
  std::map<std::string, std::string> aliases_;
  FunctionDefWriter functions_;
  std::map<int64_t, int> variable_nodes_;
  std::set<const Function*> methods_;
  std::map<std::string, std::vector<int64_t>> wrapper_vars_;
};

// ---- SaveOptions

struct SaveOptionsState : NativeState {
  Value function_aliases;  // a dict, or None
};

const Value& save_options_class() {
  static const Value cls = [] {
    Param self{"self", std::nullopt};
    std::vector<std::pair<std::string, Value>> attrs;
    attrs.push_back(native_method(
        "SaveOptions.__init__", "__init__",
        {self, {"namespace_whitelist", Value()}, {"save_debug_info", Value(false)}, {"function_aliases", Value()},
         {"experimental_debug_stripper", Value(false)}, {"experimental_io_device", Value()},
         {"experimental_variable_policy", Value()}, {"experimental_custom_gradients", Value(true)},
         {"experimental_image_format", Value(false)}, {"experimental_skip_saver", Value(false)}},
        [](const std::vector<Value>& a) -> Value {
          const Value& aliases = a[3];
          if (!aliases.is_none() && !aliases.is_dict()) {
            throw TypeError("function_aliases must be a dict, got " + aliases.type_name());
          }
          a[0].setattr("namespace_whitelist", a[1]);
          a[0].setattr("save_debug_info", a[2]);
          a[0].setattr("function_aliases", aliases.is_none() ? Value::dict({}) : aliases);
          a[0].setattr("experimental_io_device", a[5]);
          a[0].setattr("experimental_variable_policy", a[6]);
          a[0].setattr("experimental_custom_gradients", a[7]);
          a[0].setattr("experimental_image_format", a[8]);
          a[0].setattr("experimental_skip_saver", a[9]);
          return Value();
        }));
    return make_class("SaveOptions", {}, std::move(attrs));
  }();
  return cls;
}

/// meta_info_def.function_aliases: concrete name -> alias (TF's save.py).
std::map<std::string, std::string> function_aliases(const Value& options) {
  std::map<std::string, std::string> out;
  if (options.is_none()) return out;
  if (!is_instance(options, save_options_class())) {
    throw TypeError("options must be a tf.saved_model.SaveOptions, got " + options.type_name());
  }
  for (const auto& [alias, func] : options.getattr("function_aliases").as_dict().entries) {
    std::string a = str(alias);
    if (auto cf = concrete_function_of(func)) {
      out[cf->inference_name()] = a;
    } else if (auto fn = function_of(func)) {
      // TF's _list_all_concrete_functions: traces the input signature first.
      if (fn->options().input_signature && fn->concrete_functions().empty()) fn->get_concrete_function();
      for (const auto& c : fn->concrete_functions()) out[c->inference_name()] = a;
    } else if ((func.is_list() || func.is_tuple()) && !func.items().empty() &&
               std::all_of(func.items().begin(), func.items().end(),
                           [](const Value& x) { return concrete_function_of(x) != nullptr; })) {
      for (const Value& x : func.items()) out[concrete_function_of(x)->inference_name()] = a;
    } else {
      throw TypeError("Unsupported type f<class '" + func.type_name() + "'>. Functions in `function_aliases` should be "
                      "created by tf.function, or concrete functions, or collections of concrete functions.");
    }
  }
  return out;
}

/// TF's find_function_to_export: without `signatures`, the root's one
/// function that has an input signature (none when it has several).
std::vector<Signature> default_signatures(const Value& root) {
  std::vector<std::shared_ptr<ConcreteFunction>> candidates;
  for (const auto& [name, f] : functions_of(root)) {
    auto fn = function_of(f);
    if (fn && fn->options().input_signature) candidates.push_back(fn->get_concrete_function());
  }
  if (candidates.size() != 1) return {};
  return {make_signature(kDefaultServingSignature, candidates[0])};
}

}  // namespace

Value tf::impl::saved_model_save(const TfCall& c) {
  const Value& obj = c["obj"];
  if (!obj.is_object() || obj.as_object().cls.is_none()) {
    throw ValueError("Expected an object of type `Trackable`, such as `tf.Module` or a subclass of the `Trackable` "
                     "class, for export. Got " + str(obj) + " with type <class '" + obj.type_name() + "'>.");
  }
  if (!c["export_dir"].is_str()) throw TypeError("export_dir must be a string, got " + c["export_dir"].type_name());
  std::vector<Signature> signatures;
  const Value& sigs = c["signatures"];
  if (sigs.is_none()) {
    signatures = default_signatures(obj);
  } else if (sigs.is_dict()) {
    for (const auto& [k, f] : sigs.as_dict().entries) {
      if (!k.is_str()) throw ValueError("Expected signature keys to be strings, got " + repr(k));
      signatures.push_back(make_signature(k.as_str(), signature_function(f)));
    }
    std::sort(signatures.begin(), signatures.end(), [](const Signature& a, const Signature& b) { return a.key < b.key; });
  } else {
    signatures.push_back(make_signature(kDefaultServingSignature, signature_function(sigs)));
  }
  SavedModelWriter(obj, std::move(signatures), function_aliases(c["options"])).save(c["export_dir"].as_str());
  return Value();
}

const Value& tf::api::saved_model_SaveOptions() { return save_options_class(); }

}  // namespace ag
