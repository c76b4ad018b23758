// tf.keras.layers.Attention (Luong's dot-product attention, or the "concat"
// score) and AdditiveAttention (Bahdanau's), as Keras 2.15's
// BaseDenseAttention runs them: called on [query, value] or [query, value,
// key] with mask=[query_mask, value_mask]; the value mask (and the causal
// one) push masked scores down by 1e9 before the softmax, dropout on the
// weights only while training, the query mask zeroes the output rows, and
// the output's mask is the query's. The call checks and texts are Keras's.
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/keras/layer.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"

namespace ag::keras {
namespace {

/// BaseDenseAttention._validate_call_args, its texts naming the class.
void validate_attention_args(const Value& self, const Value& inputs, const Value& mask) {
  std::string cls = self.type_name();
  if (!inputs.is_list()) {
    throw ValueError(cls + " layer must be called on a list of inputs, namely [query, value] or [query, value, key]. "
                           "Received: " + str(inputs) + ".");
  }
  size_t n = inputs.items().size();
  if (n < 2 || n > 3) {
    throw ValueError(cls + " layer accepts inputs list of length 2 or 3, namely [query, value] or [query, value, "
                           "key]. Received length: " + std::to_string(n) + ".");
  }
  if (truthy(mask)) {
    if (!mask.is_list()) {
      throw ValueError(cls + " layer mask must be a list, namely [query_mask, value_mask]. Received: " + str(mask) +
                       ".");
    }
    size_t m = mask.items().size();
    if (m < 2 || m > n) {
      throw ValueError(cls + " layer mask must be a list of length 2, namely [query_mask, value_mask]. Received "
                             "length: " + std::to_string(m) + ".");
    }
  }
}

/// `training` as the layer's smart_cond takes it: None is Keras's learning
/// phase (0 outside fit).
bool attention_training(const Value& training) {
  if (training.is_none()) return false;
  if (training.is_tensor() && training.as_tensor().symbolic()) {
    throw UnimplementedError("agc: a symbolic `training` tensor is not supported; pass a Python bool");
  }
  return truthy(training);
}

/// dims[axis] of x, static when known, else read from tf.shape(x).
Value attention_dim(const Value& x, int axis) {
  const Shape& s = x.as_tensor().shape();
  int a = axis < 0 ? axis + s.rank() : axis;
  if (s.dim(a) >= 0) return Value(s.dim(a));
  return tf::api::gather({tf::shape(x), Value(a)}, {});
}

/// _lower_triangular_mask over the scores' last two dims, ones before them:
/// row index >= column index.
Value lower_triangular_mask(const Value& scores) {
  int rank = scores.as_tensor().shape().rank();
  std::vector<Value> dims(static_cast<size_t>(rank - 2), Value(1));
  dims.push_back(attention_dim(scores, -2));
  dims.push_back(attention_dim(scores, -1));
  bool known = !dims[dims.size() - 2].is_tensor() && !dims.back().is_tensor();
  Value shape = known ? Value::list(dims) : tf::stack(Value::list(dims));
  Value ones = tf::ones(shape, DType::Int32);
  Value rows = tf::api::cumsum({ones}, {{"axis", Value(-2)}});
  Value cols = tf::api::cumsum({ones}, {{"axis", Value(-1)}});
  return tf::greater_equal(rows, cols);
}

using ScoreFn = Value (*)(const Value& self, const Value& query, const Value& key);

/// Attention._calculate_scores: q·kᵀ (times `scale`), or for score_mode
/// "concat" concat_score_weight * sum(tanh(scale * (q + k))).
Value dot_scores(const Value& self, const Value& query, const Value& key) {
  Value scale = self.getattr("scale");
  if (str(self.getattr("score_mode")) == "dot") {
    Value scores = tf::matmul(query, key, false, true);
    return scale.is_none() ? scores : tf::multiply(scores, scale);
  }
  Value sum = tf::add(tf::expand_dims(query, Value(-2)), tf::expand_dims(key, Value(-3)));
  if (!scale.is_none()) sum = tf::multiply(scale, sum);
  return tf::multiply(self.getattr("concat_score_weight"), tf::reduce_sum(tf::tanh(sum), Value(-1)));
}

/// AdditiveAttention._calculate_scores: sum(scale * tanh(q + k)) over the features.
Value additive_scores(const Value& self, const Value& query, const Value& key) {
  Value t = tf::tanh(tf::add(tf::expand_dims(query, Value(-2)), tf::expand_dims(key, Value(-3))));
  if (truthy(self.getattr("use_scale"))) t = tf::multiply(self.getattr("scale"), t);
  return tf::reduce_sum(t, Value(-1));
}

/// BaseDenseAttention.call.
Value dense_attention_call(const std::vector<Value>& a, ScoreFn scores_of) {
  const Value& self = a[0];
  const Value& inputs = a[1];
  const Value& mask = a[2];
  validate_attention_args(self, inputs, mask);
  const std::vector<Value>& in = inputs.items();
  Value q = in[0], v = in[1];
  Value k = in.size() > 2 ? in[2] : v;
  bool masked = truthy(mask);
  Value q_mask = masked ? mask.items()[0] : Value();
  Value v_mask = masked ? mask.items()[1] : Value();
  Value scores = scores_of(self, q, k);
  Value scores_mask = v_mask.is_none() ? Value() : tf::expand_dims(v_mask, Value(-2));  // [batch, 1, Tv]
  if (truthy(self.getattr("causal")) || truthy(a[5])) {
    Value causal = lower_triangular_mask(scores);
    scores_mask = scores_mask.is_none() ? causal : tf::logical_and(scores_mask, causal);
  }
  // _apply_scores: masked positions pushed down by 1e9, the softmax, dropout while training.
  if (!scores_mask.is_none()) {
    Value padding = tf::cast(tf::logical_not(scores_mask), scores.as_tensor().dtype());
    scores = tf::subtract(scores, tf::multiply(Value(1.0e9), padding));
  }
  Value weights = tf::softmax(scores);
  double rate = self.getattr("dropout").as_float();
  if (rate > 0) {
    weights = attention_training(a[3]) ? tf::dropout(weights, Value(rate)) : tf::api::identity({weights}, {});
  }
  Value result = tf::matmul(weights, v);
  if (!q_mask.is_none()) {
    Value keep = tf::cast(tf::expand_dims(q_mask, Value(-1)), result.as_tensor().dtype());  // [batch, Tq, 1]
    result = tf::multiply(result, keep);
  }
  if (truthy(a[4])) return Value::tuple({result, weights});
  return result;
}

/// BaseDenseAttention.compute_mask: the query's mask.
Value dense_attention_mask(const std::vector<Value>& a) {
  validate_attention_args(a[0], a[1], a[2]);
  if (!truthy(a[2])) return Value();
  Value q_mask = a[2].items()[0];
  return q_mask.is_none() ? q_mask : Value(to_tensor(q_mask));
}

/// BaseDenseAttention.__init__'s part: dropout and the deprecated `causal`.
void init_dense_attention(const Value& self, const Value& dropout, const Value& causal) {
  self.setattr("supports_masking", Value(true));
  self.setattr("dropout", dropout);
  self.setattr("causal", Value(truthy(causal)));
}

std::vector<Param> dense_attention_call_params() {
  return {{"mask", Value()}, {"training", Value()}, {"return_attention_scores", Value(false)},
          {"use_causal_mask", Value(false)}};
}

Value make_attention() {
  return make_layer_class(LayerDef{
      .name = "Attention",
      .init_params = {{"use_scale", Value(false)},
                      {"score_mode", Value("dot")},
                      {"dropout", Value(0.0)},
                      {"causal", Value(false)},
                      {"name", Value()},
                      {"trainable", Value(true)},
                      {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[5], a[6], a[7], a[8]);
            init_dense_attention(self, a[3], a[4]);
            self.setattr("use_scale", a[1]);
            self.setattr("score_mode", a[2]);
            if (!a[2].is_str() || (a[2].as_str() != "dot" && a[2].as_str() != "concat")) {
              throw ValueError("Received: score_mode=" + str(a[2]) + ". Acceptable values are: [\"dot\", \"concat\"]");
            }
          },
      .build =
          [](const Value& self, const Value&) {
            self.setattr("scale", truthy(self.getattr("use_scale"))
                                      ? add_weight(self, {"scale", {}, Value("ones"), Value()})
                                      : Value());
            self.setattr("concat_score_weight", str(self.getattr("score_mode")) == "concat"
                                                    ? add_weight(self, {"concat_score_weight", {}, Value("ones"), Value()})
                                                    : Value());
          },
      .call_params = dense_attention_call_params(),
      .call = [](const std::vector<Value>& a) { return dense_attention_call(a, dot_scores); },
      .compute_mask = dense_attention_mask,
      .config = {"dropout", "use_scale", "score_mode"},
  });
}

Value make_additive_attention() {
  return make_layer_class(LayerDef{
      .name = "AdditiveAttention",
      .init_params = {{"use_scale", Value(true)},
                      {"dropout", Value(0.0)},
                      {"causal", Value(false)},
                      {"name", Value()},
                      {"trainable", Value(true)},
                      {"dtype", Value()}},
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[4], a[5], a[6], a[7]);
            init_dense_attention(self, a[2], a[3]);
            self.setattr("use_scale", a[1]);
          },
      .build =
          [](const Value& self, const Value& input_shape) {
            // The scale has the value's feature dim. A call on anything but a
            // list builds nothing, so that call() raises Keras's error for it.
            Value scale;
            if (truthy(self.getattr("use_scale")) && (input_shape.is_list() || input_shape.is_tuple()) &&
                input_shape.items().size() >= 2) {
              int64_t dim = shape_dim(input_shape.items()[1], -1);
              if (dim < 0) {
                throw ValueError("agc: AdditiveAttention needs the value's last dim to build its scale; got " +
                                 str(input_shape.items()[1]));
              }
              scale = add_weight(self, {"scale", {dim}, Value("glorot_uniform"), Value()});
            }
            self.setattr("scale", scale);
          },
      .call_params = dense_attention_call_params(),
      .call = [](const std::vector<Value>& a) { return dense_attention_call(a, additive_scores); },
      .compute_mask = dense_attention_mask,
      .config = {"dropout", "use_scale"},
  });
}

}  // namespace
}  // namespace ag::keras

namespace ag::tf::api {

const Value& keras_layers_Attention() {
  static const Value cls = keras::make_attention();
  return cls;
}

const Value& keras_layers_AdditiveAttention() {
  static const Value cls = keras::make_additive_attention();
  return cls;
}

}  // namespace ag::tf::api
