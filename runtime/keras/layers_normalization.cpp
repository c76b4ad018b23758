// The normalization layers of tf.keras.layers, as Keras 2.15 computes them:
// - BatchNormalization: Keras's two paths. A 4-D (or 5-D) input normalized on
//   its channel axis takes the fused one: FusedBatchNormV3, whose training
//   mode updates the moving statistics itself with factor 1 - momentum, the
//   variance Bessel-corrected (n / (n - 1)), and Keras assigns them. Any other
//   input takes tf.nn.moments and tf.nn.batch_normalization, each moving
//   statistic updated by assign_sub((moving - batch) · (1 - momentum)), the
//   variance biased. training=None is inference (Keras's learning phase 0),
//   and a layer with trainable=False always runs in inference mode.
// - LayerNormalization: over trailing contiguous axes, the input viewed as
//   [1, N, D, 1] through FusedBatchNormV3 (NCHW) then scaled by gamma and
//   shifted by beta; other axes through tf.nn.moments/batch_normalization.
// - Normalization (preprocessing): adapt() accumulates mean and variance
//   batch by batch (32 rows each for arrays, as Keras's data handler), then
//   call computes (x - mean) / max(sqrt(variance), 1e-7).
#include <algorithm>
#include <set>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/keras/functional.h"
#include "runtime/keras/layer.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/tensor_shape_value.h"
#include "runtime/value/variable_value.h"

