// keras.layers.RNN and its subclasses SimpleRNN, GRU and LSTM (Keras 2.15's
// base_rnn.py, simple_rnn.py, gru.py, lstm.py), over the time loop of
// backend.rnn (see layers_rnn.h for how agc splits a native cell's step).
//
// Keras's rules kept here: a mask [batch, time] keeps the previous states at
// masked steps and outputs the previous output (zeros until the first
// unmasked step); go_backwards reads the sequence reversed and returns its
// outputs in that reversed order; return_state returns [output] + states;
// the LSTM and GRU layers (Keras's cuDNN-compatible configuration) draw their
// input dropout mask over the whole [batch, time, features] input, while a
// cell (SimpleRNN, or other configurations) draws one [batch, features] mask
// per call, shared by every step; recurrent dropout masks [batch, units] are
// per gate (Keras's implementation 1, which recurrent dropout forces).
#include <algorithm>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/graph/tracing.h"
#include "runtime/keras/activations.h"
#include "runtime/keras/layer.h"
#include "runtime/keras/layers_rnn.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/user_function.h"

namespace ag::keras::rnn {
namespace {

// ---- The RNN layer.

/// The [batch, time, ...] <-> [time, batch, ...] permutation of a rank-`rank` tensor.
Value swap_batch_time(const Value& x) {
  int rank = x.as_tensor().shape().rank();
  std::vector<Value> perm{Value(1), Value(0)};
  for (int i = 2; i < rank; ++i) perm.emplace_back(i);
  return tf::transpose(x, Value::list(std::move(perm)));
}

/// A shape argument from dims that are ints or int32 scalar tensors.
Value shape_arg(const std::vector<Value>& dims) {
  for (const Value& d : dims) {
    if (d.is_tensor()) return tf::stack(Value::list(dims));
  }
  return Value::list(dims);
}

/// Dim `i` of `x`: its static size, else tf.shape(x)[i].
Value dim_of(const Value& x, int i) {
  int64_t d = x.as_tensor().shape().dim(i);
  return d >= 0 ? Value(d) : tf::gather(tf::shape(x), Value(i));
}


struct RnnNameScope {
  explicit RnnNameScope(const std::string& name) : saved(eager_name_scope()) { set_eager_name_scope(saved + name + "/"); }
  ~RnnNameScope() { set_eager_name_scope(saved); }
  std::string saved;
};

/// RNN.build: the input spec, then the cell built on a step's input shape
/// under the cell's name ("lstm/lstm_cell/kernel:0").
void build_rnn(const Value& self, const Value& input_shape) {
  Value shape_value = input_shape.is_list() ? input_shape.items().at(0) : input_shape;
  check_spec(self, shape_of(shape_value), self.getattr("_agc_input_spec"),
             static_cast<int>(self.getattr("_agc_ndim").as_int()));
  std::vector<Value> dims = iterate(shape_value);
  if (dims.size() < 3) throw ValueError("Input should be at least 3D.");
  bool time_major = truthy(self.getattr("time_major"));
  // Keras's input spec: any batch and time; a step's input drops the time dim.
  std::vector<Value> spec{Value(), Value()};
  std::vector<Value> step_shape{dims[time_major ? 1 : 0]};
  for (size_t i = 2; i < dims.size(); ++i) {
    spec.push_back(dims[i]);
    step_shape.push_back(dims[i]);
  }
  self.setattr("_agc_input_spec", Value::tuple(std::move(spec)));
  Value cell = self.getattr("cell");
  if (is_layer(cell) && !truthy(cell.getattr("built"))) {
    RnnNameScope scope(layer_name(cell));
    cell.getattr("build")({Value::tuple(std::move(step_shape))}, {});
    cell.setattr("built", true);
  }
}

bool is_function(const Value& f, const char* activation, PyFn tf_fn, const char* tf_name) {
  return f.is(activation_function(activation)) || f.is(builtin_value(tf_name, tf_fn));
}

/// A state size's zeros [batch, ...]: an int or a TensorShape is one state,
/// lists and tuples nest (tf.nest's view, as Keras's
/// generate_zero_filled_state maps over state_size).
Value zero_states(const Value& size, const Value& batch) {
  if (size.is_list() || size.is_tuple()) {
    std::vector<Value> parts;
    for (const Value& s : size.items()) parts.push_back(zero_states(s, batch));
    return size.is_list() ? Value::list(std::move(parts)) : Value::tuple(std::move(parts));
  }
  std::vector<Value> dims{batch};
  for (const Value& d : size.is_index() ? std::vector<Value>{size} : iterate(size)) dims.push_back(d);
  return tf::zeros(shape_arg(dims));
}

/// The initial states as Keras's RNN holds them: a list with one entry per
/// state of the cell (an entry nests for StackedRNNCells), the cell's zeros
/// or `given`, checked against that count.
Value initial_states(const Value& cell, const Value& x_bm, const Value& given, int batch_axis) {
  Value state_size = cell.getattr("state_size");
  bool multiple = state_size.is_list() || state_size.is_tuple();
  size_t count = multiple ? state_size.items().size() : 1;
  auto as_list = [](const Value& v) {
    return Value::list(v.is_list() || v.is_tuple() ? iterate(v) : std::vector<Value>{v});
  };
  if (!given.is_none()) {
    Value states = as_list(given);
    if (states.items().size() != count) {
      throw ValueError("Layer has " + std::to_string(count) + " states but was passed " +
                       std::to_string(states.items().size()) + " initial states. Received: initial_state=" + str(given));
    }
    return states;
  }
  Value batch = dim_of(x_bm, batch_axis);
  if (cell.hasattr("get_initial_state")) {
    return as_list(cell.getattr("get_initial_state")(
        {}, {{"inputs", Value()}, {"batch_size", batch}, {"dtype", Value("float32")}}));
  }
  return as_list(zero_states(state_size, batch));
}

/// `structure` with its leaves taken from `leaves` in order (tf.nest.pack_sequence_as).
Value pack_states(const Value& structure, const std::vector<Value>& leaves, size_t& pos) {
  if (structure.is_list() || structure.is_tuple()) {
    std::vector<Value> parts;
    for (const Value& s : structure.items()) parts.push_back(pack_states(s, leaves, pos));
    return structure.is_list() ? Value::list(std::move(parts)) : Value::tuple(std::move(parts));
  }
  return leaves.at(pos++);
}

/// RNN.call(inputs, mask=None, training=None, initial_state=None, constants=None).
Value call_rnn(const std::vector<Value>& a) {
  const Value& self = a[0];
  Value inputs = a[1];
  Value mask = a[2];
  const Value& training = a[3];
  Value initial_state = a[4];
  if (a.size() > 5 && !a[5].is_none()) throw UnimplementedError("agc: RNN `constants` are not supported");
  if (inputs.is_list()) {
    // Keras's _process_inputs: [inputs, *initial_state].
    std::vector<Value> items = inputs.items();
    if (items.size() > 1) initial_state = Value::list(std::vector<Value>(items.begin() + 1, items.end()));
    inputs = items.at(0);
  }
  if (mask.is_list() || mask.is_tuple()) mask = mask.items().at(0);
  Value x = Value(to_tensor(inputs));
  const Shape& s = x.as_tensor().shape();
  check_spec(self, s, self.getattr("_agc_input_spec"), static_cast<int>(self.getattr("_agc_ndim").as_int()));
  if (!s.rank_known() || s.rank() < 3) {
    throw ValueError("agc: a recurrent layer needs inputs of known rank 3 or more; got shape " + shape_text(s));
  }
  const bool time_major = truthy(self.getattr("time_major"));
  const bool go_backwards = truthy(self.getattr("go_backwards"));
  const bool return_sequences = truthy(self.getattr("return_sequences"));
  const bool unroll = truthy(self.getattr("unroll"));
  const int batch_axis = time_major ? 1 : 0;
  if (unroll && current_graph() != nullptr && s.dim(1 - batch_axis) < 0) {
    throw ValueError(
        "Cannot unroll a RNN if the time dimension is undefined. \n- If using a Sequential model, specify the time "
        "dimension by passing an `input_shape` or `batch_input_shape` argument to your first layer. If your first "
        "layer is an Embedding, you can also use the `input_length` argument.\n- If using the functional API, specify "
        "the time dimension by passing a `shape` or `batch_shape` argument to your Input layer.");
  }
  Value cell = self.getattr("cell");
  const Value state_structure = initial_states(cell, x, initial_state, batch_axis);
  std::vector<Value> states;
  flatten_states(state_structure, states);
  for (Value& st : states) st = Value(to_tensor(st, DType::Float32));
  const CellKind kind = cell_kind(cell);

  LoopArgs args;
  args.return_all_outputs = return_sequences;
  args.zero_output_for_mask = truthy(self.getattr("zero_output_for_mask"));
  args.unroll = unroll;
  if (!mask.is_none()) {
    Value m = tf::cast(mask, DType::Bool);
    if (!time_major) m = tf::transpose(m, Value::list({Value(1), Value(0)}));
    m = tf::expand_dims(m, Value(-1));
    if (go_backwards) m = tf::api::reverse({m, Value::list({Value(0)})}, {});
    args.mask = m;
  }
  StepFn step;
  std::vector<Value> recurrent_masks;
  CellMath math;
  if (kind != CellKind::Other) {
    math = cell_math(cell);
    // Keras's LSTM and GRU layers in their cuDNN-compatible configuration mask
    // the whole input sequence; a cell masks each step with one mask.
    const Value& cls = self.as_object().cls;
    bool whole_sequence =
        (cls.is(tf::api::keras_layers_LSTM()) || cls.is(tf::api::keras_layers_GRU())) &&
        is_function(math.activation, "tanh", tf::api::tanh, "tf.tanh") &&
        is_function(math.recurrent_activation, "sigmoid", tf::api::sigmoid, "tf.sigmoid") &&
        math.recurrent_dropout == 0.0 && !unroll && math.use_bias && (kind != CellKind::GRU || math.reset_after);
    std::vector<Value> xs;
    // `training` is read only when a dropout rate asks (a symbolic one is unsupported).
    if (math.dropout > 0.0 && math.dropout < 1.0 && training_on(training)) {
      // Keras draws `gates` masks and uses the first unless implementation=1;
      // agc draws the ones it uses.
      if (whole_sequence) {
        xs.push_back(tf::multiply(x, dropout_masks(x, math.dropout, 1)[0]));
      } else {
        Value step_like = time_major ? getitem(x, Value(0)) : getitem(x, std::vector<IndexPart>{SliceSpec{}, Value(0)});
        std::vector<Value> masks = dropout_masks(step_like, math.dropout, math.implementation == 1 ? math.gates : 1);
        for (size_t g = 0; g < masks.size(); ++g) {
          // A [batch, features] mask over [batch, time, features] (or time-major) inputs.
          xs.push_back(tf::multiply(x, time_major ? masks[g] : tf::expand_dims(masks[g], Value(1))));
        }
      }
    } else {
      xs.push_back(x);
    }
    if (math.recurrent_dropout > 0.0 && math.recurrent_dropout < 1.0 && training_on(training)) {
      recurrent_masks = dropout_masks(states.at(0), math.recurrent_dropout, math.gates);
    }
    // The input projection of every step at once: [time, batch, gates * units].
    std::vector<Value> flat;
    const int64_t features = s.dim(s.rank() - 1);
    for (Value& xi : xs) {
      Value tm = time_major ? xi : swap_batch_time(xi);
      if (go_backwards) tm = tf::api::reverse({tm, Value::list({Value(0)})}, {});
      flat.push_back(tf::reshape(tm, Value::list({Value(-1), Value(features)})));
    }
    Value projected = project_inputs(math, flat);
    args.inputs = tf::reshape(projected, shape_arg({dim_of(x, 1 - batch_axis), dim_of(x, batch_axis),
                                                    Value(math.gates * math.units)}));
    args.output_is_state0 = true;
    step = [&math, &recurrent_masks](const Value& xw, const std::vector<Value>& st) {
      return cell_step(math, xw, st, recurrent_masks);
    };
  } else {
    Value x_tm = time_major ? x : swap_batch_time(x);
    if (go_backwards) x_tm = tf::api::reverse({x_tm, Value::list({Value(0)})}, {});
    args.inputs = x_tm;
    step = [&cell, &training, &state_structure](const Value& x_t, const std::vector<Value>& st) {
      // The states as backend.rnn passes them: a tuple of the top-level entries.
      size_t pos = 0;
      Value nested = pack_states(state_structure, st, pos);
      Value r = cell({x_t, Value::tuple(nested.items())}, {{"training", training}});
      std::vector<Value> parts = iterate(r);
      if (parts.size() != 2) throw ValueError("An RNN cell's call must return (output, new_states); got " + str(r));
      std::vector<Value> next_states;
      flatten_states(parts[1], next_states);
      return std::pair<Value, std::vector<Value>>{parts[0], next_states};
    };
  }
  args.states = states;
  LoopResult r = run_loop(args, step);
  Value output = return_sequences ? (time_major ? r.outputs : swap_batch_time(r.outputs)) : r.last_output;
  if (!truthy(self.getattr("return_state"))) return output;
  // [output] + the states, nested as the initial states were (StackedRNNCells).
  std::vector<Value> out{output};
  size_t pos = 0;
  Value packed = pack_states(state_structure, r.states, pos);
  for (const Value& st : packed.items()) out.push_back(st);
  return Value::list(std::move(out));
}

/// RNN.__init__'s work after the cell is made: the keywords Keras pops, then
/// Layer.__init__, then the options.
void init_rnn(const Value& self, const Value& cell, const Value& return_sequences, const Value& return_state,
              const Value& go_backwards, const Value& stateful, const Value& unroll, const Value& time_major,
              const Value& name, const Value& trainable, const Value& dtype, const Value& kwargs) {
  if (truthy(stateful)) throw UnimplementedError("agc: stateful recurrent layers (stateful=True) are not supported");
  std::vector<std::pair<Value, Value>> kept;
  Value zero_output, input_dim, input_length;
  bool has_input_shape = false;
  for (const auto& [k, v] : kwargs.as_dict().entries) {
    const std::string& key = k.as_str();
    if (key == "zero_output_for_mask") zero_output = v;
    else if (key == "input_dim") input_dim = v;
    else if (key == "input_length") input_length = v;
    else if (key != "return_runtime" && key != "enable_caching_device" && key != "implementation") kept.emplace_back(k, v);
    if (key == "input_shape") has_input_shape = true;
  }
  if (!has_input_shape && (!input_dim.is_none() || !input_length.is_none())) {
    kept.emplace_back(Value("input_shape"), Value::tuple({input_length, input_dim}));
  }
  init_base(self, name, trainable, dtype, Value::dict(std::move(kept)));
  self.setattr("cell", cell);
  self.setattr("return_sequences", Value(truthy(return_sequences)));
  self.setattr("return_state", Value(truthy(return_state)));
  self.setattr("go_backwards", Value(truthy(go_backwards)));
  self.setattr("stateful", Value(false));
  self.setattr("unroll", Value(truthy(unroll)));
  self.setattr("time_major", Value(truthy(time_major)));
  self.setattr("zero_output_for_mask", Value(truthy(zero_output)));
  self.setattr("supports_masking", Value(true));
  self.setattr("_agc_input_spec", Value());
  self.setattr("_agc_ndim", Value(-1));
}

std::vector<Param> rnn_params() {
  return {{"cell", std::nullopt},       {"return_sequences", Value(false)}, {"return_state", Value(false)},
          {"go_backwards", Value(false)}, {"stateful", Value(false)},        {"unroll", Value(false)},
          {"time_major", Value(false)},   {"name", Value()},                 {"trainable", Value(true)},
          {"dtype", Value()}};
}

const std::vector<std::string>& rnn_config() {
  static const std::vector<std::string> keys{"return_sequences", "return_state", "go_backwards",
                                             "stateful",         "unroll",       "time_major"};
  return keys;
}

/// RNN.compute_mask: the input mask for the output when it is the sequence,
/// None for the last output and for each returned state.
Value compute_mask_rnn(const std::vector<Value>& a) {
  const Value& self = a[0];
  Value mask = a[2];
  if (mask.is_list() || mask.is_tuple()) {
    std::vector<Value> flat;
    flatten_states(mask, flat);
    mask = flat.empty() ? Value() : flat[0];
  }
  Value output_mask = truthy(self.getattr("return_sequences")) ? mask : Value();
  if (!truthy(self.getattr("return_state"))) return output_mask;
  Value state_size = self.getattr("cell").getattr("state_size");
  size_t n = state_size.is_list() || state_size.is_tuple() ? state_size.items().size() : 1;
  std::vector<Value> out{output_mask};
  out.resize(n + 1);
  return Value::list(std::move(out));
}

Value make_rnn_class() {
  std::vector<Param> params = rnn_params();
  return make_layer_class(LayerDef{
      .name = "RNN",
      .init_params = params,
      .init =
          [params](const Value& self, const std::vector<Value>& a) {
            Value cell = a[1];
            if (cell.is_list() || cell.is_tuple()) cell = stacked_cells_class()({cell}, {});
            if (!cell.hasattr("call")) {
              throw ValueError("Argument `cell` should have a `call` method. The RNN was passed: cell=" + str(cell));
            }
            if (!cell.hasattr("state_size")) {
              throw ValueError("The RNN cell should have a `state_size` attribute (tuple of integers, one integer per "
                               "RNN state). Received: cell=" + str(cell));
            }
            init_rnn(self, cell, a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]);
            save_constructor_args(self, params, a);
          },
      .build = build_rnn,
      .call_params = {{"mask", Value()}, {"training", Value()}, {"initial_state", Value()}, {"constants", Value()}},
      .call = call_rnn,
      .compute_mask = compute_mask_rnn,
      .config = rnn_config(),
  });
}

/// SimpleRNN, GRU or LSTM: the cell's parameters (and activity_regularizer),
/// then the RNN's options in each class's order.
std::vector<Param> layer_params(CellKind kind) {
  std::vector<Param> out;
  for (const Param& p : cell_params(kind)) {
    if (p.name == "reset_after" || p.name == "name" || p.name == "trainable" || p.name == "dtype") continue;
    out.push_back(p);
    if (p.name == "bias_regularizer") out.push_back({"activity_regularizer", Value()});
  }
  for (const char* o : {"return_sequences", "return_state", "go_backwards", "stateful"}) out.push_back({o, Value(false)});
  if (kind == CellKind::LSTM) {
    out.push_back({"time_major", Value(false)});
    out.push_back({"unroll", Value(false)});
  } else {
    out.push_back({"unroll", Value(false)});
    if (kind == CellKind::GRU) {
      out.push_back({"time_major", Value(false)});
      out.push_back({"reset_after", Value(true)});
    }
  }
  out.push_back({"name", Value()});
  out.push_back({"trainable", Value(true)});
  out.push_back({"dtype", Value()});
  return out;
}

const Value& rnn_class();

Value make_layer(CellKind kind, const char* name, const char* cell_name, const Value& (*cell_class)()) {
  std::vector<Param> params = layer_params(kind);
  std::vector<std::string> config = rnn_config();
  for (const char* k : {"units", "activation", "recurrent_activation", "use_bias", "kernel_initializer",
                        "recurrent_initializer", "bias_initializer", "unit_forget_bias", "dropout", "recurrent_dropout",
                        "implementation", "reset_after"}) {
    std::string key = k;
    if (kind == CellKind::SimpleRNN && (key == "recurrent_activation" || key == "implementation")) continue;
    if (kind != CellKind::LSTM && key == "unit_forget_bias") continue;
    if (kind != CellKind::GRU && key == "reset_after") continue;
    config.push_back(key);
  }
  return make_layer_class(LayerDef{
      .name = name,
      .init_params = params,
      .init =
          [params, cell_name, cell_class, kind, config](const Value& self, const std::vector<Value>& a) {
            auto get = [&](std::string_view n) -> Value {
              for (size_t i = 0; i < params.size(); ++i) {
                if (params[i].name == n) return a[i + 1];
              }
              return Value();
            };
            const Value& kwargs = a.back();
            if (!get("activity_regularizer").is_none()) {
              throw UnimplementedError("agc: recurrent layers do not support `activity_regularizer`");
            }
            // The cell takes the cell's arguments, Keras's name for it, and
            // the layer's dtype, trainable and implementation.
            Kwargs cell_kwargs;
            for (const Param& p : cell_params(kind)) {
              if (p.name == "name" || p.name == "trainable" || p.name == "dtype") continue;
              cell_kwargs.emplace_back(p.name, get(p.name));
            }
            cell_kwargs.emplace_back("name", Value(cell_name));
            cell_kwargs.emplace_back("dtype", get("dtype"));
            cell_kwargs.emplace_back("trainable", get("trainable"));
            Value time_major = get("time_major");
            for (const auto& [k, v] : kwargs.as_dict().entries) {
              if (k.as_str() == "implementation" && kind != CellKind::SimpleRNN) cell_kwargs.emplace_back("implementation", v);
              if (k.as_str() == "time_major" && kind == CellKind::SimpleRNN) time_major = v;
            }
            Value cell = cell_class()({}, std::move(cell_kwargs));
            std::vector<std::pair<Value, Value>> rest;
            for (const auto& [k, v] : kwargs.as_dict().entries) {
              if (k.as_str() != "time_major") rest.emplace_back(k, v);
            }
            init_rnn(self, cell, get("return_sequences"), get("return_state"), get("go_backwards"), get("stateful"),
                     get("unroll"), time_major, get("name"), get("trainable"), get("dtype"), Value::dict(std::move(rest)));
            self.setattr("_agc_ndim", Value(3));
            // Keras's properties reading the cell, as plain attributes.
            for (const std::string& key : config) {
              if (cell.hasattr(key)) self.setattr(key, cell.getattr(key));
            }
            save_constructor_args(self, params, a);
          },
      .config = config,
      .base = rnn_class(),
  });
}

const Value& rnn_class() {
  static const Value cls = make_rnn_class();
  return cls;
}

}  // namespace

