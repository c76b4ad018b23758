// tf.keras.layers.Layer; see layer.h for what it models.
#include "runtime/keras/layer.h"

#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "runtime/api/checkpoint.h"
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/graph/tracing.h"
#include "runtime/keras/call_context.h"
#include "runtime/keras/functional.h"
#include "runtime/keras/initializers.h"
#include "runtime/keras/masking.h"
#include "runtime/keras/regularizers.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/object_model.h"
#include "runtime/value/tensor_shape_value.h"
#include "runtime/value/variable_value.h"

namespace ag::keras {
namespace {

// ---- Attribute helpers: a layer's own state lives in "_agc_" attributes,
// which checkpoints and tf.Module's walk do not treat as children.

Value own_attr(const Value& self, std::string_view name, const Value& fallback = Value()) {
  for (const auto& [k, v] : self.as_object().attrs) {
    if (k == name) return v;
  }
  return fallback;
}

Value& list_attr(const Value& self, const std::string& name) {
  for (auto& [k, v] : self.as_object().attrs) {
    if (k == name) return v;
  }
  self.setattr(name, Value::list());
  return list_attr(self, name);
}

bool layer_trainable(const Value& layer) { return truthy(own_attr(layer, "_trainable", Value(true))); }

/// Keras's `for layer in self._flatten_layers(): layer._trainable = value`:
/// the layer and the layers nested in it, each once.
void set_trainable(const Value& layer, bool trainable) {
  std::set<const void*> seen;
  std::vector<Value> todo{layer};
  while (!todo.empty()) {
    Value l = std::move(todo.back());
    todo.pop_back();
    if (!seen.insert(&l.as_object()).second) continue;
    l.setattr("_trainable", Value(trainable));
    for (Value& sub : sublayers(l)) todo.push_back(std::move(sub));
  }
}

/// The thread's stack of Keras layer calls' training modes (Keras's CallContext).
std::vector<Value>& training_stack() {
  thread_local std::vector<Value> stack;
  return stack;
}

struct CallContext {
  explicit CallContext(Value training) { training_stack().push_back(std::move(training)); }
  ~CallContext() { training_stack().pop_back(); }
  CallContext(const CallContext&) = delete;
  CallContext& operator=(const CallContext&) = delete;
};

/// Values reachable from an attribute: into lists, tuples and dicts.
void walk(const Value& v, const std::function<void(const Value&)>& visit) {
  switch (v.kind()) {
    case Kind::List:
    case Kind::Tuple:
      for (const Value& item : v.items()) walk(item, visit);
      return;
    case Kind::Dict:
      for (const auto& [k, item] : v.as_dict().entries) walk(item, visit);
      return;
    default: visit(v);
  }
}

/// The layer's own variables: add_weight's, then those assigned as attributes.
std::vector<Value> own_variables(const Value& layer) {
  std::vector<Value> out = own_attr(layer, "_agc_weights").is_list() ? own_attr(layer, "_agc_weights").items()
                                                                      : std::vector<Value>{};
  std::set<const void*> seen;
  for (const Value& w : out) seen.insert(w.as_variable().get());
  for (const auto& [k, v] : layer.as_object().attrs) {
    if (k.rfind("_agc_", 0) == 0) continue;
    walk(v, [&](const Value& x) {
      if (x.is_variable() && seen.insert(x.as_variable().get()).second) out.push_back(x);
    });
  }
  return out;
}

void gather(const Value& layer, WeightKind kind, std::vector<Value>& out, std::set<const void*>& seen) {
  bool trainable = layer_trainable(layer);
  auto take = [&](const Value& w) {
    if (seen.insert(w.as_variable().get()).second) out.push_back(w);
  };
  if (kind == WeightKind::All) {
    gather(layer, WeightKind::Trainable, out, seen);
    gather(layer, WeightKind::NonTrainable, out, seen);
    return;
  }
  std::vector<Value> own = own_variables(layer);
  if (kind == WeightKind::Trainable) {
    if (!trainable) return;
    for (const Value& w : own) {
      if (truthy(w.getattr("trainable"))) take(w);
    }
    for (const Value& sub : sublayers(layer)) gather(sub, WeightKind::Trainable, out, seen);
    return;
  }
  // Non-trainable: a frozen layer's weights are all non-trainable.
  for (const Value& w : own) {
    if (!trainable || !truthy(w.getattr("trainable"))) take(w);
  }
  for (const Value& sub : sublayers(layer)) gather(sub, trainable ? WeightKind::NonTrainable : WeightKind::All, out, seen);
}

Value weights_property(WeightKind kind) {
  return make_property(Value::callable("weights", [kind](std::vector<Value> args, Kwargs) -> Value {
    return Value::list(layer_weights(args.at(0), kind));
  }));
}

Value layer_property(const char* name, std::function<Value(const Value&)> fn) {
  return make_property(Value::callable(name, [fn](std::vector<Value> args, Kwargs) -> Value { return fn(args.at(0)); }));
}

/// Keras's _convert_numpy_or_python_types, then autocast to float32.
Value convert_inputs(const Value& v) {
  switch (v.kind()) {
    case Kind::List:
    case Kind::Tuple: {
      std::vector<Value> items;
      for (const Value& x : v.items()) items.push_back(convert_inputs(x));
      return v.is_list() ? Value::list(std::move(items)) : Value::tuple(std::move(items));
    }
    case Kind::Tensor: {
      DType d = v.as_tensor().dtype();
      if (is_floating(d) && d != DType::Float32) return tf::cast(v, DType::Float32);
      return v;
    }
    case Kind::Variable: return v;
    default:
      if (v.is_ndarray() || v.is_float() || v.is_int()) return convert_inputs(Value(to_tensor(v)));
      return v;
  }
}

/// TensorShapes of `inputs`, with its nesting (Keras's tf_utils.get_shapes).
Value input_shapes(const Value& v) {
  switch (v.kind()) {
    case Kind::List:
    case Kind::Tuple: {
      std::vector<Value> items;
      for (const Value& x : v.items()) items.push_back(input_shapes(x));
      return v.is_list() ? Value::list(std::move(items)) : Value::tuple(std::move(items));
    }
    case Kind::Tensor: return tensor_shape(v.as_tensor().shape());
    case Kind::Variable: return tensor_shape(variable_value::read(v).shape());
    default: return Value();
  }
}

/// Where `name` sits among call()'s parameters (after self), or -1.
int param_index(const std::vector<Param>& params, std::string_view name) {
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

bool takes_var_keyword(const std::vector<Param>& params) {
  for (const Param& p : params) {
    if (p.kind == ParamKind::VarKeyword) return true;
  }
  return false;
}

/// Clears add_loss() values of `layer` and its sublayers (an outermost call starts afresh).
void clear_losses(const Value& layer) {
  if (own_attr(layer, "_agc_losses").is_list()) list_attr(layer, "_agc_losses") = Value::list();
  for (const Value& sub : sublayers(layer)) clear_losses(sub);
}

Value find_kwarg(Kwargs& kwargs, std::string_view name, bool remove) {
  for (auto it = kwargs.begin(); it != kwargs.end(); ++it) {
    if (it->first == name) {
      Value v = it->second;
      if (remove) kwargs.erase(it);
      return v;
    }
  }
  return Value();
}

bool has_kwarg(const Kwargs& kwargs, std::string_view name) {
  for (const auto& [k, v] : kwargs) {
    if (k == name) return true;
  }
  return false;
}

void set_kwarg(Kwargs& kwargs, const std::string& name, Value v) {
  for (auto& [k, x] : kwargs) {
    if (k == name) {
      x = std::move(v);
      return;
    }
  }
  kwargs.emplace_back(name, std::move(v));
}

std::vector<Value>& default_builds() {
  static std::vector<Value> fns;
  return fns;
}

/// Whether `self`'s class takes build() from Layer or Model (Keras's @default).
bool default_build(const Value& self) {
  for (const Value& cls : mro(self.as_object().cls)) {
    for (const auto& [k, v] : cls.as_object().attrs) {
      if (k != "build") continue;
      for (const Value& d : default_builds()) {
        if (v.is(d)) return true;
      }
      return false;
    }
  }
  return true;
}

/// Whether a mask (or a nesting of them) holds one that is not None.
bool any_mask(const Value& mask) {
  if (mask.is_list() || mask.is_tuple()) {
    for (const Value& m : mask.items()) {
      if (any_mask(m)) return true;
    }
    return false;
  }
  return !mask.is_none();
}

/// Layer.compute_mask(inputs, mask=None): the mask passed in when the layer
/// supports masking; None otherwise, a TypeError when a mask came.
Value base_compute_mask(const std::vector<Value>& a) {
  if (truthy(a[0].getattr("supports_masking"))) return a[2];
  if (any_mask(a[2])) {
    throw TypeError("Layer " + layer_name(a[0]) + " does not support masking, but was passed an input_mask: " +
                    str(a[2]));
  }
  return Value();
}

/// Layer.compute_mask as the base class defines it (Keras's @default one).
const Value& default_compute_mask() {
  static const Value fn = native_method("Layer.compute_mask", "compute_mask",
                                        {{"self", std::nullopt}, {"inputs", std::nullopt}, {"mask", Value()}},
                                        base_compute_mask)
                              .second;
  return fn;
}

/// Keras's Layer._supports_masking: the layer passes masks on, or its class
/// overrides compute_mask.
bool computes_masks(const Value& self) {
  if (truthy(self.getattr("supports_masking"))) return true;
  for (const Value& cls : mro(self.as_object().cls)) {
    for (const auto& [k, v] : cls.as_object().attrs) {
      if (k == "compute_mask") return !v.is(default_compute_mask());
    }
  }
  return false;
}

/// Layer.__call__(self, *args, **kwargs).
Value layer_call(std::vector<Value> args, Kwargs kwargs) {
  if (args.empty()) throw TypeError("Layer.__call__() missing 1 required positional argument: 'self'");
  Value self = args[0];
  args.erase(args.begin());
  Value call_fn = self.getattr("call");
  const std::vector<Param>* params = function_params(call_fn);
  std::vector<Param> no_params;
  const std::vector<Param>& ps = params != nullptr ? *params : no_params;
  // The first argument is `inputs`, positional or by call()'s first parameter's name.
  Value inputs;
  if (!args.empty()) {
    inputs = args[0];
    args.erase(args.begin());
  } else if (!ps.empty() && has_kwarg(kwargs, ps[0].name)) {
    inputs = find_kwarg(kwargs, ps[0].name, true);
  } else {
    throw ValueError("The first argument to `Layer.call` must always be passed.");
  }
  // Keras's _convert_numpy_or_python_types and autocast, which a layer may
  // turn off (TFOpLambda: the TF function converts its own arguments).
  if (truthy(own_attr(self, "_autocast", Value(true)))) inputs = convert_inputs(inputs);
  // A functional graph records the call as written, before `training` is
  // resolved; a KerasTensor anywhere among the arguments makes it one.
  bool symbolic = is_symbolic(inputs);
  for (const Value& a : args) symbolic = symbolic || is_symbolic(a);
  for (const auto& kv : kwargs) symbolic = symbolic || is_symbolic(kv.second);
  std::vector<Value> written_args = symbolic ? args : std::vector<Value>{};
  Kwargs written_kwargs = symbolic ? kwargs : Kwargs{};

  // training: Keras's rules (1) passed, (2) the enclosing call's, (4) call()'s default.
  int ti = param_index(ps, "training");
  // Keras's call spec: a call() taking `training` or **kwargs gets it, unless
  // the layer says otherwise (TFOpLambda's **kwargs are the function's).
  bool expects_training =
      (ti >= 0 || takes_var_keyword(ps)) && truthy(own_attr(self, "_expects_training_arg", Value(true)));
  // call(inputs, training): passed by position when enough positional arguments came.
  bool positional = ti >= 1 && args.size() >= static_cast<size_t>(ti);
  Value training = positional ? args[ti - 1] : find_kwarg(kwargs, "training", !expects_training);
  if (expects_training && training.is_none()) {
    training = current_training();
    if (training.is_none() && ti >= 0 && ps[ti].default_value) training = *ps[ti].default_value;
    // Keras's call_spec.set_arg_value: by position, else by keyword, into
    // **kwargs too (where None goes as well).
    if (positional) {
      args[ti - 1] = training;
    } else {
      set_kwarg(kwargs, "training", training);
    }
  } else if (!expects_training && training.is_none()) {
    training = current_training();
  }

  std::optional<SymbolicScope> symbolic_scope;
  // Keras builds a functional call under name_scope(layer.name): its ops'
  // names ("dense/BiasAdd:0") are what KerasTensors print.
  struct GraphScope {
    Graph* graph = nullptr;
    std::string saved;
    ~GraphScope() {
      if (graph != nullptr) graph->scope().name = saved;
    }
  } graph_scope;
  if (symbolic) {
    symbolic_scope.emplace();
    graph_scope.graph = current_graph();
    graph_scope.saved = graph_scope.graph->scope().name;
    graph_scope.graph->scope().name += layer_name(self) + "/";
  } else if (training_stack().empty()) {
    clear_losses(self);
  }
  CallContext context(training);
  // Keras's name scope: a layer's variables are named under the layers
  // calling it ("net/linear/w:0"); a symbolic call starts from the top, as
  // functional construction runs outside any layer.
  struct NameScope {
    explicit NameScope(std::string scope) : saved(eager_name_scope()) { set_eager_name_scope(std::move(scope)); }
    ~NameScope() { set_eager_name_scope(saved); }
    std::string saved;
  } name_scope((symbolic ? std::string() : eager_name_scope()) + layer_name(self) + "/");
  if (!truthy(own_attr(self, "built", Value(false)))) {
    // Keras calls build() only when the class overrides it (Layer's and
    // Model's own are marked default).
    if (!default_build(self)) {
      Value shapes = input_shapes(inputs);
      EagerScope init_scope;
      self.getattr("build")({shapes}, {});
    }
    self.setattr("built", true);
    checkpoint_restore_deferred();
  }
  // mask: passed, else the one Keras would find on the inputs (_keras_mask),
  // handed to a call() that takes it.
  int mi = param_index(ps, "mask");
  bool mask_positional = mi >= 1 && args.size() >= static_cast<size_t>(mi);
  bool mask_passed = mask_positional || has_kwarg(kwargs, "mask");
  Value mask = mask_positional ? args[mi - 1] : find_kwarg(kwargs, "mask", false);
  if (!mask_passed) {
    mask = implicit_mask(inputs);
    if (mi >= 0 && !mask.is_none()) set_kwarg(kwargs, "mask", mask);
  }
  std::vector<Value> call_args{inputs};
  for (Value& a : args) call_args.push_back(std::move(a));
  Value outputs = call_with_context(self, call_fn, std::move(call_args), std::move(kwargs));
  if (symbolic) outputs = record_call(self, inputs, written_args, written_kwargs, outputs);
  // Keras's _set_mask_metadata: only a layer that passes masks on or has a
  // compute_mask of its own gives its outputs one; another leaves them as
  // they are (a mask on its inputs is dropped, not an error).
  if (computes_masks(self)) set_implicit_mask(outputs, self.getattr("compute_mask")({inputs, mask}, {}));
  return outputs;
}

Value layer_init(const std::vector<Value>& a) {
  init_base(a[0], a[2], a[1], a[3], a[5]);
  return Value();
}

Value add_weight_method(const std::vector<Value>& a) {
  // add_weight(name=None, shape=None, dtype=None, initializer=None, regularizer=None, trainable=None, constraint=None, ...)
  const Value& self = a[0];
  WeightSpec spec;
  spec.name = a[1].is_none() ? "Variable" : str(a[1]);
  if (!a[2].is_none()) {
    for (const Value& d : iterate(a[2])) spec.shape.push_back(d.as_int());
  }
  spec.dtype = a[3].is_none() ? DType::Float32 : require_dtype(a[3]);
  if (!a[4].is_none()) {
    spec.initializer = a[4];
  } else if (is_floating(spec.dtype)) {
    spec.initializer = Value("glorot_uniform");
  } else if (spec.dtype == DType::Bool || is_integer(spec.dtype)) {
    spec.initializer = Value("zeros");
  } else {
    throw ValueError("An initializer for variable " + spec.name + " of type " + dtype_name(spec.dtype) +
                     " is required for layer " + layer_name(self) + ". Received: None.");
  }
  spec.regularizer = a[5];
  spec.trainable = a[6].is_none() ? true : truthy(a[6]);
  return add_weight(self, spec);
}

Value count_params(const Value& self) {
  if (!truthy(own_attr(self, "built", Value(false)))) {
    std::string n = layer_name(self);
    throw ValueError("You tried to call `count_params` on layer " + n +
                     ", but the layer isn't built. You can build it manually via: `" + n +
                     ".build(batch_input_shape)`.");
  }
  int64_t total = 0;
  for (const Value& w : layer_weights(self, WeightKind::All)) total += variable_value::read(w).shape().num_elements();
  return Value(static_cast<long long>(total));
}

Value layer_losses(const Value& self) {
  std::vector<Value> out;
  std::function<void(const Value&)> collect = [&](const Value& layer) {
    if (own_attr(layer, "_agc_losses").is_list()) {
      for (const Value& l : own_attr(layer, "_agc_losses").items()) out.push_back(l);
    }
    if (own_attr(layer, "_agc_regularizers").is_list()) {
      for (const Value& pair : own_attr(layer, "_agc_regularizers").items()) {
        out.push_back(pair.items()[0]({pair.items()[1]}, {}));
      }
    }
    for (const Value& sub : sublayers(layer)) collect(sub);
  };
  collect(self);
  return Value::list(std::move(out));
}

Value base_config(const Value& self) {
  return Value::dict({{Value("name"), Value(layer_name(self))},
                      {Value("trainable"), Value(layer_trainable(self))},
                      {Value("dtype"), Value("float32")}});
}

Value make_base_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method("Layer.__init__", "__init__",
                                {{"self", std::nullopt},
                                 {"trainable", Value(true)},
                                 {"name", Value()},
                                 {"dtype", Value()},
                                 {"dynamic", Value(false)},
                                 {"kwargs", std::nullopt, ParamKind::VarKeyword}},
                                layer_init));
  attrs.push_back({"__call__", Value::callable("__call__", layer_call)});
  attrs.push_back({"build", mark_default_build(make_function("Layer.build",
                                                             {{"self", std::nullopt}, {"input_shape", std::nullopt}},
                                                             [](const std::vector<Value>& a) -> Value {
                                                               a[0].setattr("built", true);
                                                               return Value();
                                                             }))});
  attrs.push_back({"call", make_function("Layer.call",
                                         {{"self", std::nullopt},
                                          {"inputs", std::nullopt},
                                          {"args", std::nullopt, ParamKind::VarPositional},
                                          {"kwargs", std::nullopt, ParamKind::VarKeyword}},
                                         [](const std::vector<Value>& a) -> Value { return a[1]; })});
  attrs.push_back({"compute_mask", default_compute_mask()});
  // Keras's default; a layer that passes masks on sets its own.
  attrs.push_back({"supports_masking", Value(false)});
  attrs.push_back(native_method("Layer.add_weight", "add_weight",
                                {{"self", std::nullopt},
                                 {"name", Value()},
                                 {"shape", Value()},
                                 {"dtype", Value()},
                                 {"initializer", Value()},
                                 {"regularizer", Value()},
                                 {"trainable", Value()},
                                 {"constraint", Value()},
                                 {"kwargs", std::nullopt, ParamKind::VarKeyword}},
                                add_weight_method));
  attrs.push_back(native_method("Layer.add_loss", "add_loss",
                                {{"self", std::nullopt}, {"losses", std::nullopt}, {"kwargs", std::nullopt, ParamKind::VarKeyword}},
                                [](const std::vector<Value>& a) -> Value {
                                  Value loss = a[1].is_callable() ? a[1]({}, {}) : a[1];
                                  list_attr(a[0], "_agc_losses").items().push_back(Value(to_tensor(loss, DType::Float32)));
                                  return Value();
                                }));
  attrs.push_back(native_method("Layer.count_params", "count_params", {{"self", std::nullopt}},
                                [](const std::vector<Value>& a) { return count_params(a[0]); }));
  attrs.push_back(native_method("Layer.get_config", "get_config", {{"self", std::nullopt}},
                                [](const std::vector<Value>& a) -> Value {
                                  Value config = base_config(a[0]);
                                  for (const Value& key : iterate(own_attr(a[0], "_agc_config", Value::list()))) {
                                    config.as_dict().set(key, a[0].getattr(key.as_str()));
                                  }
                                  return config;
                                }));
  attrs.push_back(native_method("Layer.get_weights", "get_weights", {{"self", std::nullopt}},
                                [](const std::vector<Value>& a) -> Value {
                                  std::vector<Value> out;
                                  for (const Value& w : iterate(a[0].getattr("weights"))) out.push_back(w.getattr("numpy")({}, {}));
                                  return Value::list(std::move(out));
                                }));
  attrs.push_back(native_method("Layer.set_weights", "set_weights", {{"self", std::nullopt}, {"weights", std::nullopt}},
                                [](const std::vector<Value>& a) -> Value {
                                  std::vector<Value> ws = iterate(a[0].getattr("weights"));
                                  std::vector<Value> values = iterate(a[1]);
                                  if (values.size() != ws.size()) {
                                    throw ValueError("You called `set_weights(weights)` on layer \"" + layer_name(a[0]) +
                                                     "\" with a weight list of length " + std::to_string(values.size()) +
                                                     ", but the layer was expecting " + std::to_string(ws.size()) +
                                                     " weights. Provided weights: " + str(a[1]));
                                  }
                                  for (size_t i = 0; i < ws.size(); ++i) {
                                    Shape want = variable_value::read(ws[i]).shape();
                                    TensorHandle v = to_tensor(values[i], variable_value::read(ws[i]).dtype());
                                    if (v.shape() != want) {
                                      throw ValueError("Layer " + layer_name(a[0]) + " weight shape " + want.str() +
                                                       " is not compatible with provided weight shape " + v.shape().str() + ".");
                                    }
                                    variable_value::assign(ws[i], Value(v), variable_value::AssignOp::Assign);
                                  }
                                  return Value();
                                }));
  // Keras's trainable setter: the layer and every layer nested in it take
  // the flag (a frozen model's BatchNormalization then runs in inference mode).
  attrs.push_back({"trainable",
                   make_property(Value::callable("trainable", [](std::vector<Value> args, Kwargs) -> Value {
                                   return Value(layer_trainable(args.at(0)));
                                 }),
                                 Value::callable("trainable", [](std::vector<Value> args, Kwargs) -> Value {
                                   set_trainable(args.at(0), truthy(args.at(1)));
                                   return Value();
                                 }))});
  attrs.push_back({"name", layer_property("name", [](const Value& self) { return Value(layer_name(self)); })});
  attrs.push_back({"dtype", layer_property("dtype", [](const Value&) { return Value("float32"); })});
  attrs.push_back({"losses", layer_property("losses", layer_losses)});
  attrs.push_back({"weights", weights_property(WeightKind::All)});
  attrs.push_back({"variables", weights_property(WeightKind::All)});
  attrs.push_back({"trainable_weights", weights_property(WeightKind::Trainable)});
  attrs.push_back({"trainable_variables", weights_property(WeightKind::Trainable)});
  attrs.push_back({"non_trainable_weights", weights_property(WeightKind::NonTrainable)});
  attrs.push_back({"non_trainable_variables", weights_property(WeightKind::NonTrainable)});
  return make_class("Layer", {tf::api::Module()}, std::move(attrs));
}

}  // namespace

