// tf.keras.Model and tf.keras.Sequential; see model.h.
#include "runtime/keras/model.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>

#include "runtime/api/checkpoint.h"
#include "runtime/api/python_api.h"
#include "runtime/core/hdf5_file.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/tracing.h"
#include "runtime/keras/functional.h"
#include "runtime/keras/layer.h"
#include "runtime/keras/model_state.h"
#include "runtime/keras/weights_h5.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/object_model.h"

namespace ag::keras {

ModelState& model_state(const Value& model) {
  ObjectObj& o = model.as_object();
  if (auto* s = dynamic_cast<ModelState*>(o.native.get())) return *s;
  auto s = std::make_shared<ModelState>();
  o.native = s;
  return *s;
}

namespace {

Value model_property(const char* name, std::function<Value(const Value&)> fn) {
  return make_property(Value::callable(name, [fn](std::vector<Value> args, Kwargs) -> Value { return fn(args.at(0)); }));
}

/// Model(inputs, outputs, name=None, trainable=True): a functional model.
void init_functional(const Value& self, const Value& inputs, const Value& outputs, const Value& name,
                     const Value& trainable) {
  init_base(self, name.is_none() ? Value(unique_name("model")) : name, trainable, Value(), Value::dict());
  ModelState& state = model_state(self);
  state.graph = trace_graph(inputs, outputs);
  std::vector<Value> layers = graph_layers(*state.graph);
  self.setattr("_agc_layers", Value::list(layers));
  auto as_list = [](const Value& v) { return v.is_list() || v.is_tuple() ? Value::list(v.items()) : Value::list({v}); };
  self.setattr("inputs", as_list(inputs));
  self.setattr("outputs", as_list(outputs));
  self.setattr("built", true);
}

Value model_init(std::vector<Value> args, Kwargs kwargs) {
  Value self = args.at(0);
  Value inputs, outputs, name, trainable(true);
  Kwargs rest;
  for (auto& [k, v] : kwargs) {
    if (k == "inputs") inputs = v;
    else if (k == "outputs") outputs = v;
    else if (k == "name") name = v;
    else if (k == "trainable") trainable = v;
    else rest.emplace_back(k, v);
  }
  if (args.size() > 1) inputs = args[1];
  if (args.size() > 2) outputs = args[2];
  if (args.size() > 3) {
    throw TypeError("Model.__init__() takes from 1 to 3 positional arguments but " + std::to_string(args.size()) +
                    " were given");
  }
  if (!inputs.is_none() || !outputs.is_none()) {
    if (inputs.is_none() || outputs.is_none()) {
      throw ValueError("If `inputs` is passed, `outputs` must be passed too (and the other way around).");
    }
    init_functional(self, inputs, outputs, name, trainable);
    return Value();
  }
  // A subclassed model: Layer's keywords (dtype, dynamic, autocast) and no others.
  Value dtype;
  std::vector<std::pair<Value, Value>> extra;
  for (auto& [k, v] : rest) {
    if (k == "dtype") dtype = v;
    else if (k == "dynamic" || k == "autocast") continue;
    else throw TypeError("('Keyword argument not understood:', '" + k + "')");
  }
  init_base(self, name.is_none() ? Value(unique_name(snake_case(self.type_name()))) : name, trainable, dtype,
            Value::dict());
  model_state(self);
  return Value();
}

Value model_call(const std::vector<Value>& a) {
  const Value& self = a[0];
  auto graph = model_graph(self);
  if (graph == nullptr) {
    throw NotImplementedError("Unimplemented `tf.keras.Model.call()`: if you intend to create a `Model` with the "
                              "Functional API, please provide `inputs` and `outputs` arguments. Otherwise, subclass "
                              "`Model` with an overridden `call()` method.");
  }
  return run_graph(*graph, a[1]);
}

/// Model.build(input_shape) for a subclassed model: call() on a placeholder of
/// that shape, in the Keras graph, so every layer builds (Keras's own build).
Value model_build(const std::vector<Value>& a) {
  const Value& self = a[0];
  if (model_graph(self) != nullptr || a[1].is_none()) {
    if (a[1].is_none() && model_graph(self) == nullptr) {
      throw ValueError("You must provide an `input_shape` argument.");
    }
    self.setattr("built", true);
    return Value();
  }
  Shape shape = shape_from_value(a[1]);
  SymbolicScope scope;
  Output x = current_graph()->placeholder(TensorSpec{DType::Float32, shape}, "input");
  self.getattr("call")({Value(TensorHandle(x))}, {});
  self.setattr("built", true);
  return Value();
}

Value get_layer(const std::vector<Value>& a) {
  std::vector<Value> layers = model_layers(a[0]);
  if (!a[2].is_none()) {
    if (!a[1].is_none()) throw ValueError("Provide only a layer name or a layer index. Received: index=" + str(a[2]) + ", name=" + str(a[1]) + ".");
    int64_t i = a[2].as_int();
    if (i < 0 || i >= static_cast<int64_t>(layers.size())) {
      throw ValueError("Was asked to retrieve layer at index " + std::to_string(i) + " but model only has " +
                       std::to_string(layers.size()) + " layers.");
    }
    return layers[i];
  }
  if (!a[1].is_none()) {
    for (const Value& l : layers) {
      if (layer_name(l) == str(a[1])) return l;
    }
    throw ValueError("No such layer: " + str(a[1]) + ". Existing layers are: " + str(Value::list(layers)) + ".");
  }
  throw ValueError("Provide either a layer name or layer index at `get_layer`.");
}

/// The layers Keras tracks as "layer-N" (Functional's
/// _layer_checkpoint_dependencies, over `self.layers`): a functional graph's,
/// InputLayers included; a Sequential's added ones, without the InputLayer
/// (Sequential.layers leaves it out, with or without a graph); none for a
/// subclassed model.
std::vector<Value> tracked_layers(const Value& model) {
  if (is_instance(model, sequential_class()) || model_graph(model)) return model_layers(model);
  return {};
}

/// Model._trackable_children (TF's Trackable protocol, read by checkpoints):
/// Keras's "layer_with_weights-N" and "layer-N" per layer in that order (its
/// _track_layers), then the attributes (the optimizer, a subclass's layers),
/// so checkpoint keys read "layer_with_weights-0/kernel/..." as TF's do.
Value trackable_children(const std::vector<Value>& a) {
  const Value& self = a[0];
  Value out = Value::dict();
  int with_weights = 0;
  std::vector<Value> layers = tracked_layers(self);
  for (size_t i = 0; i < layers.size(); ++i) {
    if (!layer_weights(layers[i], WeightKind::All).empty()) {
      out.as_dict().set(Value("layer_with_weights-" + std::to_string(with_weights++)), layers[i]);
    }
    out.as_dict().set(Value("layer-" + std::to_string(i)), layers[i]);
  }
  for (const auto& [k, v] : self.as_object().attrs) {
    if (k.rfind("_agc_", 0) != 0) out.as_dict().set(Value(k), v);
  }
  return out;
}

bool path_ends_with(const std::string& path, const char* suffix) {
  std::string t = suffix;
  return path.size() >= t.size() && path.compare(path.size() - t.size(), t.size(), t) == 0;
}

/// saving_utils.is_hdf5_filepath.
bool h5_path(const std::string& path) {
  return path_ends_with(path, ".h5") || path_ends_with(path, ".keras") || path_ends_with(path, ".hdf5");
}

/// zipfile.is_zipfile, for the `.keras` archives Keras 3's format makes:
/// the local file header's signature, or an empty archive's end record.
bool zip_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char head[4] = {};
  if (!in.read(head, 4)) return false;
  return head[0] == 'P' && head[1] == 'K' && ((head[2] == 3 && head[3] == 4) || (head[2] == 5 && head[3] == 6));
}

/// True when the class of `obj` defines `name` itself (`name in type(obj).__dict__`).
bool class_defines(const Value& obj, const std::string& name) {
  const Value& cls = obj.as_object().cls;
  if (!cls.is_object()) return false;
  for (const auto& [k, v] : cls.as_object().attrs) {
    if (k == name) return true;
  }
  return false;
}

/// Model._assert_weights_created: a model whose class has its own build()
/// (a Sequential, a subclass defining build) must have built.
void assert_weights_created(const Value& model) {
  if (class_defines(model, "build") && !model.as_object().cls.is(model_class()) && !truthy(model.getattr("built"))) {
    throw ValueError("Weights for model '" + layer_name(model) +
                     "' have not yet been created. Weights are created when the model is first called on inputs or "
                     "`build()` is called with an `input_shape`.");
  }
}

/// save_weights(filepath, overwrite=True, save_format=None, options=None),
/// Keras's saving_api.save_weights: a `.weights.h5` path in saving_lib's
/// layout (save_format unused); otherwise its legacy save_weights: HDF5
/// for an .h5/.hdf5/.keras path or save_format "h5"/"hdf5"/"keras", else
/// TF's checkpoint format rooted at the model and the directory's
/// "checkpoint" state file, as Keras writes them.
Value save_weights(const std::vector<Value>& a) {
  const Value& model = a[0];
  std::string path = str(a[1]);
  if (path_ends_with(path, ".weights.h5")) {
    save_weights_v3(model, path);
    return Value();
  }
  assert_weights_created(model);
  bool is_h5 = h5_path(path);
  std::string format;
  if (a[3].is_none()) {
    format = is_h5 ? "h5" : "tf";
  } else {
    std::string user = str(a[3]);
    std::string lowered;
    for (char c : user) lowered += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    size_t b = lowered.find_first_not_of(" \t\n\r\f\v"), e = lowered.find_last_not_of(" \t\n\r\f\v");
    lowered = b == std::string::npos ? "" : lowered.substr(b, e - b + 1);
    if (lowered == "tensorflow" || lowered == "tf") format = "tf";
    else if (lowered == "hdf5" || lowered == "h5" || lowered == "keras") format = "h5";
    else throw ValueError("Unknown format. Received: `save_format`=" + user + ". Was expecting one of {\"tf\", \"h5\"}.");
  }
  if (format == "tf" && is_h5) {
    throw ValueError("save_weights got save_format=\"tf\"/\"tensorflow\", but the filepath (" + path +
                     ") looks like an HDF5 file. Omit the \".h5\"/\".keras\" when saving in TensorFlow format.");
  }
  if (format == "h5") {
    save_weights_legacy_h5(model, path);
    return Value();
  }
  checkpoint_write(model, path);
  CheckpointStateFile state;
  state.model_checkpoint_path = path;
  state.all_model_checkpoint_paths = {path};
  write_checkpoint_state(std::filesystem::path(path).parent_path().string(), state);
  return Value();
}

/// load_weights(filepath, skip_mismatch=False, by_name=False, options=None),
/// Keras's saving_api.load_weights: a `.weights.h5` file in saving_lib's
/// layout; otherwise the legacy load_weights: an HDF5 file (by its
/// extension, or an existing file that is one) by layer order or name,
/// returning None; else a TF-format checkpoint (weights not built yet are
/// assigned when they are, restore-on-create) and its load status, checked
/// for a non-trivial match.
Value load_weights(const std::vector<Value>& a) {
  const Value& model = a[0];
  std::string path = str(a[1]);
  bool skip_mismatch = truthy(a[2]);
  bool by_name = truthy(a[3]);
  if (path_ends_with(path, ".keras") && zip_file(path)) {
    throw UnimplementedError("agc: loading weights from a .keras archive (Keras 3's model format) is not supported yet");
  }
  if (path_ends_with(path, ".weights.h5")) {
    load_weights_v3(model, path, skip_mismatch);
    return Value();
  }
  if (skip_mismatch && !by_name) {
    throw ValueError("When calling model.load_weights, skip_mismatch can only be set to True when by_name is True.");
  }
  // _detect_save_format: an HDF5 extension, else a TF checkpoint, else (a
  // file that is no checkpoint) HDF5.
  std::error_code ec;
  bool is_h5 = h5_path(path) || (std::filesystem::is_regular_file(path, ec) && Hdf5File::is_hdf5(path));
  if (!is_h5) {
    Value status = checkpoint_read(model, path);
    if (by_name) {
      throw NotImplementedError("Weights may only be loaded based on topology into Models when loading TensorFlow-"
                                "formatted weights (got by_name=True to load_weights).");
    }
    status.getattr("assert_nontrivial_match")({}, {});
    return status;
  }
  if (model_graph(model) == nullptr && !truthy(model.getattr("built"))) {
    throw ValueError("Unable to load weights saved in HDF5 format into a subclassed Model which has not created its "
                     "variables yet. Call the Model first, then load the weights.");
  }
  assert_weights_created(model);
  load_weights_legacy_h5(model, path, by_name, skip_mismatch);
  return Value();
}

/// Model.save(filepath, overwrite=True, save_format=None, ...): a SavedModel
/// (TF format) whose serving_default calls the model with training=False on
/// its inputs' specs and names the outputs by their layers, as Keras's does.
Value model_save(const std::vector<Value>& a) {
  const Value& self = a[0];
  std::string path = str(a[1]);
  std::string format = a[3].is_none() ? (h5_path(path) ? "h5" : "tf") : str(a[3]);
  if (format != "tf") throw UnimplementedError("agc: model.save in the " + format + " format is not supported yet; use a SavedModel directory");
  auto graph = model_graph(self);
  if (graph == nullptr) {
    // Keras traces a subclassed model's call from the shapes it was called
    // with; agc needs the inputs' specs to write a signature.
    return tf::api::saved_model_save({self, Value(path)}, {});
  }
  std::vector<Value> specs;
  std::vector<Value> inputs = iterate(self.getattr("inputs"));
  for (const Value& t : inputs) {
    const TensorHandle& h = t.as_tensor();
    std::vector<Value> dims;
    for (int i = 0; i < h.shape().rank(); ++i) dims.push_back(h.shape().dim(i) < 0 ? Value() : Value(h.shape().dim(i)));
    specs.push_back(tf::api::TensorSpec()({Value::tuple(std::move(dims)), dtype_value(h.dtype())},
                                          {{"name", Value(producing_layer(t))}}));
  }
  std::vector<Value> out_names;
  for (const Value& t : iterate(self.getattr("outputs"))) {
    out_names.emplace_back(producing_layer(t));
  }
  Value model = self;
  std::vector<Param> params;
  for (const Value& t : inputs) params.push_back({producing_layer(t), std::nullopt});
  Value serve = make_function("serving_default", params, [model, out_names](const std::vector<Value>& args) -> Value {
    Value in = args.size() == 1 ? args[0] : Value::list(args);
    Value out = model({in}, {{"training", Value(false)}});
    std::vector<Value> outs = out.is_list() || out.is_tuple() ? out.items() : std::vector<Value>{out};
    Value named = Value::dict();
    for (size_t i = 0; i < outs.size() && i < out_names.size(); ++i) named.as_dict().set(out_names[i], outs[i]);
    return named;
  });
  Value fn = tf::api::function({serve}, {{"input_signature", Value::list(std::move(specs))}});
  Value concrete = fn.getattr("get_concrete_function")({}, {});
  return tf::api::saved_model_save({self, Value(path)}, {{"signatures", concrete}});
}

Value make_model_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back({"__init__", Value::callable("__init__", model_init)});
  attrs.push_back({"call", make_function("Model.call",
                                         {{"self", std::nullopt}, {"inputs", std::nullopt}, {"training", Value()},
                                          {"mask", Value()}},
                                         model_call)});
  attrs.push_back({"build", mark_default_build(make_function("Model.build", {{"self", std::nullopt}, {"input_shape", Value()}},
                                                             model_build))});
  attrs.push_back(native_method("Model.get_layer", "get_layer",
                                {{"self", std::nullopt}, {"name", Value()}, {"index", Value()}}, get_layer));
  attrs.push_back({"layers", model_property("layers", [](const Value& self) { return Value::list(model_layers(self)); })});
  attrs.push_back({"summary", summary_method()});
  attrs.push_back(native_method("Model._trackable_children", "_trackable_children", {{"self", std::nullopt}},
                                trackable_children));
  attrs.push_back(native_method("Model.save_weights", "save_weights",
                                {{"self", std::nullopt}, {"filepath", std::nullopt}, {"overwrite", Value(true)},
                                 {"save_format", Value()}, {"options", Value()}},
                                save_weights));
  attrs.push_back(native_method("Model.save", "save",
                                {{"self", std::nullopt}, {"filepath", std::nullopt}, {"overwrite", Value(true)},
                                 {"save_format", Value()}, {"kwargs", std::nullopt, ParamKind::VarKeyword}},
                                model_save));
  attrs.push_back(native_method("Model.load_weights", "load_weights",
                                {{"self", std::nullopt}, {"filepath", std::nullopt}, {"skip_mismatch", Value(false)},
                                 {"by_name", Value(false)}, {"options", Value()}},
                                load_weights));
  // Keras orders a model's weights layer by layer (a BatchNormalization's
  // moving statistics before the next layer's kernel), unlike a layer's.
  attrs.push_back({"weights", model_property("weights", [](const Value& self) { return Value::list(model_weights(self)); })});
  attrs.push_back({"variables", model_property("variables", [](const Value& self) { return Value::list(model_weights(self)); })});
  for (auto& m : training_methods()) attrs.push_back(std::move(m));
  return make_class("Model", {layer_class()}, std::move(attrs));
}

