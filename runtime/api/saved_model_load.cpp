// tf.saved_model.load (TF's load.py and function_deserialization.py): the
// SavedObjectGraph's nodes recreated (objects as plain "_UserObject"s with
// their children as attributes, list/tuple/dict wrappers as Python
// containers, variables with the checkpoint's values), every concrete
// function read from the library (graph/function_def) with the variables of
// its bound_inputs, and the tf.functions restored over them: a call picks
// the first concrete function whose input signature the arguments fit, as
// TF's RestoredFunction does. `signatures` maps keys to concrete functions
// called by keyword, returning a dict.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "runtime/api/checkpoint.h"
#include "runtime/api/python_api.h"
#include "runtime/api/saved_model.h"
#include "runtime/api/structured_value.h"
#include "runtime/api/tf_call.h"
#include "runtime/core/error.h"
#include "runtime/core/object_graph_values.h"
#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/core/tensor_bundle.h"
#include "runtime/core/variable.h"
#include "runtime/function/function_value.h"
#include "runtime/function/restored_function.h"
#include "runtime/graph/function_def.h"
#include "runtime/value/convert.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/object_model.h"
#include "runtime/value/tensor_spec_value.h"
#include "runtime/value/user_function.h"
#include "runtime/value/variable_value.h"

namespace ag {
namespace {

namespace fs = std::filesystem;

/// "tpu_func" of "__inference_tpu_func_12".
std::string python_name(const std::string& inference_name) {
  std::string n = inference_name;
  if (n.rfind("__inference_", 0) == 0) n = n.substr(12);
  size_t cut = n.find_last_of('_');
  if (cut != std::string::npos && cut + 1 < n.size() &&
      n.find_first_not_of("0123456789", cut + 1) == std::string::npos) {
    n = n.substr(0, cut);
  }
  return n;
}

/// A class's `__call__` that calls the instance's native state `S`.
template <class S>
std::pair<std::string, Value> native_call() {
  return {"__call__", Value::callable("__call__", [](std::vector<Value> a, Kwargs kwargs) -> Value {
            Value self = a.at(0);
            a.erase(a.begin());
            return native_state<S>(self)->call(std::move(a), std::move(kwargs));
          })};
}

// ---- restored functions

struct RestoredFunctionState : NativeState {
  std::string name;
  std::vector<std::shared_ptr<ConcreteFunction>> concrete;