Value mark_default_build(Value fn) {
  default_builds().push_back(fn);
  return fn;
}

const Value& layer_class() {
  static const Value cls = make_base_class();
  return cls;
}

bool is_layer(const Value& v) { return v.is_object() && is_instance(v, layer_class()); }

std::string snake_case(const std::string& name) {
  auto upper = [](char c) { return c >= 'A' && c <= 'Z'; };
  auto lower = [](char c) { return c >= 'a' && c <= 'z'; };
  // re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
  std::string a;
  for (size_t i = 0; i < name.size(); ++i) {
    if (i > 0 && upper(name[i]) && i + 1 < name.size() && lower(name[i + 1])) a += '_';
    a += name[i];
  }
  // re.sub("([a-z])([A-Z])", r"\1_\2", ...).lower()
  std::string out;
  for (size_t i = 0; i < a.size(); ++i) {
    if (i > 0 && upper(a[i]) && lower(a[i - 1])) out += '_';
    out += static_cast<char>(upper(a[i]) ? a[i] - 'A' + 'a' : a[i]);
  }
  return out;
}

namespace {
std::mutex uid_mu;
std::map<std::string, int>& uid_counts() {
  static std::map<std::string, int>* counts = new std::map<std::string, int>();  // never destroyed
  return *counts;
}
}  // namespace

