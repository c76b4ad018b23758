// tf.keras.layers.MultiHeadAttention, as Keras 2.15's: built on its first
// call from the shapes of query, value and key (_build_from_signature), as
// EinsumDense sublayers `query`, `key`, `value` (kernels [dim, heads,
// key_dim]) and `attention_output` ([heads, value_dim, dim]) with a Softmax
// and a Dropout between; the query scaled by 1/sqrt(key_dim) before the
// query-key einsum; the attention mask the AND of the one passed, the
// query's and value's (and key's) Keras masks and the causal one, applied by
// the Softmax layer's -1e9; dropout on the scores only while training. The
// output's mask is the query's (Keras's default compute_mask).
#include <cmath>
#include <string>

#include "runtime/api/checkpoint.h"
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/graph/tracing.h"
#include "runtime/keras/layer.h"
#include "runtime/keras/masking.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/tensor_shape_value.h"

namespace ag::keras {
namespace {

const std::string kLetters = "abcdefghijklmnopqrstuvwxyz";

/// _build_proj_equation: `free_dims` dims kept, `bound_dims` contracted
/// with the kernel, `output_dims` made by it (and biased).
struct ProjEquation {
  std::string equation, bias_axes;
  int output_rank = 0;
};

ProjEquation proj_equation(int free_dims, int bound_dims, int output_dims) {
  std::string input, kernel, output;
  int offset = 0;
  for (int i = 0; i < free_dims; ++i) {
    input += kLetters.at(offset + i);
    output += kLetters.at(offset + i);
  }
  offset += free_dims;
  for (int i = 0; i < bound_dims; ++i) {
    input += kLetters.at(offset + i);
    kernel += kLetters.at(offset + i);
  }
  offset += bound_dims;
  ProjEquation e;
  for (int i = 0; i < output_dims; ++i) {
    kernel += kLetters.at(offset + i);
    output += kLetters.at(offset + i);
    e.bias_axes += kLetters.at(offset + i);
  }
  e.equation = input + "," + kernel + "->" + output;
  e.output_rank = static_cast<int>(output.size());
  return e;
}

/// _build_attention_equation: projected tensors are (batch dims, attention
/// dims, heads, channels); the scores (batch dims, heads, query attention
/// dims, key attention dims).
struct AttentionEquations {
  std::string dot_product, combine;
  int scores_rank = 0;
};

AttentionEquations attention_equations(int rank, const std::vector<int>& attn_axes) {
  std::string target = kLetters.substr(0, static_cast<size_t>(rank));
  auto is_attention = [&](int i) { return std::find(attn_axes.begin(), attn_axes.end(), i) != attn_axes.end(); };
  std::vector<int> batch_dims;  // every dim but the attention ones and the last (the heads among them)
  for (int i = 0; i < rank; ++i) {
    if (!is_attention(i) && i != rank - 1) batch_dims.push_back(i);
  }
  std::string source;
  int offset = rank;
  for (int i = 0; i < rank; ++i) {
    bool batch = std::find(batch_dims.begin(), batch_dims.end(), i) != batch_dims.end();
    source += batch || i == rank - 1 ? target[i] : kLetters.at(offset++);
  }
  std::string product;
  for (int i : batch_dims) product += target[i];
  for (int i : attn_axes) product += target[i];
  for (int i : attn_axes) product += source[i];
  return {source + "," + target + "->" + product, product + "," + source + "->" + target,
          static_cast<int>(product.size())};
}

/// _get_output_shape: None for the dims in front of the known last ones.
Value partial_shape(int output_rank, const std::vector<Value>& known) {
  std::vector<Value> dims(static_cast<size_t>(std::max(0, output_rank - static_cast<int>(known.size()))), Value());
  for (const Value& d : known) dims.push_back(d);
  return Value::list(std::move(dims));
}

Shape static_shape(const Value& x) { return to_tensor(x).shape(); }

/// A call argument as Keras's sublayers take it: a tensor, floats as float32.
Value as_input(const Value& v) {
  if (v.is_none() || v.is_tensor()) return v;
  Value t(to_tensor(v));
  DType d = t.as_tensor().dtype();
  return is_floating(d) && d != DType::Float32 ? tf::cast(t, DType::Float32) : t;
}

/// The layer's constructor arguments every EinsumDense sublayer gets.
Kwargs sublayer_kwargs(const Value& self, const std::string& name, const Value& output_shape, const std::string& bias_axes) {
  Kwargs kw{{"output_shape", output_shape},
            {"bias_axes", truthy(self.getattr("_use_bias")) ? Value(bias_axes) : Value()},
            {"name", Value(name)}};
  // Keras clones the initializers from their configs: a seeded one gives
  // every sublayer the same draws, as passing it again does here.
  for (const char* key : {"kernel_initializer", "bias_initializer", "kernel_regularizer", "bias_regularizer",
                          "activity_regularizer", "kernel_constraint", "bias_constraint"}) {
    kw.emplace_back(key, self.getattr(std::string("_") + key));
  }
  return kw;
}

/// Builds an EinsumDense sublayer now, its weights named under the layer's
/// ("multi_head_attention/query/kernel:0"), as Keras's nested name scopes do.
void build_sublayer(const Value& sub, const Shape& input_shape) {
  struct Scope {
    explicit Scope(const std::string& name) : saved(eager_name_scope()) { set_eager_name_scope(saved + name + "/"); }
    ~Scope() { set_eager_name_scope(saved); }
    std::string saved;
  } scope(layer_name(sub));
  sub.getattr("build")({tensor_shape(input_shape)}, {});
}

/// _build_attention: the einsum equations over `rank`-dim projections, the
/// Softmax over the key attention dims and the Dropout on the scores.
void build_attention(const Value& self, int rank) {
  std::vector<int> axes;
  Value given = self.getattr("_attention_axes");
  if (given.is_none()) {
    for (int i = 1; i < rank - 2; ++i) axes.push_back(i);
  } else {
    for (const Value& a : iterate(given)) {
      int64_t i = a.as_int();
      axes.push_back(static_cast<int>(i < 0 ? i + rank : i));
    }
  }
  std::vector<Value> axes_values;
  for (int i : axes) axes_values.emplace_back(i);
  self.setattr("_attention_axes", Value::tuple(axes_values));
  AttentionEquations eq = attention_equations(rank, axes);
  self.setattr("_dot_product_equation", Value(eq.dot_product));
  self.setattr("_combine_equation", Value(eq.combine));
  std::vector<Value> norm_axes;
  for (int i = eq.scores_rank - static_cast<int>(axes.size()); i < eq.scores_rank; ++i) norm_axes.emplace_back(i);
  self.setattr("_softmax", tf::api::keras_layers_Softmax()({}, {{"axis", Value::tuple(std::move(norm_axes))}}));
  self.setattr("_dropout_layer", tf::api::keras_layers_Dropout()({}, {{"rate", self.getattr("_dropout")}}));
}

/// _build_from_signature: the sublayers for these shapes, built at once.
void build_from_signature(const Value& self, const Value& query, const Value& value, const Value& key) {
  self.setattr("_built_from_signature", Value(true));
  Shape query_shape = static_shape(query), value_shape = static_shape(value);
  Shape key_shape = key.is_none() ? value_shape : static_shape(key);
  if (!query_shape.rank_known() || !value_shape.rank_known() || !key_shape.rank_known()) {
    throw ValueError("agc: MultiHeadAttention needs inputs of known rank");
  }
  self.setattr("_query_shape", tensor_shape(query_shape));
  self.setattr("_value_shape", tensor_shape(value_shape));
  self.setattr("_key_shape", tensor_shape(key_shape));
  EagerScope init_scope;
  const Value& einsum_dense = tf::api::keras_layers_EinsumDense();
  Value heads = self.getattr("_num_heads"), key_dim = self.getattr("_key_dim"), value_dim = self.getattr("_value_dim");
  int free_dims = query_shape.rank() - 1;
  auto projection = [&](const char* name, int rank, const Value& dim) {
    ProjEquation e = proj_equation(rank - 1, 1, 2);
    Value layer = einsum_dense({Value(e.equation)},
                               sublayer_kwargs(self, name, partial_shape(e.output_rank - 1, {heads, dim}), e.bias_axes));
    return std::make_pair(layer, e.output_rank);
  };
  Value query_dense = projection("query", query_shape.rank(), key_dim).first;
  self.setattr("_query_dense", query_dense);
  Value key_dense = projection("key", key_shape.rank(), key_dim).first;
  self.setattr("_key_dense", key_dense);
  auto [value_dense, value_rank] = projection("value", value_shape.rank(), value_dim);
  self.setattr("_value_dense", value_dense);
  // Keras builds the attention for the rank of the last projection made, the value's.
  build_attention(self, value_rank);
  // _make_output_dense: back to the query's last dim, or to output_shape.
  std::vector<Value> out_shape;
  Value given = self.getattr("_output_shape");
  if (truthy(given)) {
    out_shape = given.is_list() || given.is_tuple() ? given.items() : std::vector<Value>{given};
  } else {
    int64_t last = query_shape.dim(query_shape.rank() - 1);
    out_shape = {last < 0 ? Value() : Value(last)};
  }
  ProjEquation oe = proj_equation(free_dims, 2, static_cast<int>(out_shape.size()));
  Value output_dense = einsum_dense(
      {Value(oe.equation)}, sublayer_kwargs(self, "attention_output", partial_shape(oe.output_rank - 1, out_shape), oe.bias_axes));
  self.setattr("_output_dense", output_dense);
  // The weights, in the order Keras's calls create them.
  build_sublayer(query_dense, query_shape);
  build_sublayer(key_dense, key_shape);
  build_sublayer(value_dense, value_shape);
  std::vector<int64_t> combined(query_shape.dims().begin(), query_shape.dims().end() - 1);
  combined.push_back(heads.as_int());
  combined.push_back(value_dim.as_int());
  build_sublayer(output_dense, Shape(std::span<const int64_t>(combined)));
  checkpoint_restore_deferred();
}

/// dims[axis] of x, static when known, else read from tf.shape(x).
Value mha_dim(const Value& x, int axis) {
  const Shape& s = x.as_tensor().shape();
  if (s.rank_known() && s.dim(axis) >= 0) return Value(s.dim(axis));
  return tf::api::gather({tf::shape(x), Value(axis)}, {});
}

/// _compute_causal_mask: [1, T, S], true on and below the diagonal.
Value causal_mask(const Value& query, const Value& value) {
  std::vector<Value> dims{Value(1), mha_dim(query, 1), mha_dim(value, 1)};
  bool known = !dims[1].is_tensor() && !dims[2].is_tensor();
  Value shape = known ? Value::list(dims) : tf::stack(Value::list(dims));
  return tf::api::band_part({tf::ones(shape, DType::Bool), Value(-1), Value(0)}, {});
}

/// _compute_attention_mask: the query's mask [B, T, 1], the value's and the
/// key's [B, 1, S] and the causal [1, T, S], ANDed with the one passed.
Value attention_mask_of(const Value& query, const Value& value, const Value& key, const Value& attention_mask,
                        bool use_causal_mask) {
  Value mask;
  auto merge = [&](const Value& m) { mask = mask.is_none() ? m : tf::logical_and(mask, m); };
  Value query_mask = implicit_mask(query);
  if (!query_mask.is_none()) merge(tf::expand_dims(tf::cast(query_mask, DType::Bool), Value(2)));  // mask[:, :, None]
  // The key is the value when none was given: Keras ANDs the value's mask twice then.
  for (const Value& t : {value, key}) {
    Value m = implicit_mask(t);
    if (!m.is_none()) merge(tf::expand_dims(tf::cast(m, DType::Bool), Value(1)));  // mask[:, None, :]
  }
  if (use_causal_mask) merge(causal_mask(query, value));
  if (mask.is_none()) return attention_mask;
  return attention_mask.is_none() ? mask : tf::logical_and(tf::cast(attention_mask, DType::Bool), mask);
}

/// _compute_attention: scaled query-key scores, the masked softmax, dropout
/// on the scores while training, and their combination with the values.
std::pair<Value, Value> compute_attention(const Value& self, const Value& query, const Value& key, const Value& value,
                                          Value attention_mask, const Value& training) {
  double scale = 1.0 / std::sqrt(static_cast<double>(self.getattr("_key_dim").as_int()));
  Value q = tf::multiply(query, Value(scale));
  Value scores = tf::einsum(str(self.getattr("_dot_product_equation")), key, q);
  if (!attention_mask.is_none()) {
    // _masked_softmax: the mask broadcast from the heads' axis on.
    int axes = static_cast<int>(self.getattr("_attention_axes").items().size());
    int missing = scores.as_tensor().shape().rank() - attention_mask.as_tensor().shape().rank();
    for (int i = 0; i < missing; ++i) attention_mask = tf::expand_dims(attention_mask, Value(-axes * 2 - 1));
  }
  scores = self.getattr("_softmax")({scores, attention_mask}, {});
  Value dropped = self.getattr("_dropout_layer")({scores}, {{"training", training}});
  return {tf::einsum(str(self.getattr("_combine_equation")), dropped, value), scores};
}

Value call_multi_head_attention(const std::vector<Value>& a) {
  const Value& self = a[0];
  Value query = a[1], value = as_input(a[2]), key = as_input(a[3]);
  if (!truthy(self.getattr("_built_from_signature"))) build_from_signature(self, query, value, key);
  if (key.is_none()) key = value;
  Value mask = attention_mask_of(query, value, key, a[4], truthy(a[7]));
  Value q = self.getattr("_query_dense")({query}, {});
  Value k = self.getattr("_key_dense")({key}, {});
  Value v = self.getattr("_value_dense")({value}, {});
  auto [output, scores] = compute_attention(self, q, k, v, mask, a[6]);
  output = self.getattr("_output_dense")({output}, {});
  if (truthy(a[5])) return Value::tuple({output, scores});
  return output;
}

/// compute_output_shape(query_shape, value_shape, key_shape=None), with Keras's checks.
Value mha_output_shape(const std::vector<Value>& a) {
  auto as_shape = [](const Value& v) {
    std::optional<Shape> s = tensor_shape_of(v);
    return s ? *s : *tensor_shape_of(tensor_shape_class()({v}, {}));
  };
  Shape query = as_shape(a[1]), value = as_shape(a[2]), key = a[3].is_none() ? value : as_shape(a[3]);
  auto last = [](const Shape& s) { return s.rank() > 0 ? s.dim(s.rank() - 1) : -1; };
  auto dim_str = [](int64_t d) { return d < 0 ? std::string("None") : std::to_string(d); };
  if (last(query) < 0 || last(value) < 0 || last(query) != last(value)) {
    // The last line of Keras's text is not an f-string: its braces print as written.
    throw ValueError("The last dimension of `query_shape` and `value_shape` must be equal, but are " +
                     dim_str(last(query)) + ", " + dim_str(last(value)) +
                     ". Received: query_shape={query_shape}, value_shape={value_shape}");
  }
  auto middle = [](const Shape& s) {
    std::vector<int64_t> d;
    for (int i = 1; i + 1 < s.rank(); ++i) d.push_back(s.dim(i));
    return d;
  };
  if (middle(value) != middle(key)) {
    throw ValueError("All dimensions of `value` and `key`, except the last one, must be equal. Received " +
                     str(tensor_shape(value)) + " and " + str(tensor_shape(key)));
  }
  Value given = a[0].getattr("_output_shape");
  if (!truthy(given)) return tensor_shape(query);
  std::vector<int64_t> dims(query.dims().begin(), query.dims().end() - 1);
  for (const Value& d : given.is_list() || given.is_tuple() ? given.items() : std::vector<Value>{given}) {
    dims.push_back(d.is_none() ? kUnknownDim : d.as_int());
  }
  return tensor_shape(Shape(std::span<const int64_t>(dims)));
}

Value mha_config(const std::vector<Value>& a) {
  const Value& self = a[0];
  Value config = layer_class().getattr("get_config")({self}, {});
  auto& d = config.as_dict();
  for (const char* key : {"num_heads", "key_dim", "value_dim", "dropout", "use_bias", "output_shape", "attention_axes",
                          "kernel_initializer", "bias_initializer", "kernel_regularizer", "bias_regularizer",
                          "activity_regularizer", "kernel_constraint", "bias_constraint", "query_shape", "key_shape",
                          "value_shape"}) {
    d.set(Value(key), self.getattr(std::string("_") + key));
  }
  return config;
}

}  // namespace

Value make_multi_head_attention() {
  return make_layer_class(LayerDef{
      .name = "MultiHeadAttention",
      .init_params = with_kernel_bias_params({{"num_heads", std::nullopt},
                                              {"key_dim", std::nullopt},
                                              {"value_dim", Value()},
                                              {"dropout", Value(0.0)},
                                              {"use_bias", Value(true)},
                                              {"output_shape", Value()},
                                              {"attention_axes", Value()}}),
      .init =
          [](const Value& self, const std::vector<Value>& a) {
            init_base(self, a[15], a[16], a[17], a[18]);
            self.setattr("supports_masking", Value(true));
            self.setattr("_num_heads", a[1]);
            self.setattr("_key_dim", a[2]);
            self.setattr("_value_dim", truthy(a[3]) ? a[3] : a[2]);
            self.setattr("_dropout", a[4]);
            self.setattr("_use_bias", a[5]);
            self.setattr("_output_shape", a[6]);
            self.setattr("_kernel_initializer", a[8]);
            self.setattr("_bias_initializer", a[9]);
            self.setattr("_kernel_regularizer", a[10]);
            self.setattr("_bias_regularizer", a[11]);
            self.setattr("_activity_regularizer", a[12]);
            self.setattr("_kernel_constraint", a[13]);
            self.setattr("_bias_constraint", a[14]);
            // A single axis becomes a tuple of one.
            bool sized = a[7].is_list() || a[7].is_tuple();
            self.setattr("_attention_axes", a[7].is_none() || sized ? a[7] : Value::tuple({a[7]}));
            self.setattr("_built_from_signature", Value(false));
            self.setattr("_query_shape", Value());
            self.setattr("_key_shape", Value());
            self.setattr("_value_shape", Value());
          },
      .inputs_param = "query",
      .call_params = {{"value", std::nullopt},
                      {"key", Value()},
                      {"attention_mask", Value()},
                      {"return_attention_scores", Value(false)},
                      {"training", Value()},
                      {"use_causal_mask", Value(false)}},
      .call = call_multi_head_attention,
      .methods = {native_method("MultiHeadAttention.get_config", "get_config", {{"self", std::nullopt}}, mha_config),
                  native_method("MultiHeadAttention.compute_output_shape", "compute_output_shape",
                                {{"self", std::nullopt},
                                 {"query_shape", std::nullopt},
                                 {"value_shape", std::nullopt},
                                 {"key_shape", Value()}},
                                mha_output_shape)},
      .config = {},
  });
}

}  // namespace ag::keras

namespace ag::tf::api {

const Value& keras_layers_MultiHeadAttention() {
  static const Value cls = keras::make_multi_head_attention();
  return cls;
}

}  // namespace ag::tf::api