namespace {
std::string spec_text(const std::vector<Value>& dims) {
  std::string out = "(";
  for (size_t i = 0; i < dims.size(); ++i) out += (i ? ", " : "") + (dims[i].is_none() ? std::string("None") : str(dims[i]));
  return out + (dims.size() == 1 ? ",)" : ")");
}
}  // namespace

void check_spec(const Value& layer, const Shape& s, const Value& spec, int ndim) {
  if (!s.rank_known()) return;
  std::string name = layer_name(layer);
  if (!spec.is_none()) ndim = static_cast<int>(spec.items().size());
  if (ndim >= 0 && s.rank() != ndim) {
    raise_before_call(layer, ValueError("Input 0 of layer \"" + name + "\" is incompatible with the layer: expected ndim=" +
                                        std::to_string(ndim) + ", found ndim=" + std::to_string(s.rank()) +
                                        ". Full shape received: " + shape_text(s)));
  }
  if (spec.is_none()) return;
  const std::vector<Value>& dims = spec.items();
  for (int i = 0; i < s.rank(); ++i) {
    if (!dims[i].is_none() && s.dim(i) >= 0 && dims[i].as_int() != s.dim(i)) {
      raise_before_call(layer, ValueError("Input 0 of layer \"" + name +
                                          "\" is incompatible with the layer: expected shape=" + spec_text(dims) +
                                          ", found shape=" + shape_text(s)));
    }
  }
}