namespace ag::keras {
namespace {

/// The constructors' `axis`: an int, or a list/tuple of ints (kept as a list).
Value norm_axis_arg(const Value& axis) {
  if (axis.is_list() || axis.is_tuple()) return Value::list(axis.items());
  if (axis.is_int()) return axis;
  throw TypeError("Expected an int or a list/tuple of ints for the argument 'axis', but received: " + repr(axis));
}

std::string int_tuple_text(const std::vector<int64_t>& v) {
  std::string out = "(";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  return out + (v.size() == 1 ? ",)" : ")");
}

std::vector<int64_t> axis_list(const Value& axis) {
  std::vector<int64_t> out;
  if (axis.is_int()) return {axis.as_int()};
  for (const Value& v : iterate(axis)) out.push_back(v.as_int());
  return out;
}

/// Keras's tf_utils.validate_axis: the axes made non-negative, checked
/// against the input's rank.
std::vector<int64_t> validate_norm_axis(const Value& axis, const Value& input_shape) {
  if (input_shape.is_none() || iterate(input_shape).empty()) {
    throw ValueError("Input has undefined rank. Received: input_shape=" + str(input_shape));
  }
  const int64_t rank = static_cast<int64_t>(iterate(input_shape).size());
  std::vector<int64_t> out = axis_list(axis);
  for (int64_t& a : out) {
    if (a < 0) a += rank;
  }
  for (int64_t a : out) {
    if (a < 0 || a >= rank) {
      throw ValueError("Invalid value for `axis` argument. Expected 0 <= axis < inputs.rank (with inputs.rank=" +
                       std::to_string(rank) + "). Received: axis=" + int_tuple_text(out));
    }
  }
  if (std::set<int64_t>(out.begin(), out.end()).size() != out.size()) {
    throw ValueError("Duplicate axis: " + int_tuple_text(out));
  }
  return out;
}

Value ints_list(const std::vector<int64_t>& v) {
  std::vector<Value> out;
  for (int64_t x : v) out.emplace_back(x);
  return Value::list(std::move(out));
}

/// BatchNormalization's `training` as Keras's _get_training_value decides it:
/// None is the learning phase (0: inference), a frozen layer is in inference.
bool bn_training(const Value& self, const Value& training) {
  if (!truthy(self.getattr("trainable"))) return false;
  if (training.is_none()) return false;
  if (training.is_tensor() && training.as_tensor().symbolic()) {
    throw UnimplementedError("agc: a symbolic `training` tensor is not supported; pass a Python bool");
  }
  return truthy(training);
}

/// _raise_if_fused_cannot_be_used's axis check (the other conditions are
/// arguments agc does not take).
bool fused_axis_ok(const Value& axis) {
  std::vector<int64_t> a = axis_list(axis);
  return a.size() == 1 && (a[0] == -4 || a[0] == -3 || a[0] == -1 || a[0] == 1 || a[0] == 3 || a[0] == 4);
}

/// Input dims of a TensorShape as a list of ints (-1: None).
std::vector<int64_t> shape_ints(const Value& input_shape) {
  std::vector<int64_t> out;
  for (const Value& d : iterate(input_shape)) out.push_back(d.is_none() ? -1 : d.as_int());
  return out;
}

std::string dims_tuple_text(const std::vector<int64_t>& dims) {
  std::string out = "(";
  for (size_t i = 0; i < dims.size(); ++i) out += (i ? ", " : "") + (dims[i] < 0 ? "None" : std::to_string(dims[i]));
  return out + (dims.size() == 1 ? ",)" : ")");
}

void bn_build(const Value& self, const Value& input_shape) {
  std::vector<int64_t> axis = validate_norm_axis(self.getattr("axis"), input_shape);
  std::vector<int64_t> dims = shape_ints(input_shape);
  const int64_t rank = static_cast<int64_t>(dims.size());
  self.setattr("axis", ints_list(axis));
  Value fused = self.getattr("fused");
  std::string format;
  if (fused.is_none() || truthy(fused)) {
    if (fused.is_none()) {
      fused = Value(rank == 4 || rank == 5);
    } else if (rank != 4 && rank != 5) {
      throw ValueError("Batch normalization layers with `fused=True` only support 4D or 5D input tensors. Received "
                       "tensor with shape: " + dims_tuple_text(dims));
    }
  }
  if (truthy(fused)) {
    if (axis == std::vector<int64_t>{1} && rank == 4) format = "NCHW";
    else if (axis == std::vector<int64_t>{1} && rank == 5) format = "NCDHW";
    else if (axis == std::vector<int64_t>{3} && rank == 4) format = "NHWC";
    else if (axis == std::vector<int64_t>{4} && rank == 5) format = "NDHWC";
    else if (rank == 5) fused = Value(false);
    else {
      throw ValueError(std::string("Unsupported axis. The use of `fused=True` is only possible with `axis=1` or ") +
                       (rank == 4 ? "`axis=3` for 4D" : "`axis=4` for 5D") +
                       " input tensors. Received: axis=" + int_tuple_text(axis));
    }
  }
  self.setattr("fused", fused);
  self.setattr("_agc_data_format", Value(format));
  for (int64_t a : axis) {
    if (dims[static_cast<size_t>(a)] < 0) {
      throw ValueError("Input has undefined `axis` dimension. Received input with shape " + dims_tuple_text(dims) +
                       " and axis=" + int_tuple_text(axis));
    }
  }
  std::vector<int64_t> param_shape;
  if (axis.size() == 1) {
    param_shape = {dims[static_cast<size_t>(axis[0])]};
  } else {
    for (int64_t i = 0; i < rank; ++i) {
      param_shape.push_back(std::find(axis.begin(), axis.end(), i) != axis.end() ? dims[static_cast<size_t>(i)] : 1);
    }
  }
  self.setattr("_agc_param_shape", ints_list(param_shape));
  self.setattr("_agc_rank", Value(rank));
  self.setattr("gamma", truthy(self.getattr("scale"))
                            ? add_weight(self, {"gamma", param_shape, self.getattr("gamma_initializer"),
                                                self.getattr("gamma_regularizer")})
                            : Value());
  self.setattr("beta", truthy(self.getattr("center"))
                           ? add_weight(self, {"beta", param_shape, self.getattr("beta_initializer"),
                                               self.getattr("beta_regularizer")})
                           : Value());
  self.setattr("moving_mean", add_weight(self, {"moving_mean", param_shape, self.getattr("moving_mean_initializer"),
                                                Value(), false}));
  self.setattr("moving_variance", add_weight(self, {"moving_variance", param_shape,
                                                    self.getattr("moving_variance_initializer"), Value(), false}));
}

/// The InputSpec(ndim=rank, axes={axis: dim}) check build made.
void bn_check_input(const Value& self, const Value& x) {
  const int64_t rank = self.getattr("_agc_rank").as_int();
  check_input_rank(self, x, -1, static_cast<int>(rank));
  std::vector<int64_t> param = axis_list(self.getattr("_agc_param_shape"));
  std::vector<int64_t> axis = axis_list(self.getattr("axis"));
  for (size_t i = 0; i < axis.size(); ++i) {
    int64_t dim = axis.size() == 1 ? param[0] : param[static_cast<size_t>(axis[i])];
    check_input_axis(self, x, static_cast<int>(axis[i]), dim);
  }
}

/// A constant of the parameters' shape (Keras's gamma without `scale`, beta
/// without `center`).
Value param_constant(const Value& self, double v) {
  return tf::fill(self.getattr("_agc_param_shape"), tf::constant(Value(v), DType::Float32));
}

/// _fused_batch_norm: FusedBatchNormV3 (a 5-D input through a 4-D view of
/// it, the two middle spatial dims merged); in training the op's running
/// statistics are assigned to the moving ones.
Value bn_fused(const Value& self, Value x, bool training, bool update) {
  std::string format = self.getattr("_agc_data_format").as_str();
  Value shape5;
  if (format.size() == 5) {
    shape5 = tf::api::shape({x}, {});
    auto dim = [&](int i) { return tf::api::gather({shape5, Value(i)}, {}); };
    Value merged = format == "NDHWC" ? Value::list({dim(0), dim(1), dim(2) * dim(3), dim(4)})
                                     : Value::list({dim(0), dim(1), dim(2), dim(3) * dim(4)});
    x = tf::reshape(x, tf::api::stack({merged}, {}));
    format = format == "NDHWC" ? "NHWC" : "NCHW";
  }
  Value gamma = truthy(self.getattr("scale")) ? self.getattr("gamma") : param_constant(self, 1.0);
  Value beta = truthy(self.getattr("center")) ? self.getattr("beta") : param_constant(self, 0.0);
  Value mm = self.getattr("moving_mean");
  Value mv = self.getattr("moving_variance");
  Kwargs kwargs{{"mean", mm},
                {"variance", mv},
                {"epsilon", self.getattr("epsilon")},
                {"data_format", Value(format)},
                {"is_training", Value(training)}};
  // Keras passes exponential_avg_factor = 1 - momentum when training.
  if (training) kwargs.emplace_back("exponential_avg_factor", Value(1.0 - self.getattr("momentum").as_float()));
  Value out = tf::api::fused_batch_norm({x, gamma, beta}, std::move(kwargs));
  std::vector<Value> parts = out.items();
  if (training && update) {
    {
      tf::common::NameScope scope("AssignNewValue");
      variable_value::assign(mm, parts[1], variable_value::AssignOp::Assign);
    }
    tf::common::NameScope scope("AssignNewValue");
    variable_value::assign(mv, parts[2], variable_value::AssignOp::Assign);
  }
  Value y = parts[0];
  if (!shape5.is_none()) y = tf::reshape(y, shape5);
  return y;
}

/// _assign_moving_average: variable.assign_sub((variable - value) · decay),
/// decay = 1 - momentum as a float32 constant.
void assign_moving_average(const Value& var, const Value& value, double momentum) {
  tf::common::NameScope scope("AssignMovingAvg");
  Value decay = tf::constant(Value(1.0 - momentum), DType::Float32);
  Value delta = (Value(variable_value::read(var)) - value) * decay;
  variable_value::assign(var, delta, variable_value::AssignOp::Sub);
}

/// The non-fused path: tf.nn.moments (weighted_moments under a mask), the
/// updates, tf.nn.batch_normalization.
Value bn_plain(const Value& self, const Value& x, bool training, bool update, const Value& mask) {
  const int64_t ndims = self.getattr("_agc_rank").as_int();
  std::vector<int64_t> axis = axis_list(self.getattr("axis"));
  std::vector<int64_t> reduction;
  for (int64_t i = 0; i < ndims; ++i) {
    if (std::find(axis.begin(), axis.end(), i) == axis.end()) reduction.push_back(i);
  }
  std::vector<int64_t> leading;
  for (int64_t i = 0; i + 1 < ndims; ++i) leading.push_back(i);
  std::vector<int64_t> broadcast_shape(static_cast<size_t>(ndims), 1);
  std::vector<int64_t> param_shape = axis_list(self.getattr("_agc_param_shape"));
  broadcast_shape[static_cast<size_t>(axis[0])] = param_shape[axis.size() == 1 ? 0 : static_cast<size_t>(axis[0])];
  // Single-axis statistics broadcast as they are unless the axis is not last.
  auto broadcast = [&](const Value& v) -> Value {
    if (v.is_none()) return v;
    const int64_t r = v.is_variable() ? variable_value::read(v).shape().rank() : v.as_tensor().shape().rank();
    if (r != ndims && reduction != leading) return tf::reshape(v, ints_list(broadcast_shape));
    return v;
  };
  Value scale = broadcast(self.getattr("gamma"));
  Value offset = broadcast(self.getattr("beta"));
  Value mean, variance;
  if (!training) {
    mean = Value(variable_value::read(self.getattr("moving_mean")));
    variance = Value(variable_value::read(self.getattr("moving_variance")));
  } else {
    const bool keep_dims = axis.size() > 1;
    Value moments;
    if (mask.is_none()) {
      moments = tf::api::moments({x, ints_list(reduction)}, {{"keepdims", Value(keep_dims)}});
    } else {
      Value weights = tf::expand_dims(tf::cast(mask, DType::Float32, "mask_weights"), Value(-1),
                                      "mask_weights_broadcasted");
      moments = tf::api::weighted_moments({x}, {{"axes", ints_list(reduction)},
                                                {"frequency_weights", weights},
                                                {"keepdims", Value(keep_dims)}});
    }
    mean = moments.items()[0];
    variance = moments.items()[1];
    if (update) {
      const double momentum = self.getattr("momentum").as_float();
      assign_moving_average(self.getattr("moving_mean"), mean, momentum);
      assign_moving_average(self.getattr("moving_variance"), variance, momentum);
    }
  }
  return tf::api::batch_normalization({x, broadcast(mean), broadcast(variance), offset, scale, self.getattr("epsilon")},
                                      {});
}

Value make_batch_normalization() {
  return make_layer_class(LayerDef{
      .name = "BatchNormalization",
      .init_params = {{"axis", Value(-1)},
                      {"momentum", Value(0.99)},
                      {"epsilon", Value(1e-3)},
                      {"center", Value(true)},
                      {"scale", Value(true)},
                      {"beta_initializer", Value("zeros")},
                      {"gamma_initializer", Value("ones")},
                      {"moving_mean_initializer", Value("zeros")},
                      {"moving_variance_initializer", Value("ones")},
                      {"beta_regularizer", Value()},
                      {"gamma_regularizer", Value()},
                      {"beta_constraint", Value()},
                      {"gamma_constraint", Value()},
                      {"synchronized", Value(false)},
                      {"fused", Value()},
                      {"name", Value()},
                      {"trainable", Value(true)},
                      {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[16], a[17], a[18], a[19]);
            Value axis = norm_axis_arg(a[1]);
            Value fused = a[15];
            const bool synchronized = truthy(a[14]);
            if (synchronized && truthy(fused)) {
              throw ValueError("`fused=True` is not supported when `synchronized=True`.");
            }
            if (synchronized) fused = Value(false);
            if (truthy(fused)) {
              if (!fused_axis_ok(axis)) {
                throw ValueError("Passing `fused=True` is only supported when axis is 1 or 3 for input rank = 4 or 1 "
                                 "or 4 for input rank = 5. Got axis " + str(axis.is_int() ? Value::list({axis}) : axis));
              }
            } else if (fused.is_none() && !fused_axis_ok(axis)) {
              fused = Value(false);
            }
            self.setattr("axis", axis);
            self.setattr("momentum", a[2]);
            self.setattr("epsilon", a[3]);
            self.setattr("center", Value(truthy(a[4])));
            self.setattr("scale", Value(truthy(a[5])));
            self.setattr("beta_initializer", a[6]);
            self.setattr("gamma_initializer", a[7]);
            self.setattr("moving_mean_initializer", a[8]);
            self.setattr("moving_variance_initializer", a[9]);
            self.setattr("beta_regularizer", a[10]);
            self.setattr("gamma_regularizer", a[11]);
            self.setattr("synchronized", Value(synchronized));
            self.setattr("fused", fused.is_none() ? fused : Value(truthy(fused)));
            self.setattr("supports_masking", Value(true));
          },
      .build = bn_build,
      .call_params = {{"training", Value()}, {"mask", Value()}},
      .call =
          [](const std::vector<Value>& a) {
            const Value& self = a[0];
            Value x = tf::cast(a[1], DType::Float32);
            bn_check_input(self, x);
            const bool training = bn_training(self, a[2]);
            // A symbolic call (keras.Input) is never run: it records no update.
            const bool update = !is_symbolic(x);
            if (truthy(self.getattr("fused"))) return bn_fused(self, x, training, update);
            return bn_plain(self, x, training, update, a[3]);
          },
      .config = {"axis", "momentum", "epsilon", "center", "scale", "beta_initializer", "gamma_initializer",
                 "moving_mean_initializer", "moving_variance_initializer", "beta_regularizer", "gamma_regularizer"},
  });
}

Value make_layer_normalization() {
  return make_layer_class(LayerDef{
      .name = "LayerNormalization",
      .init_params = {{"axis", Value(-1)},
                      {"epsilon", Value(1e-3)},
                      {"center", Value(true)},
                      {"scale", Value(true)},
                      {"beta_initializer", Value("zeros")},
                      {"gamma_initializer", Value("ones")},
                      {"beta_regularizer", Value()},
                      {"gamma_regularizer", Value()},
                      {"beta_constraint", Value()},
                      {"gamma_constraint", Value()},
                      {"name", Value()},
                      {"trainable", Value(true)},
                      {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[11], a[12], a[13], a[14]);
            self.setattr("axis", norm_axis_arg(a[1]));
            self.setattr("epsilon", a[2]);
            self.setattr("center", Value(truthy(a[3])));
            self.setattr("scale", Value(truthy(a[4])));
            self.setattr("beta_initializer", a[5]);
            self.setattr("gamma_initializer", a[6]);
            self.setattr("beta_regularizer", a[7]);
            self.setattr("gamma_regularizer", a[8]);
            self.setattr("supports_masking", Value(true));
          },
      .build =
          [](const Value& self, const Value& input_shape) {
            std::vector<int64_t> axis = validate_norm_axis(self.getattr("axis"), input_shape);
            std::vector<int64_t> dims = shape_ints(input_shape);
            const int64_t ndims = static_cast<int64_t>(dims.size());
            self.setattr("axis", ints_list(axis));
            std::vector<int64_t> param_shape;
            for (int64_t a : axis) param_shape.push_back(dims[static_cast<size_t>(a)]);
            self.setattr("gamma", truthy(self.getattr("scale"))
                                      ? add_weight(self, {"gamma", param_shape, self.getattr("gamma_initializer"),
                                                          self.getattr("gamma_regularizer")})
                                      : Value());
            self.setattr("beta", truthy(self.getattr("center"))
                                     ? add_weight(self, {"beta", param_shape, self.getattr("beta_initializer"),
                                                         self.getattr("beta_regularizer")})
                                     : Value());
            // _fused_can_be_used: trailing contiguous axes, epsilon at least
            // fused_batch_norm's floor.
            std::vector<int64_t> sorted = axis;
            std::sort(sorted.begin(), sorted.end());
            bool fused = sorted.back() == ndims - 1 &&
                         sorted.back() - sorted.front() == static_cast<int64_t>(sorted.size()) - 1;
            if (self.getattr("epsilon").as_float() < 1.001e-5) fused = false;
            self.setattr("_agc_fused", Value(fused));
          },
      .call =
          [](const std::vector<Value>& a) {
            const Value& self = a[0];
            Value x = tf::cast(a[1], DType::Float32);
            const Shape& s = x.as_tensor().shape();
            const int64_t ndims = s.rank();
            std::vector<int64_t> axis = axis_list(self.getattr("axis"));
            std::vector<int64_t> broadcast_shape(static_cast<size_t>(ndims), 1);
            for (int64_t d : axis) broadcast_shape[static_cast<size_t>(d)] = s.dim(static_cast<int>(d));
            auto broadcast = [&](const Value& v) -> Value {
              if (v.is_none()) return v;
              if (variable_value::read(v).shape().rank() != ndims && axis != std::vector<int64_t>{ndims - 1}) {
                return tf::reshape(v, ints_list(broadcast_shape));
              }
              return v;
            };
            if (!truthy(self.getattr("_agc_fused"))) {
              Value moments = tf::api::moments({x, ints_list(axis)}, {{"keepdims", Value(true)}});
              return tf::api::batch_normalization({x, moments.items()[0], moments.items()[1],
                                                   broadcast(self.getattr("beta")), broadcast(self.getattr("gamma")),
                                                   self.getattr("epsilon")},
                                                  {});
            }
            // Collapse the dims before the axes and the axes' dims: [1, pre, in, 1], NCHW.
            std::sort(axis.begin(), axis.end());
            Value tensor_shape = tf::api::shape({x}, {});
            Value pre = tf::reduce_prod(getslice(tensor_shape, SliceSpec{Value(), Value(axis[0]), Value()}));
            Value in = tf::reduce_prod(getslice(tensor_shape, SliceSpec{Value(axis[0]), Value(), Value()}));
            Value squeezed = tf::reshape(x, tf::api::stack({Value::list({Value(1), pre, in, Value(1)})}, {}));
            Value ones = tf::ones(Value::list({pre}));
            Value zeros = tf::zeros(Value::list({pre}));
            Value out = tf::api::fused_batch_norm({squeezed, ones, zeros}, {{"epsilon", self.getattr("epsilon")},
                                                                             {"data_format", Value("NCHW")}});
            Value y = tf::reshape(out.items()[0], tensor_shape);
            Value scale = broadcast(self.getattr("gamma"));
            Value offset = broadcast(self.getattr("beta"));
            auto as_tensor = [](const Value& v) { return v.is_variable() ? Value(variable_value::read(v)) : v; };
            if (!scale.is_none()) y = y * as_tensor(scale);
            if (!offset.is_none()) y = y + as_tensor(offset);
            return y;
          },
      .config = {"axis", "epsilon", "center", "scale", "beta_initializer", "gamma_initializer", "beta_regularizer",
                 "gamma_regularizer"},
  });
}

/// Normalization's axis as Keras standardizes it: None -> (), an int -> (axis,).
Value preprocessing_axis(const Value& axis) {
  if (axis.is_none()) return Value::tuple({});
  if (axis.is_int()) return Value::tuple({axis});
  return Value::tuple(iterate(axis));
}

/// finalize_state: the statistics as tensors of the broadcast shape.
void normalization_finalize(const Value& self) {
  if (!self.getattr("input_mean").is_none() || !truthy(self.getattr("built"))) return;
  Value shape = self.getattr("_agc_broadcast_shape");
  self.setattr("mean", tf::reshape(self.getattr("adapt_mean"), shape));
  self.setattr("variance", tf::reshape(self.getattr("adapt_variance"), shape));
}

void normalization_build(const Value& self, const Value& input_shape) {
  if (input_shape.is_list() || input_shape.is_tuple()) {
    throw ValueError("Normalization only accepts a single input. If you are passing a python list or tuple as a single "
                     "input, please convert to a numpy array or `tf.Tensor`.");
  }
  std::vector<int64_t> dims = shape_ints(input_shape);
  const int64_t ndim = static_cast<int64_t>(dims.size());
  Value axis = self.getattr("axis");
  std::vector<int64_t> keep;
  for (const Value& a : iterate(axis)) {
    int64_t d = a.as_int();
    if (d < -ndim || d >= ndim) {
      throw ValueError("All `axis` values must be in the range [-ndim, ndim). Found ndim: `" + std::to_string(ndim) +
                       "`, axis: " + str(axis));
    }
    keep.push_back(d < 0 ? d + ndim : d);
  }
  std::sort(keep.begin(), keep.end());
  for (int64_t d : keep) {
    if (dims[static_cast<size_t>(d)] < 0) {
      std::string list = "[";
      for (size_t i = 0; i < dims.size(); ++i) list += (i ? ", " : "") + (dims[i] < 0 ? "None" : std::to_string(dims[i]));
      throw ValueError("All `axis` values to be kept must have known shape. Got axis: " + str(axis) +
                       ", input shape: " + list + "], with unknown axis at index: " + std::to_string(d));
    }
  }
  std::vector<int64_t> reduce, broadcast, stats_shape;
  for (int64_t d = 0; d < ndim; ++d) {
    const bool kept = std::find(keep.begin(), keep.end(), d) != keep.end();
    if (!kept) reduce.push_back(d);
    broadcast.push_back(kept ? dims[static_cast<size_t>(d)] : 1);
    if (kept) stats_shape.push_back(dims[static_cast<size_t>(d)]);
  }
  self.setattr("_agc_reduce_axis", ints_list(reduce));
  self.setattr("_agc_broadcast_shape", ints_list(broadcast));
  if (self.getattr("input_mean").is_none()) {
    self.setattr("adapt_mean", add_weight(self, {"mean", stats_shape, Value("zeros"), Value(), false}));
    self.setattr("adapt_variance", add_weight(self, {"variance", stats_shape, Value("ones"), Value(), false}));
    self.setattr("count", add_weight(self, {"count", {}, Value("zeros"), Value(), false, DType::Int64}));
    self.setattr("built", Value(true));
    normalization_finalize(self);
  } else {
    // input_mean * np.ones(shape) in float64, reshaped, cast to float32.
    auto stat = [&](const Value& v) {
      Value full = tf::constant(v, DType::Float64) * tf::ones(ints_list(stats_shape), DType::Float64);
      return tf::cast(tf::reshape(full, ints_list(broadcast)), DType::Float32);
    };
    self.setattr("mean", stat(self.getattr("input_mean")));
    self.setattr("variance", stat(self.getattr("input_variance")));
  }
}

/// update_state(data): the running mean and variance merged with the batch's
/// by the counts (the lack-of-fit sum of squares), as Keras writes it.
Value normalization_update_state(const std::vector<Value>& a) {
  const Value& self = a[0];
  if (!self.getattr("input_mean").is_none()) {
    throw ValueError("Cannot `adapt` a Normalization layer that is initialized with static `mean` and `variance`, you "
                     "passed mean " + str(self.getattr("input_mean")) + " and variance " +
                     str(self.getattr("input_variance")) + ".");
  }
  if (!truthy(self.getattr("built"))) throw RuntimeError("`build` must be called before `update_state`.");
  Value data = tf::cast(Value(to_tensor(a[1])), DType::Float32);
  Value reduce = self.getattr("_agc_reduce_axis");
  Value moments = tf::api::moments({data, reduce}, {});
  Value batch_mean = moments.items()[0], batch_variance = moments.items()[1];
  Value batch_count = Value(int64_t{1});
  if (!iterate(reduce).empty()) {
    Value batch_shape = tf::shape(data, DType::Int64);
    batch_count = tf::reduce_prod(tf::api::gather({batch_shape, reduce}, {}));
  }
  Value count = self.getattr("count");
  Value mean = Value(variable_value::read(self.getattr("adapt_mean")));
  Value variance = Value(variable_value::read(self.getattr("adapt_variance")));
  Value total_count = batch_count + Value(variable_value::read(count));
  Value batch_weight = tf::cast(batch_count, DType::Float32) / tf::cast(total_count, DType::Float32);
  Value existing_weight = Value(1.0) - batch_weight;
  Value total_mean = mean * existing_weight + batch_mean * batch_weight;
  Value total_variance = (variance + tf::api::pow({mean - total_mean, Value(2)}, {})) * existing_weight +
                         (batch_variance + tf::api::pow({batch_mean - total_mean, Value(2)}, {})) * batch_weight;
  variable_value::assign(self.getattr("adapt_mean"), total_mean, variable_value::AssignOp::Assign);
  variable_value::assign(self.getattr("adapt_variance"), total_variance, variable_value::AssignOp::Assign);
  variable_value::assign(count, total_count, variable_value::AssignOp::Assign);
  return Value();
}

Value normalization_reset_state(const std::vector<Value>& a) {
  const Value& self = a[0];
  if (!self.getattr("input_mean").is_none() || !truthy(self.getattr("built"))) return Value();
  for (const char* name : {"adapt_mean", "adapt_variance", "count"}) {
    Value var = self.getattr(name);
    Value t(variable_value::read(var));
    variable_value::assign(var, std::string(name) == "adapt_variance" ? tf::ones_like(t) : tf::zeros_like(t),
                           variable_value::AssignOp::Assign);
  }
  return Value();
}

/// adapt(data, batch_size=None, steps=None): update_state over the batches
/// Keras's data handler makes (arrays cut into batch_size rows, 32 unless
/// given, in order; a dataset's elements), building on the first, then
/// finalize_state.
Value normalization_adapt(const std::vector<Value>& a) {
  const Value& self = a[0];
  if (truthy(self.getattr("built"))) normalization_reset_state({self});
  std::vector<Value> batches;
  if (a[1].is_object() && a[1].type_name().find("Dataset") != std::string::npos) {
    batches = iterate(a[1]);
  } else {
    Value data(to_tensor(a[1]));
    const Shape& s = data.as_tensor().shape();
    const int64_t rows = s.rank() > 0 ? s.dim(0) : 1;
    const int64_t size = a[2].is_none() ? 32 : a[2].as_int();
    if (s.rank() == 0) {
      batches.push_back(data);
    } else {
      for (int64_t begin = 0; begin < rows; begin += size) {
        batches.push_back(getslice(data, SliceSpec{Value(begin), Value(std::min(begin + size, rows)), Value()}));
      }
    }
  }
  if (!a[3].is_none() && static_cast<int64_t>(batches.size()) > a[3].as_int()) {
    batches.resize(static_cast<size_t>(a[3].as_int()));
  }
  for (const Value& batch : batches) {
    if (!truthy(self.getattr("built"))) {
      Value t(to_tensor(batch));
      const Shape& s = t.as_tensor().shape();
      if (!self.hasattr("_batch_input_shape")) {
        self.setattr("_batch_input_shape", Value::tuple(std::vector<Value>(static_cast<size_t>(s.rank()), Value())));
      }
      self.getattr("build")({tensor_shape(s)}, {});
    }
    normalization_update_state({self, batch});
  }
  normalization_finalize(self);
  return Value();
}

Value make_normalization() {
  return make_layer_class(LayerDef{
      .name = "Normalization",
      .init_params = {{"axis", Value(-1)},
                      {"mean", Value()},
                      {"variance", Value()},
                      {"invert", Value(false)},
                      {"name", Value()},
                      {"trainable", Value(true)},
                      {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[5], a[6], a[7], a[8]);
            self.setattr("axis", preprocessing_axis(a[1]));
            if (a[2].is_variable()) {
              throw ValueError("Normalization does not support passing a Variable for the `mean` init arg.");
            }
            if (a[3].is_variable()) {
              throw ValueError("Normalization does not support passing a Variable for the `variance` init arg.");
            }
            if (a[2].is_none() != a[3].is_none()) {
              throw ValueError("When setting values directly, both `mean` and `variance` must be set. Got mean: " +
                               str(a[2]) + " and variance: " + str(a[3]));
            }
            self.setattr("input_mean", a[2]);
            self.setattr("input_variance", a[3]);
            self.setattr("invert", Value(truthy(a[4])));
          },
      .build = normalization_build,
      .call =
          [](const std::vector<Value>& a) {
            const Value& self = a[0];
            Value x = tf::cast(Value(to_tensor(a[1])), DType::Float32);
            Value mean = self.getattr("mean");
            Value scale = tf::maximum(tf::sqrt(self.getattr("variance")), Value(1e-7));
            if (truthy(self.getattr("invert"))) return mean + x * scale;
            return (x - mean) / scale;
          },
      .methods = {native_method("Normalization.adapt", "adapt",
                                {{"self", std::nullopt}, {"data", std::nullopt}, {"batch_size", Value()}, {"steps", Value()}},
                                normalization_adapt),
                  native_method("Normalization.update_state", "update_state",
                                {{"self", std::nullopt}, {"data", std::nullopt}}, normalization_update_state),
                  native_method("Normalization.reset_state", "reset_state", {{"self", std::nullopt}},
                                normalization_reset_state),
                  native_method("Normalization.finalize_state", "finalize_state", {{"self", std::nullopt}},
                                [](const std::vector<Value>& a) -> Value {
                                  normalization_finalize(a[0]);
                                  return Value();
                                })},
      .config = {"axis", "invert"},
  });
}

}  // namespace
}  // namespace ag::keras

namespace ag::tf::api {

const Value& keras_layers_Normalization() {
  static const Value cls = keras::make_normalization();
  return cls;
}

const Value& keras_layers_BatchNormalization() {
  static const Value cls = keras::make_batch_normalization();
  return cls;
}

const Value& keras_layers_LayerNormalization() {
  static const Value cls = keras::make_layer_normalization();
  return cls;
}

}  // namespace ag::tf::api