  bool callable() const override { return true; }
  Value call(std::vector<Value> args, Kwargs kwargs) override;
};

/// The arguments bound to `cf`'s parameters when they fit its input
/// signature (TF's _concrete_function_callable_with), else nullopt.
std::optional<std::vector<Value>> fit(const ConcreteFunction& cf, const std::vector<Value>& args, const Kwargs& kwargs) {
  std::vector<Value> bound;
  try {
    bound = bind_arguments(cf.name(), cf.params(), args, kwargs);
  } catch (const TypeError&) {
    return std::nullopt;
  }
  for (size_t i = 0; i < bound.size(); ++i) {
    const TraceType& want = cf.input_types()[i];
    if (want.kind() == TraceType::Kind::Tensor && !bound[i].is_tensor()) {
      try {
        bound[i] = Value(to_tensor(bound[i], want.spec().dtype));
      } catch (const Exception&) {
        return std::nullopt;
      }
    }
    if (!TraceType::of(bound[i]).is_subtype_of(want)) return std::nullopt;
  }
  return bound;
}

std::string pretty_positional(const std::vector<Value>& positional) {
  std::string s = "Positional arguments (" + std::to_string(positional.size()) + " total):\n    * ";
  for (size_t i = 0; i < positional.size(); ++i) s += (i ? "\n    * " : "") + repr(positional[i]);
  return s;
}

std::string kwargs_repr(const Kwargs& kwargs) {
  std::vector<std::pair<Value, Value>> items;
  for (const auto& [k, v] : kwargs) items.emplace_back(Value(k), v);
  return repr(Value::dict(std::move(items)));
}

Value RestoredFunctionState::call(std::vector<Value> args, Kwargs kwargs) {
  for (const auto& cf : concrete) {
    if (auto bound = fit(*cf, args, kwargs)) return cf->call_bound(*bound);
  }
  std::string options;
  for (size_t i = 0; i < concrete.size(); ++i) {
    const ConcreteFunction& cf = *concrete[i];
    std::vector<Value> specs;
    for (size_t p = 0; p < cf.params().size(); ++p) {
      const TraceType& t = cf.input_types()[p];
      specs.push_back(t.kind() == TraceType::Kind::Tensor
                          ? make_tensor_spec(t.spec().shape, t.spec().dtype, cf.params()[p].name)
                          : cf.traced_args()[p]);
    }
    options += (i ? "\n\n" : "") + std::string("Option ") + std::to_string(i + 1) + ":\n  " + pretty_positional(specs) +
               "\n  Keyword arguments: {}";
  }
  throw ValueError("Could not find matching concrete function to call loaded from the SavedModel. Got:\n  " +
                   pretty_positional(args) + "\n  Keyword arguments: " + kwargs_repr(kwargs) +
                   "\n\n Expected these arguments to match one of the following " + std::to_string(concrete.size()) +
                   " option(s):\n\n" + options);
}

const Value& restored_function_class() {
  static const Value cls = make_class(
      "RestoredFunction", {},
      {native_call<RestoredFunctionState>(),
       {"concrete_functions",
        make_property(Value::callable("concrete_functions", [](std::vector<Value> a, Kwargs) -> Value {
          std::vector<Value> out;
          for (const auto& cf : native_state<RestoredFunctionState>(a.at(0))->concrete) {
            out.push_back(concrete_function_value(cf));
          }
          return Value::list(std::move(out));
        }))},
       {"__repr__", Value::callable("__repr__", [](std::vector<Value> a, Kwargs) -> Value {
          return Value("<tensorflow.python.saved_model.function_deserialization.RestoredFunction object at " +
                       address_text(native_state<RestoredFunctionState>(a.at(0))) + ">");
        })}});
  return cls;
}

// ---- signatures

/// A signature function: keyword arguments only, a dict of results.
struct SignatureState : NativeState {
  std::shared_ptr<ConcreteFunction> cf;
  bool callable() const override { return true; }
  Value call(std::vector<Value> args, Kwargs kwargs) override {
    if (!args.empty()) {
      throw TypeError("signature_wrapper(*, " + param_list() + ") takes 0 positional arguments but " +
                      std::to_string(args.size()) + " were given");
    }
    return (*cf)({}, std::move(kwargs));
  }
  std::string param_list() const {
    std::string s;
    for (const Param& p : cf->params()) s += (s.empty() ? "" : ", ") + p.name;
    return s;
  }
};

const Value& signature_function_class() {
  static const Value cls = make_class(
      "ConcreteFunction", {},
      {native_call<SignatureState>(),
       {"structured_outputs",
        make_property(Value::callable("structured_outputs", [](std::vector<Value> a, Kwargs) -> Value {
          return native_state<SignatureState>(a.at(0))->cf->structured_outputs();
        }))},
       {"name", make_property(Value::callable("name", [](std::vector<Value> a, Kwargs) -> Value {
          return Value(native_state<SignatureState>(a.at(0))->cf->inference_name());
        }))},
       {"__repr__", Value::callable("__repr__", [](std::vector<Value> a, Kwargs) -> Value {
          const auto& st = *native_state<SignatureState>(a.at(0));
          return Value("<ConcreteFunction signature_wrapper(*, " + st.param_list() + ") at " + address_text(&st) + ">");
        })}});
  return cls;
}

// ---- the loader

class Loader {
 public:
  Loader(const std::string& dir, const tensorflow::MetaGraphDef& meta)
      : dir_(dir),
        graph_(meta.object_graph_def()),
        functions_(std::make_shared<tensorflow::FunctionDefLibrary>(meta.graph_def().library())),
        nodes_(static_cast<size_t>(graph_.nodes_size())),
        state_(nodes_.size(), State::kTodo) {}