// ---- Sequential.

/// Calls the layers on an Input of `batch_shape` in the Keras graph (Keras's
/// _build_graph_network_for_inferred_shape / the graph an Input starts).
void build_sequential_graph(const Value& self, const Value& input) {
  ModelState& state = model_state(self);
  Value x = input;
  for (const Value& layer : iterate(self.getattr("_agc_layers"))) x = layer({x}, {});
  state.graph = trace_graph(input, x);
  state.sequential_input = input;
  self.setattr("inputs", Value::list({input}));
  self.setattr("outputs", Value::list({x}));
  self.setattr("built", true);
}

/// The Input a Sequential makes for itself: named after its first layer
/// ("dense_input"), as Keras names it.
Value input_for(const Value& self, const Value& batch_shape) {
  std::vector<Value> dims = iterate(batch_shape);
  Value batch = dims.empty() ? Value() : dims[0];
  std::vector<Value> rest(dims.begin() + (dims.empty() ? 0 : 1), dims.end());
  Value first = iterate(self.getattr("_agc_layers")).at(0);
  return make_input(Value::tuple(std::move(rest)), batch, Value(layer_name(first) + "_input"), Value());
}

/// The graph on an Input of `batch_shape` inferred from a call or given to
/// build(); when a layer cannot run on symbolic inputs, no graph.
void build_inferred_graph(const Value& self, const Value& batch_shape) {
  ModelState& state = model_state(self);
  try {
    build_sequential_graph(self, input_for(self, batch_shape));
    state.inferred_input = true;
  } catch (const Error&) {
    state.graph = nullptr;
    state.sequential_input = Value();
    state.inferred_input = false;
  }
}

