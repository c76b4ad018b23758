// keras.layers.Bidirectional and TimeDistributed (Keras 2.15's
// tf_keras/layers/rnn/{bidirectional,time_distributed}.py).
//
// Bidirectional remakes its layer twice from the layer's constructor
// arguments (Keras: from its config), the second with go_backwards flipped,
// named "forward_<name>" and "backward_<name>", and builds them under those
// names ("bidirectional/forward_lstm/lstm_cell/kernel:0"); the layer it was
// given is not tracked. TimeDistributed applies its layer to [batch * time,
// ...] reshaped inputs for agc's own layers, and step by step (the time
// loop) for a program's layers when the batch size is static, as Keras does.
#include <algorithm>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/graph/tracing.h"
#include "runtime/keras/layer.h"
#include "runtime/keras/layers_rnn.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/user_function.h"

namespace ag::keras::rnn {
namespace {

/// Keras's generic_utils.has_arg(layer.call, name) (an explicit parameter).
bool call_takes(const Value& layer, std::string_view name) {
  const Value call = layer.getattr("call");  // the bound method must outlive its params
  const std::vector<Param>* params = function_params(call);
  if (params == nullptr) return false;
  return std::any_of(params->begin(), params->end(), [&](const Param& p) { return p.name == name; });
}

struct WrapperNameScope {
  explicit WrapperNameScope(const std::string& name) : saved(eager_name_scope()) {
    set_eager_name_scope(saved + name + "/");
  }
  ~WrapperNameScope() { set_eager_name_scope(saved); }
  std::string saved;
};

/// A native cell or recurrent layer made again from its constructor's
/// arguments, named as `original` and with `overrides`.
Value remake(const Value& original, Kwargs overrides) {
  Kwargs args = constructor_args(original);
  for (auto& [key, value] : overrides) {
    // A named copy: Clang 14 cannot capture a structured binding.
    const std::string& name = key;
    auto it = std::find_if(args.begin(), args.end(), [&name](const auto& kv) { return kv.first == name; });
    if (it != args.end()) it->second = value;
    else args.emplace_back(key, value);
  }
  return original.as_object().cls({}, std::move(args));
}

/// Bidirectional's _recreate_layer_from_config for the layers agc defines.
Value recreate(const Value& layer, bool flip) {
  const Value& cls = layer.as_object().cls;
  bool go_backwards = truthy(layer.getattr("go_backwards"));
  if (flip) go_backwards = !go_backwards;
  Kwargs overrides{{"name", Value(layer_name(layer))},
                   {"trainable", layer.getattr("trainable")},
                   {"go_backwards", Value(go_backwards)}};
  if (cls.is(tf::api::keras_layers_LSTM()) || cls.is(tf::api::keras_layers_GRU()) ||
      cls.is(tf::api::keras_layers_SimpleRNN())) {
    return remake(layer, std::move(overrides));
  }
  if (cls.is(tf::api::keras_layers_RNN()) && cell_kind(layer.getattr("cell")) != CellKind::Other) {
    Value cell = layer.getattr("cell");
    overrides.emplace_back("cell", remake(cell, {{"name", Value(layer_name(cell))}}));
    return remake(layer, std::move(overrides));
  }
  throw UnimplementedError("agc: Bidirectional supports agc's recurrent layers (SimpleRNN, GRU, LSTM, and RNN over "
                           "their cells); got a " + layer.type_name());
}

std::string python_bool(bool b) { return b ? "True" : "False"; }

void init_bidirectional(const Value& self, const std::vector<Value>& a) {
  const Value& layer = a[1];
  const Value& merge_mode = a[2];
  const Value& backward_layer = a[4];
  if (!is_layer(layer)) {
    throw ValueError("Please initialize `Bidirectional` layer with a `tf.keras.layers.Layer` instance. Received: " +
                     str(layer));
  }
  if (!backward_layer.is_none() && !is_layer(backward_layer)) {
    throw ValueError("`backward_layer` need to be a `tf.keras.layers.Layer` instance. Received: " +
                     str(backward_layer));
  }
  static const std::vector<std::string> modes{"sum", "mul", "ave", "concat"};
  if (!merge_mode.is_none() &&
      (!merge_mode.is_str() || std::find(modes.begin(), modes.end(), merge_mode.as_str()) == modes.end())) {
    throw ValueError("Invalid merge mode. Received: " + str(merge_mode) +
                     ". Merge mode should be one of {\"sum\", \"mul\", \"ave\", \"concat\", None}");
  }
  if (!a[3].is_none()) throw UnimplementedError("agc: Bidirectional's `weights` argument is not supported");
  init_base(self, a[5], a[6], a[7], a[8]);
  // Keras does not track the given layer: only the two copies it runs.
  self.setattr("_agc_layer", layer);
  Value forward = recreate(layer, false);
  Value backward = backward_layer.is_none() ? recreate(layer, true) : backward_layer;
  forward.setattr("_name", Value("forward_" + layer_name(forward)));
  backward.setattr("_name", Value("backward_" + layer_name(backward)));
  bool fb = truthy(forward.getattr("go_backwards")), bb = truthy(backward.getattr("go_backwards"));
  if (fb == bb) {
    throw ValueError("Forward layer and backward layer should have different `go_backwards` value.forward_layer."
                     "go_backwards = " + python_bool(fb) + ",backward_layer.go_backwards = " + python_bool(bb));
  }
  for (const char* attr : {"stateful", "return_sequences", "return_state"}) {
    Value f = forward.getattr(attr), b = backward.getattr(attr);
    if (truthy(f) != truthy(b)) {
      throw ValueError(std::string("Forward layer and backward layer are expected to have the same value for "
                                   "attribute \"") + attr + "\", got \"" + str(f) + "\" for forward layer and \"" +
                       str(b) + "\" for backward layer");
    }
  }
  // Masked steps output zeros when the sequences are returned.
  for (const Value& l : {forward, backward}) {
    if (l.hasattr("zero_output_for_mask")) l.setattr("zero_output_for_mask", l.getattr("return_sequences"));
  }
  self.setattr("forward_layer", forward);
  self.setattr("backward_layer", backward);
  self.setattr("merge_mode", merge_mode);
  self.setattr("stateful", layer.getattr("stateful"));
  self.setattr("return_sequences", layer.getattr("return_sequences"));
  self.setattr("return_state", layer.getattr("return_state"));
  self.setattr("supports_masking", Value(true));
}

void build_bidirectional(const Value& self, const Value& input_shape) {
  Value layer = self.getattr("_agc_layer");
  if (layer.hasattr("_agc_ndim")) {
    Value first = input_shape.is_list() ? input_shape.items().at(0) : input_shape;
    check_spec(self, shape_of(first), Value(), static_cast<int>(layer.getattr("_agc_ndim").as_int()));
  }
  for (const char* which : {"forward_layer", "backward_layer"}) {
    Value l = self.getattr(which);
    WrapperNameScope scope(layer_name(l));
    l.getattr("build")({input_shape}, {});
  }
}

Value call_bidirectional(const std::vector<Value>& a) {
  const Value& self = a[0];
  Value inputs = a[1];
  Value initial_state = a[4];
  if (!a[5].is_none()) throw UnimplementedError("agc: Bidirectional `constants` are not supported");
  if (inputs.is_list()) {
    std::vector<Value> items = inputs.items();
    if (items.size() > 1) initial_state = Value::list(std::vector<Value>(items.begin() + 1, items.end()));
    inputs = items.at(0);
  }
  Value layer = self.getattr("_agc_layer");
  if (layer.hasattr("_agc_ndim")) {
    check_spec(self, to_tensor(inputs).shape(), Value(), static_cast<int>(layer.getattr("_agc_ndim").as_int()));
  }
  Value forward = self.getattr("forward_layer"), backward = self.getattr("backward_layer");
  Kwargs kwargs;
  if (call_takes(forward, "training")) kwargs.emplace_back("training", a[2]);
  if (call_takes(forward, "mask")) kwargs.emplace_back("mask", a[3]);
  Kwargs fkw = kwargs, bkw = kwargs;
  if (!initial_state.is_none()) {
    std::vector<Value> states = iterate(initial_state);
    if (states.size() % 2 != 0) {
      // Keras checks this in Bidirectional.__call__, before call().
      raise_before_call(self, ValueError("When passing `initial_state` to a Bidirectional RNN, the state should be a "
                                         "list containing the states of the underlying RNNs. Received: " +
                                         str(initial_state)));
    }
    size_t half = states.size() / 2;
    fkw.emplace_back("initial_state", Value::list(std::vector<Value>(states.begin(), states.begin() + half)));
    bkw.emplace_back("initial_state", Value::list(std::vector<Value>(states.begin() + half, states.end())));
  }
  Value y = forward({inputs}, std::move(fkw));
  Value y_rev = backward({inputs}, std::move(bkw));
  std::vector<Value> states;
  if (truthy(self.getattr("return_state"))) {
    std::vector<Value> f = iterate(y), b = iterate(y_rev);
    states.insert(states.end(), f.begin() + 1, f.end());
    states.insert(states.end(), b.begin() + 1, b.end());
    y = f[0];
    y_rev = b[0];
  }
  if (truthy(self.getattr("return_sequences"))) {
    int time_axis = forward.hasattr("time_major") && truthy(forward.getattr("time_major")) ? 0 : 1;
    y_rev = tf::api::reverse({y_rev, Value::list({Value(time_axis)})}, {});
  }
  Value merge_mode = self.getattr("merge_mode");
  std::vector<Value> out;
  if (merge_mode.is_none()) {
    out = {y, y_rev};
  } else {
    const std::string& mode = merge_mode.as_str();
    if (mode == "concat") out = {tf::concat(Value::list({y, y_rev}), Value(-1))};
    else if (mode == "sum") out = {tf::add(y, y_rev)};
    else if (mode == "ave") out = {tf::divide(tf::add(y, y_rev), Value(2))};
    else out = {tf::multiply(y, y_rev)};
  }
  if (states.empty() && !truthy(self.getattr("return_state"))) {
    return merge_mode.is_none() ? Value::list(std::move(out)) : out[0];
  }
  out.insert(out.end(), states.begin(), states.end());
  return Value::list(std::move(out));
}

/// Bidirectional.compute_mask: the mask for returned sequences (one per
/// output when not merged), None for last outputs and every state.
Value compute_mask_bidirectional(const std::vector<Value>& a) {
  const Value& self = a[0];
  Value mask = a[2];
  if (mask.is_list()) mask = mask.items().empty() ? Value() : mask.items()[0];
  bool merged = !self.getattr("merge_mode").is_none();
  Value output_mask;
  if (truthy(self.getattr("return_sequences"))) {
    output_mask = merged ? mask : Value::list({mask, mask});
  } else {
    output_mask = merged ? Value() : Value::list({Value(), Value()});
  }
  if (!truthy(self.getattr("return_state"))) return output_mask;
  Value state_size = self.getattr("forward_layer").getattr("cell").getattr("state_size");
  size_t n = state_size.is_list() || state_size.is_tuple() ? state_size.items().size() : 1;
  std::vector<Value> out = output_mask.is_list() ? output_mask.items() : std::vector<Value>{output_mask};
  out.resize(out.size() + 2 * n);
  return Value::list(std::move(out));
}

Value make_bidirectional() {
  Value cls = make_layer_class(LayerDef{
      .name = "Bidirectional",
      .init_params = {{"layer", std::nullopt},
                      {"merge_mode", Value("concat")},
                      {"weights", Value()},
                      {"backward_layer", Value()},
                      {"name", Value()},
                      {"trainable", Value(true)},
                      {"dtype", Value()}},
      .init = init_bidirectional,
      .build = build_bidirectional,
      .call_params = {{"training", Value()}, {"mask", Value()}, {"initial_state", Value()}, {"constants", Value()}},
      .call = call_bidirectional,
      .compute_mask = compute_mask_bidirectional,
      .config = {"merge_mode"},
  });
  cls.as_object().attrs.push_back(
      {"layer", make_property(Value::callable("layer", [](std::vector<Value> args, Kwargs) -> Value {
         return args.at(0).getattr("_agc_layer");
       }))});
  return cls;
}

// ---- TimeDistributed.

/// `x`'s dims from `start` on, each static one as an int and each unknown one
/// as tf.shape(x)[i] (Keras's _get_shape_tuple).
std::vector<Value> dims_from(const Value& x, int start) {
  const Shape& s = x.as_tensor().shape();
  std::vector<Value> out;
  Value dynamic;
  for (int i = start; i < s.rank(); ++i) {
    if (s.dim(i) >= 0) {
      out.emplace_back(s.dim(i));
      continue;
    }
    if (dynamic.is_none()) dynamic = tf::shape(x);
    out.push_back(tf::gather(dynamic, Value(i)));
  }
  return out;
}

Value as_shape_arg(const std::vector<Value>& dims) {
  for (const Value& d : dims) {
    if (d.is_tensor()) return tf::stack(Value::list(dims));
  }
  return Value::list(dims);
}

void build_time_distributed(const Value& self, const Value& input_shape) {
  std::vector<Value> dims = iterate(input_shape);
  if (dims.size() < 3) {
    throw ValueError("`TimeDistributed` Layer should be passed an `input_shape ` with at least 3 dimensions, "
                     "received: " + str(input_shape));
  }
  std::vector<Value> spec{Value(), Value()};
  std::vector<Value> child{dims[0]};
  for (size_t i = 2; i < dims.size(); ++i) {
    spec.push_back(dims[i]);
    child.push_back(dims[i]);
  }
  self.setattr("_agc_input_spec", Value::tuple(std::move(spec)));
  Value layer = self.getattr("layer");
  // Keras's Wrapper.build: the layer is built directly, under the wrapper's
  // name ("time_distributed/kernel:0").
  if (!truthy(layer.getattr("built"))) {
    layer.getattr("build")({Value::tuple(std::move(child))}, {});
    layer.setattr("built", true);
  }
}

Value call_time_distributed(const std::vector<Value>& a) {
  const Value& self = a[0];
  if (a[1].is_list() || a[1].is_tuple() || a[1].is_dict()) {
    throw UnimplementedError("agc: TimeDistributed over nested inputs is not supported");
  }
  Value x = Value(to_tensor(a[1]));
  check_spec(self, x.as_tensor().shape(), self.getattr("_agc_input_spec"));
  const Value& training = a[2];
  const Value& mask = a[3];
  Value layer = self.getattr("layer");
  Kwargs kwargs;
  if (call_takes(layer, "training")) kwargs.emplace_back("training", training);
  const Shape& s = x.as_tensor().shape();
  const int64_t batch = s.dim(0);
  if (batch >= 0 && !truthy(self.getattr("_agc_always_reshape"))) {
    // The batch size matters to a program's layer: one call per time step.
    LoopArgs args;
    args.inputs = tf::transpose(x, Value::list([&] {
                                  std::vector<Value> perm{Value(1), Value(0)};
                                  for (int i = 2; i < s.rank(); ++i) perm.emplace_back(i);
                                  return perm;
                                }()));
    if (!mask.is_none()) {
      args.mask = tf::expand_dims(tf::transpose(tf::cast(mask, DType::Bool), Value::list({Value(1), Value(0)})),
                                  Value(-1));
    }
    Value y_tm = run_loop(args, [&](const Value& x_t, const std::vector<Value>&) {
                   return std::pair<Value, std::vector<Value>>{layer({x_t}, kwargs), {}};
                 }).outputs;
    int rank = y_tm.as_tensor().shape().rank();
    std::vector<Value> perm{Value(1), Value(0)};
    for (int i = 2; i < rank; ++i) perm.emplace_back(i);
    return tf::transpose(y_tm, Value::list(std::move(perm)));
  }
  Value time = s.dim(1) >= 0 ? Value(s.dim(1)) : tf::gather(tf::shape(x), Value(1));
  std::vector<Value> inner{Value(-1)};
  for (const Value& d : dims_from(x, 2)) inner.push_back(d);
  Value flat = tf::reshape(x, as_shape_arg(inner));
  if (call_takes(layer, "mask") && !mask.is_none()) {
    std::vector<Value> mask_inner{Value(-1)};
    for (const Value& d : dims_from(mask, 2)) mask_inner.push_back(d);
    kwargs.emplace_back("mask", tf::reshape(mask, as_shape_arg(mask_inner)));
  }
  Value y = Value(to_tensor(layer({flat}, std::move(kwargs))));
  std::vector<Value> outer{batch >= 0 ? Value(batch) : Value(-1), time};
  for (const Value& d : dims_from(y, 1)) outer.push_back(d);
  return tf::reshape(y, as_shape_arg(outer));
}

/// TimeDistributed.compute_mask: the mask as given when the layer runs per
/// step; else the inner layer's mask over [batch * time, ...] reshaped back,
/// or the input mask reduced to [batch, time] when the inner layer gives none.
Value compute_mask_time_distributed(const std::vector<Value>& a) {
  const Value& self = a[0];
  const Value& mask = a[2];
  if (!a[1].is_tensor()) return mask;
  Value x = a[1];
  const Shape& s = x.as_tensor().shape();
  if (s.dim(0) >= 0 && !truthy(self.getattr("_agc_always_reshape"))) return mask;
  Value inner_mask;
  if (!mask.is_none()) {
    std::vector<Value> dims{Value(-1)};
    for (const Value& d : dims_from(mask, 2)) dims.push_back(d);
    inner_mask = tf::reshape(mask, as_shape_arg(dims));
  }
  std::vector<Value> inner{Value(-1)};
  for (const Value& d : dims_from(x, 2)) inner.push_back(d);
  Value output_mask = self.getattr("layer").getattr("compute_mask")({tf::reshape(x, as_shape_arg(inner)), inner_mask}, {});
  if (output_mask.is_none()) {
    if (mask.is_none()) return Value();
    Value m = mask;
    for (int r = m.as_tensor().shape().rank(); r > 2; --r) m = tf::reduce_any(m, Value(-1));
    return m;
  }
  Value time = s.dim(1) >= 0 ? Value(s.dim(1)) : tf::gather(tf::shape(x), Value(1));
  std::vector<Value> outer{s.dim(0) >= 0 ? Value(s.dim(0)) : Value(-1), time};
  for (const Value& d : dims_from(output_mask, 1)) outer.push_back(d);
  return tf::reshape(output_mask, as_shape_arg(outer));
}

Value make_time_distributed() {
  return make_layer_class(LayerDef{
      .name = "TimeDistributed",
      .init_params = {{"layer", std::nullopt}, {"name", Value()}, {"trainable", Value(true)}, {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            const Value& layer = a[1];
            if (!is_layer(layer)) {
              throw ValueError("Please initialize `TimeDistributed` layer with a `tf.keras.layers.Layer` instance. "
                               "Received: " + str(layer));
            }
            init_base(self, a[2], a[3], a[4], a[5]);
            self.setattr("layer", layer);
            self.setattr("supports_masking", Value(true));
            bool stateful = layer.hasattr("stateful") && truthy(layer.getattr("stateful"));
            self.setattr("_agc_always_reshape", Value(is_builtin_layer(layer) && !stateful));
            self.setattr("_agc_input_spec", Value());
          },
      .build = build_time_distributed,
      .call_params = {{"training", Value()}, {"mask", Value()}},
      .call = call_time_distributed,
      .compute_mask = compute_mask_time_distributed,
      .config = {},
  });
}

}  // namespace
}  // namespace ag::keras::rnn

namespace ag::tf::api {

const Value& keras_layers_Bidirectional() {
  static const Value cls = keras::rnn::make_bidirectional();
  return cls;
}

const Value& keras_layers_TimeDistributed() {
  static const Value cls = keras::rnn::make_time_distributed();
  return cls;
}

}  // namespace ag::tf::api