  Value load() {
    if (graph_.nodes_size() == 0) {
      throw UnimplementedError("agc: " + dir_ + " is a TF1 SavedModel (no object graph); agc loads TF2 SavedModels");
    }
    read_variables();
    for (size_t i = 0; i < nodes_.size(); ++i) make(static_cast<int>(i));
    // Children become attributes once every node exists (cycles allowed).
    for (size_t i = 0; i < nodes_.size(); ++i) {
      const Value& v = nodes_[i];
      if (!v.is_object() || native_state<RestoredFunctionState>(v) != nullptr) continue;
      for (const auto& ref : graph_.nodes(static_cast<int>(i)).children()) {
        v.setattr(ref.local_name(), nodes_[static_cast<size_t>(ref.node_id())]);
      }
    }
    return nodes_[0];
  }

 private:
  void read_variables() {
    bool any = false;
    for (const auto& n : graph_.nodes()) any = any || n.kind_case() == tensorflow::SavedObject::kVariable;
    if (!any) return;
    std::string prefix = (fs::path(dir_) / "variables" / "variables").string();
    values_ = read_object_graph_values(prefix);
  }

  const tensorflow::SavedObject& node(int id) const {
    if (id < 0 || id >= graph_.nodes_size()) {
      throw DataLossError("The object graph of SavedModel " + dir_ + " refers to a missing node " + std::to_string(id));
    }
    return graph_.nodes(id);
  }

  Value make(int id) {
    const tensorflow::SavedObject& n = node(id);
    size_t i = static_cast<size_t>(id);
    if (state_[i] == State::kMade) return nodes_[i];
    // Only the objects made from others (containers from their children,
    // functions from what they capture) recurse here; TF's loader orders
    // those by dependency, and a cycle among them has no order.
    if (state_[i] == State::kMaking) {
      throw DataLossError("The object graph of SavedModel " + dir_ + " is cyclic: node " + std::to_string(id) +
                          " depends on itself");
    }
    state_[i] = State::kMaking;
    Value v;
    switch (n.kind_case()) {
      case tensorflow::SavedObject::kVariable: v = variable(id, n.variable()); break;
      case tensorflow::SavedObject::kFunction: v = function(n.function()); break;
      case tensorflow::SavedObject::kBareConcreteFunction: v = bare(n.bare_concrete_function()); break;
      case tensorflow::SavedObject::kUserObject: v = user_object(n); break;
      default:
        throw UnimplementedError("agc does not load SavedModel objects of this kind (node " + std::to_string(id) +
                                 ": assets, constants, resources and captured tensors)");
    }
    state_[i] = State::kMade;
    nodes_[i] = v;
    return v;
  }

  Value variable(int id, const tensorflow::SavedVariable& sv) {
    auto it = values_.find(id);
    if (it == values_.end()) {
      throw NotFoundError("The variables of SavedModel " + dir_ + " have no value for variable '" + sv.name() + "'");
    }
    Value var = variable_value::create(Value(it->second), it->second.dtype(), Value(sv.name()), Value(), sv.trainable());
    return var;
  }

  Value user_object(const tensorflow::SavedObject& n) {
    const std::string& kind = n.user_object().identifier();
    auto children = [&] {
      std::vector<std::pair<std::string, Value>> out;
      for (const auto& ref : n.children()) out.emplace_back(ref.local_name(), make(ref.node_id()));
      return out;
    };
    if (kind == "trackable_list_wrapper" || kind == "trackable_tuple_wrapper") {
      std::vector<Value> items;
      for (auto& [name, child] : children()) items.push_back(std::move(child));
      return kind == "trackable_list_wrapper" ? Value::list(std::move(items)) : Value::tuple(std::move(items));
    }
    if (kind == "trackable_dict_wrapper") {
      std::vector<std::pair<Value, Value>> items;
      for (auto& [name, child] : children()) items.emplace_back(Value(name), std::move(child));
      return Value::dict(std::move(items));
    }
    if (kind == "signature_map") {
      // TF's _SignatureMap: a read-only mapping of key to signature function.
      std::vector<std::pair<Value, Value>> items;
      for (auto& [name, child] : children()) items.emplace_back(Value(name), std::move(child));
      return Value::dict(std::move(items));
    }
    static const Value cls = make_class("_UserObject", {}, {});
    // A saved __call__ makes the object callable (TF sets it on the
    // object's class; here the class forwards to the instance's).
    static const Value callable_cls = make_class(
        "_UserObject", {},
        {{"__call__", Value::callable("__call__", [](std::vector<Value> a, Kwargs kwargs) -> Value {
            Value self = a.at(0);
            a.erase(a.begin());
            return self.getattr("__call__")(std::move(a), std::move(kwargs));
          })}});
    for (const auto& ref : n.children()) {
      if (ref.local_name() == "__call__") return callable_cls({});
    }
    return cls({});
  }