/// Sequential.call's _build_graph_network_for_inferred_shape: a Sequential
/// first called without a known input shape builds its graph on an Input of
/// the call's shape with the batch dim unknown; a call whose other dims
/// differ rebuilds it with those dims unknown. Layers that cannot run on
/// symbolic inputs leave the model without a graph, called layer by layer,
/// as Keras falls back.
void infer_sequential_graph(const Value& self, const Value& inputs) {
  ModelState& state = model_state(self);
  if (!inputs.is_tensor() || is_symbolic(inputs) || iterate(self.getattr("_agc_layers")).empty()) return;
  const Shape& shape = inputs.as_tensor().shape();
  if (!shape.rank_known() || shape.rank() == 0) return;
  std::vector<Value> dims{Value()};
  if (state.graph != nullptr) {
    if (!state.inferred_input) return;
    const Shape& have = state.sequential_input.as_tensor().shape();
    if (have.rank() != shape.rank()) return;
    bool same = true;
    for (int i = 1; i < shape.rank(); ++i) {
      bool keep = have.dim(i) == shape.dim(i);
      same = same && keep;
      dims.push_back(keep && have.dim(i) >= 0 ? Value(have.dim(i)) : Value());
    }
    if (same) return;
  } else {
    if (!state.sequential_input.is_none()) return;
    for (int i = 1; i < shape.rank(); ++i) dims.push_back(shape.dim(i) < 0 ? Value() : Value(shape.dim(i)));
  }
  build_inferred_graph(self, Value::tuple(std::move(dims)));
}