std::string unique_name(const std::string& base) {
  std::lock_guard<std::mutex> lock(uid_mu);
  int n = uid_counts()[base]++;
  return n == 0 ? base : base + "_" + std::to_string(n);
}

int keras_uid(const std::string& prefix) {
  std::lock_guard<std::mutex> lock(uid_mu);
  return ++uid_counts()[prefix];
}

std::string layer_name(const Value& layer) {
  Value n = own_attr(layer, "_name");
  if (n.is_str()) return n.as_str();
  // A subclass whose __init__ did not call super().__init__() yet.
  std::string name = unique_name(snake_case(layer.type_name()));
  layer.setattr("_name", Value(name));
  return name;
}

std::vector<Param> with_kernel_bias_params(std::vector<Param> own) {
  own.insert(own.end(), {{"kernel_initializer", Value("glorot_uniform")},
                         {"bias_initializer", Value("zeros")},
                         {"kernel_regularizer", Value()},
                         {"bias_regularizer", Value()},
                         {"activity_regularizer", Value()},
                         {"kernel_constraint", Value()},
                         {"bias_constraint", Value()},
                         {"name", Value()},
                         {"trainable", Value(true)},
                         {"dtype", Value()}});
  return own;
}

void init_base(const Value& self, const Value& name, const Value& trainable, const Value& dtype, const Value& kwargs) {
  static const std::set<std::string> allowed = {"input_dim", "input_shape", "batch_input_shape", "batch_size", "weights",
                                                "activity_regularizer", "autocast", "implementation"};
  Value input_shape, batch_size, batch_input_shape;
  if (kwargs.is_dict()) {
    for (const auto& [k, v] : kwargs.as_dict().entries) {
      std::string key = k.as_str();
      if (!allowed.count(key)) throw TypeError("('Keyword argument not understood:', '" + key + "')");
      if (key == "input_shape") input_shape = v;
      if (key == "input_dim" && input_shape.is_none()) input_shape = Value::tuple({v});
      if (key == "batch_size") batch_size = v;
      if (key == "batch_input_shape") batch_input_shape = v;
    }
  }
  if (!name.is_none() && !name.is_str()) throw TypeError("Expected `name` argument to be a string, but got: " + str(name));
  if (!dtype.is_none() && require_dtype(dtype) != DType::Float32) {
    throw UnimplementedError("agc: Keras layers compute in float32 only; got dtype=" + str(dtype));
  }
  self.setattr("_name", name.is_none() ? Value(unique_name(snake_case(self.type_name()))) : name);
  self.setattr("trainable", Value(truthy(trainable)));
  self.setattr("built", false);
  self.setattr("_agc_weights", Value::list());
  if (!batch_input_shape.is_none()) {
    self.setattr("_batch_input_shape", Value::tuple(iterate(batch_input_shape)));
  } else if (!input_shape.is_none()) {
    std::vector<Value> dims{batch_size};
    for (const Value& d : iterate(input_shape)) dims.push_back(d);
    self.setattr("_batch_input_shape", Value::tuple(std::move(dims)));
  }
}