  /// Concrete function `name`, read once.
  std::shared_ptr<ConcreteFunction> concrete(const std::string& name) {
    if (auto it = concrete_.find(name); it != concrete_.end()) return it->second;
    auto saved = graph_.concrete_functions().find(name);
    if (saved == graph_.concrete_functions().end()) {
      throw NotFoundError("SavedModel " + dir_ + " has no record of concrete function " + name);
    }
    std::vector<int64_t> vars;
    for (int id : saved->second.bound_inputs()) {
      Value v = make(id);
      if (!v.is_variable()) {
        throw UnimplementedError("agc: concrete function " + name + " captures node " + std::to_string(id) +
                                 ", which is not a variable");
      }
      vars.push_back(v.as_variable()->id());
    }
    std::shared_ptr<Graph> g = functions_.read(name, vars);
    Value sig = decode_structure(saved->second.canonicalized_input_signature());
    std::vector<Param> params;
    std::vector<Value> specs;
    if (sig.is_tuple() && sig.items().size() == 2) {
      const Value& args = sig.items()[0];
      for (size_t i = 0; i < args.items().size(); ++i) {
        std::string n = tensor_spec_of(args.items()[i]) ? tensor_spec_name(args.items()[i]) : std::string();
        params.push_back({n.empty() ? "arg_" + std::to_string(i) : n, std::nullopt});
        specs.push_back(args.items()[i]);
      }
      for (const auto& [k, spec] : sig.items()[1].as_dict().entries) {
        params.push_back({str(k), std::nullopt});
        specs.push_back(spec);
      }
    }
    auto cf = restore_concrete_function(python_name(name), name, std::move(params), specs, g,
                                        decode_structure(saved->second.output_signature()));
    concrete_[name] = cf;
    return cf;
  }

  Value function(const tensorflow::SavedFunction& f) {
    auto st = std::make_shared<RestoredFunctionState>();
    for (const std::string& name : f.concrete_functions()) st->concrete.push_back(concrete(name));
    st->name = st->concrete.empty() ? std::string("function") : st->concrete[0]->name();
    return native_object(restored_function_class(), st);
  }

  Value bare(const tensorflow::SavedBareConcreteFunction& b) {
    auto cf = concrete(b.concrete_function_name());
    if (b.allowed_positional_arguments() == 0 && b.argument_keywords_size() > 0) {
      auto st = std::make_shared<SignatureState>();
      st->cf = cf;
      return native_object(signature_function_class(), st);
    }
    return concrete_function_value(cf);
  }

  std::string dir_;
  const tensorflow::SavedObjectGraph& graph_;
  FunctionDefReader functions_;
  std::vector<Value> nodes_;
  enum class State : uint8_t { kTodo, kMaking, kMade };
  std::vector<State> state_;
  std::map<int, Tensor> values_;
  std::map<std::string, std::shared_ptr<ConcreteFunction>> concrete_;
};


}  // namespace

Value tf::impl::saved_model_load(const TfCall& c) {
  if (!c["export_dir"].is_str()) throw TypeError("export_dir must be a string, got " + c["export_dir"].type_name());
  std::string dir = c["export_dir"].as_str();
  std::vector<std::string> tags;
  const Value& t = c["tags"];
  if (t.is_str()) {
    tags.push_back(t.as_str());
  } else if (t.is_list() || t.is_tuple() || t.is_set()) {
    for (const Value& x : iterate(t)) tags.push_back(str(x));
  }
  auto model = read_saved_model(dir);
  return Loader(dir, find_meta_graph(*model, tags)).load();
}

}  // namespace ag