Value sequential_add(const std::vector<Value>& a) {
  const Value& self = a[0];
  Value layer = a[1];
  ModelState& state = model_state(self);
  if (layer.is_tensor() && is_symbolic(layer)) {
    // Sequential([keras.Input(...), ...]): the Input starts the graph.
    if (!iterate(self.getattr("_agc_layers")).empty()) {
      throw ValueError("An `Input` can only be the first element of a Sequential model.");
    }
    state.sequential_input = layer;
    build_sequential_graph(self, layer);
    return Value();
  }
  if (!is_layer(layer)) {
    throw TypeError("The added layer must be an instance of class Layer. Received: layer=" + str(layer) +
                    " of type " + repr(Value(layer.type_name())) + ".");
  }
  for (const Value& l : iterate(self.getattr("_agc_layers"))) {
    if (layer_name(l) == layer_name(layer)) {
      throw ValueError("All layers added to a Sequential model should have unique names. Name \"" + layer_name(layer) +
                       "\" is already the name of a layer in this model. Update the `name` argument to pass a unique "
                       "name.");
    }
  }
  self.getattr("_agc_layers").items().push_back(layer);
  if (state.graph != nullptr) {
    // As Keras's add: only the new layer is called, on the graph's output.
    Value x = layer({graph_outputs(*state.graph)}, {});
    state.graph = trace_graph(state.sequential_input, x);
    self.setattr("outputs", Value::list({x}));
  } else if (!state.sequential_input.is_none()) {
    build_sequential_graph(self, state.sequential_input);
  } else if (iterate(self.getattr("_agc_layers")).size() == 1 && layer.hasattr("_batch_input_shape")) {
    build_sequential_graph(self, input_for(self, layer.getattr("_batch_input_shape")));
  } else {
    self.setattr("built", false);
  }
  return Value();
}