Shape shape_of(const Value& input_shape) {
  std::vector<int64_t> dims;
  for (const Value& d : iterate(input_shape)) dims.push_back(d.is_none() ? kUnknownDim : d.as_int());
  return Shape(std::span<const int64_t>(dims));
}

bool is_builtin_layer(const Value& layer) {
  if (!layer.is_object() || !layer.as_object().cls.is_object()) return false;
  for (const auto& [k, v] : layer.as_object().cls.as_object().attrs) {
    if (k == "_agc_builtin_layer") return true;
  }
  return false;
}

Kwargs constructor_args(const Value& layer) {
  Kwargs out;
  for (const auto& [k, v] : layer.getattr("_agc_ctor").as_dict().entries) out.emplace_back(k.as_str(), v);
  return out;
}

}  // namespace ag::keras::rnn

namespace ag::tf::api {

const Value& keras_layers_RNN() { return keras::rnn::rnn_class(); }

const Value& keras_layers_SimpleRNN() {
  static const Value cls = keras::rnn::make_layer(keras::rnn::CellKind::SimpleRNN, "SimpleRNN", "simple_rnn_cell",
                                                  keras::rnn::simple_rnn_cell_class);
  return cls;
}

const Value& keras_layers_GRU() {
  static const Value cls =
      keras::rnn::make_layer(keras::rnn::CellKind::GRU, "GRU", "gru_cell", keras::rnn::gru_cell_class);
  return cls;
}

const Value& keras_layers_LSTM() {
  static const Value cls =
      keras::rnn::make_layer(keras::rnn::CellKind::LSTM, "LSTM", "lstm_cell", keras::rnn::lstm_cell_class);
  return cls;
}

}  // namespace ag::tf::api