Value add_weight(const Value& self, const WeightSpec& spec) {
  Tensor init = initial_value(spec.initializer, spec.shape, spec.dtype);
  // Under the layer's name scope when built by a call; named after the layer otherwise.
  std::string prefix = eager_name_scope().empty() ? layer_name(self) + "/" : "";
  Value var = variable_value::create(Value(init), spec.dtype, Value(prefix + spec.name), Value(), spec.trainable);
  list_attr(self, "_agc_weights").items().push_back(var);
  if (!spec.regularizer.is_none()) {
    Value reg = get_regularizer(spec.regularizer);
    list_attr(self, "_agc_regularizers").items().push_back(Value::tuple({reg, var}));
  }
  return var;
}

std::vector<Value> layer_weights(const Value& layer, WeightKind kind) {
  std::vector<Value> out;
  std::set<const void*> seen;
  gather(layer, kind, out, seen);
  return out;
}

std::vector<Value> model_weights(const Value& model) {
  std::vector<Value> out;
  std::set<const void*> seen;
  auto take = [&](const Value& w) {
    if (seen.insert(w.as_variable().get()).second) out.push_back(w);
  };
  for (const Value& sub : sublayers(model)) {
    for (const Value& w : iterate(sub.getattr("weights"))) take(w);
  }
  std::vector<Value> own = own_variables(model);
  for (const Value& w : own) {
    if (truthy(w.getattr("trainable"))) take(w);
  }
  for (const Value& w : own) take(w);
  return out;
}