Value make_sequential_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.push_back(native_method("Sequential.__init__", "__init__",
                                {{"self", std::nullopt}, {"layers", Value()}, {"name", Value()}},
                                [](const std::vector<Value>& a) -> Value {
                                  const Value& self = a[0];
                                  init_base(self, a[2].is_none() ? Value(unique_name("sequential")) : a[2], Value(true),
                                            Value(), Value::dict());
                                  model_state(self);
                                  self.setattr("_agc_layers", Value::list());
                                  if (!a[1].is_none()) {
                                    std::vector<Value> layers = a[1].is_list() || a[1].is_tuple()
                                                                    ? iterate(a[1])
                                                                    : std::vector<Value>{a[1]};
                                    for (const Value& l : layers) self.getattr("add")({l}, {});
                                  }
                                  return Value();
                                }));
  attrs.push_back(native_method("Sequential.add", "add", {{"self", std::nullopt}, {"layer", std::nullopt}},
                                sequential_add));
  attrs.push_back(native_method("Sequential.pop", "pop", {{"self", std::nullopt}},
                                [](const std::vector<Value>& a) -> Value {
                                  std::vector<Value>& layers = a[0].getattr("_agc_layers").items();
                                  if (layers.empty()) throw TypeError("There are no layers in the model.");
                                  layers.pop_back();
                                  ModelState& state = model_state(a[0]);
                                  state.graph = nullptr;
                                  if (!state.sequential_input.is_none()) build_sequential_graph(a[0], state.sequential_input);
                                  return Value();
                                }));
  attrs.push_back({"build", make_function("Sequential.build", {{"self", std::nullopt}, {"input_shape", Value()}},
                                          [](const std::vector<Value>& a) -> Value {
                                            if (model_graph(a[0]) != nullptr) return Value();
                                            if (a[1].is_none()) {
                                              throw ValueError("You must provide an `input_shape` argument.");
                                            }
                                            std::vector<Value> dims = iterate(a[1]);
                                            if (!dims.empty()) dims[0] = Value();  // the batch dim stays unknown
                                            build_inferred_graph(a[0], Value::tuple(std::move(dims)));
                                            return Value();
                                          })});
  attrs.push_back({"call", make_function("Sequential.call",
                                         {{"self", std::nullopt}, {"inputs", std::nullopt}, {"training", Value()},
                                          {"mask", Value()}},
                                         [](const std::vector<Value>& a) -> Value {
                                           infer_sequential_graph(a[0], a[1]);
                                           Value x = a[1];
                                           for (const Value& layer : iterate(a[0].getattr("_agc_layers"))) x = layer({x}, {});
                                           return x;
                                         })});
  return make_class("Sequential", {model_class()}, std::move(attrs));
}

}  // namespace

const Value& model_class() {
  static const Value cls = make_model_class();
  return cls;
}

const Value& sequential_class() {
  static const Value cls = make_sequential_class();
  return cls;
}

bool is_model(const Value& v) { return v.is_object() && is_instance(v, model_class()); }

std::shared_ptr<const FunctionalGraph> model_graph(const Value& model) {
  auto* s = dynamic_cast<ModelState*>(model.as_object().native.get());
  return s == nullptr ? nullptr : s->graph;
}

std::vector<Value> model_layers(const Value& model) {
  if (is_instance(model, sequential_class())) return iterate(model.getattr("_agc_layers"));
  if (auto g = model_graph(model)) return graph_layers(*g);
  return sublayers(model);
}

}  // namespace ag::keras

namespace ag::tf::api {

const Value& keras_Model() { return keras::model_class(); }
const Value& keras_Sequential() { return keras::sequential_class(); }

const Value& keras_layers_InputLayer() { return keras::input_layer_class(); }

}  // namespace ag::tf::api