std::vector<Value> own_weights(const Value& layer) {
  std::vector<Value> own = own_variables(layer);
  std::vector<Value> out;
  for (const Value& w : own) {
    if (truthy(w.getattr("trainable"))) out.push_back(w);
  }
  for (const Value& w : own) {
    if (!truthy(w.getattr("trainable"))) out.push_back(w);
  }
  return out;
}

std::vector<Value> sublayers(const Value& layer) {
  std::vector<Value> out;
  std::set<const void*> seen{&layer.as_object()};
  for (const auto& [k, v] : layer.as_object().attrs) {
    if (k.rfind("_agc_", 0) == 0 && k != "_agc_layers") continue;
    walk(v, [&](const Value& x) {
      if (is_layer(x) && seen.insert(&x.as_object()).second) out.push_back(x);
    });
  }
  return out;
}

Value current_training() { return training_stack().empty() ? Value() : training_stack().back(); }

Value make_layer_class(LayerDef def) {
  std::vector<std::pair<std::string, Value>> attrs;
  // Marks the class as agc's own, not a program's subclass (Keras's
  // layer_utils.is_builtin_layer; TimeDistributed reshapes for these).
  attrs.push_back({"_agc_builtin_layer", Value(true)});
  // A class without an init of its own (a subclass of another native
  // layer) takes its base's constructor.
  if (def.init) {
    std::vector<Param> init_params{{"self", std::nullopt}};
    for (const Param& p : def.init_params) init_params.push_back(p);
    init_params.push_back({"kwargs", std::nullopt, ParamKind::VarKeyword});
    auto init = def.init;
    std::vector<std::string> config = def.config;
    attrs.push_back(native_method(def.name + ".__init__", "__init__", init_params,
                                  [init, config](const std::vector<Value>& a) -> Value {
                                    init(a[0], a);
                                    std::vector<Value> keys;
                                    for (const std::string& k : config) keys.emplace_back(k);
                                    a[0].setattr("_agc_config", Value::list(std::move(keys)));
                                    return Value();
                                  }));
  }
  if (def.build) {
    auto build = def.build;
    attrs.push_back({"build", make_function(def.name + ".build", {{"self", std::nullopt}, {"input_shape", std::nullopt}},
                                            [build](const std::vector<Value>& a) -> Value {
                                              build(a[0], a[1]);
                                              a[0].setattr("built", true);
                                              return Value();
                                            })});
  }
  if (def.call) {
    std::vector<Param> call_params{{"self", std::nullopt}, {def.inputs_param, std::nullopt}};
    for (const Param& p : def.call_params) call_params.push_back(p);
    attrs.push_back({"call", make_function(def.name + ".call", call_params, def.call)});
  }
  if (def.compute_mask) {
    attrs.push_back(native_method(def.name + ".compute_mask", "compute_mask",
                                  {{"self", std::nullopt}, {"inputs", std::nullopt}, {"mask", Value()}},
                                  def.compute_mask));
  }
  for (auto& m : def.methods) attrs.push_back(std::move(m));
  return make_class(def.name, {def.base.is_none() ? layer_class() : def.base}, std::move(attrs));
}

double host_scalar(const Value& v) {
  if (v.is_number()) return v.as_float();
  Value f = tf::cast(v.is_tensor() ? v : Value(to_tensor(v)), DType::Float64);
  return f.as_tensor().value().scalar_value<double>();
}

int64_t shape_dim(const Value& input_shape, int axis) {
  if (input_shape.is_none()) return -1;
  std::vector<Value> dims = iterate(input_shape);
  int a = axis < 0 ? axis + static_cast<int>(dims.size()) : axis;
  if (a < 0 || a >= static_cast<int>(dims.size()) || dims[a].is_none()) return -1;
  return dims[a].as_int();
}

}  // namespace ag::keras

namespace ag::tf::api {

const Value& keras_layers_Layer() { return keras::layer_class(); }

}  // namespace ag::tf::api
