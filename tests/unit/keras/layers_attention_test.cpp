// tf.keras's attention layers: MultiHeadAttention
// (runtime/keras/layers_multi_head_attention.cpp), Attention and
// AdditiveAttention (layers_attention.cpp), EinsumDense and Softmax. Forward
// values against plain loops over heads and positions written here (double
// precision, the -1e9 of a masked score added in float32 as Keras's Softmax
// does, so a fully masked row comes out uniform as in TF); padding masks
// from Embedding(mask_zero=True), explicit and causal masks; dropout only
// while training; gradients of inputs and weights against central
// differences of the loops; Keras's weight names, output masks and texts.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/keras/masking.h"
#include "tests/unit/error_text.h"
#include "tests/unit/keras/layer_support.h"

using namespace ag;
using namespace ag::test;

namespace {

using Vec = std::vector<double>;

/// d loss / d param by central differences, `param` changed in place (the
/// loss reads it) and put back.
Vec central_differences(Vec& param, const std::function<double()>& loss) {
  Vec g(param.size());
  for (size_t i = 0; i < param.size(); ++i) {
    double saved = param[i];
    param[i] = saved + 1e-6;
    double up = loss();
    param[i] = saved - 1e-6;
    double down = loss();
    param[i] = saved;
    g[i] = (up - down) / 2e-6;
  }
  return g;
}

Value dtensor(const Vec& v, const std::vector<int64_t>& shape) {
  return tensor_of(std::vector<float>(v.begin(), v.end()), shape);
}

Vec ripple(size_t n, double scale, double phase) {
  Vec v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * std::sin(0.7 * static_cast<double>(i) + phase);
  return v;
}

bool close_all(const Value& got, const Vec& want, double tol) {
  return all_close(values_of(got), want, tol);
}

/// A [B, T, S] boolean mask as a tensor.
Value bool_tensor(const std::vector<int>& bits, const std::vector<int64_t>& shape) {
  std::vector<Value> items;
  for (int b : bits) items.emplace_back(b != 0);
  return tf::reshape(tf::constant(Value::list(std::move(items)), DType::Bool), Value::list({Value(shape[0]), Value(shape[1]), Value(shape.size() > 2 ? shape[2] : 1)}));
}

/// Softmax over a row whose masked entries get float32's -1e9 added, as
/// Keras's Softmax layer and BaseDenseAttention do (in float32 the masked
/// scores all round to -1e9, so a row with nothing kept is uniform).
Vec masked_softmax_row(Vec row, const std::vector<bool>& keep) {
  for (size_t i = 0; i < row.size(); ++i) {
    if (!keep[i]) row[i] = static_cast<double>(static_cast<float>(row[i]) + -1e9f);
  }
  double mx = row[0];
  for (double x : row) mx = std::max(mx, x);
  double sum = 0;
  for (double& x : row) sum += (x = std::exp(x - mx));
  for (double& x : row) x /= sum;
  return row;
}

// ---- MultiHeadAttention by loops.

struct MhaDims {
  int64_t b = 2, t = 3, s = 4;           // batch, query and value lengths
  int64_t dq = 4, dk = 3, dv = 5;        // the inputs' feature dims
  int64_t heads = 2, key = 3, value = 2;  // num_heads, key_dim, value_dim
};

struct MhaWeights {
  Vec wq, bq, wk, bk, wv, bv, wo, bo;
};

MhaWeights mha_weights(const MhaDims& d) {
  return {ripple(d.dq * d.heads * d.key, 0.6, 0.1),  ripple(d.heads * d.key, 0.2, 0.5),
          ripple(d.dk * d.heads * d.key, 0.5, 1.3),  ripple(d.heads * d.key, 0.2, 2.0),
          ripple(d.dv * d.heads * d.value, 0.7, 0.4), ripple(d.heads * d.value, 0.3, 1.1),
          ripple(d.heads * d.value * d.dq, 0.5, 2.7), ripple(d.dq, 0.1, 0.9)};
}

struct MhaResult {
  Vec out, scores;  // [B, T, dq], [B, heads, T, S]
};

/// keep(b, t, s): whether query t may attend to key s.
MhaResult mha_reference(const MhaDims& d, const MhaWeights& w, const Vec& query, const Vec& value, const Vec& key,
                        const std::function<bool(int64_t, int64_t, int64_t)>& keep) {
  auto project = [&](const Vec& x, int64_t len, int64_t in, const Vec& k, const Vec& bias, int64_t width) {
    Vec out(d.b * len * d.heads * width);
    for (int64_t b = 0; b < d.b; ++b)
      for (int64_t i = 0; i < len; ++i)
        for (int64_t h = 0; h < d.heads; ++h)
          for (int64_t j = 0; j < width; ++j) {
            double acc = bias[h * width + j];
            for (int64_t c = 0; c < in; ++c) acc += x[(b * len + i) * in + c] * k[(c * d.heads + h) * width + j];
            out[((b * len + i) * d.heads + h) * width + j] = acc;
          }
    return out;
  };
  Vec q = project(query, d.t, d.dq, w.wq, w.bq, d.key);
  Vec k = project(key, d.s, d.dk, w.wk, w.bk, d.key);
  Vec v = project(value, d.s, d.dv, w.wv, w.bv, d.value);
  double scale = 1.0 / std::sqrt(static_cast<double>(d.key));
  MhaResult r{Vec(d.b * d.t * d.dq), Vec(d.b * d.heads * d.t * d.s)};
  for (int64_t b = 0; b < d.b; ++b)
    for (int64_t h = 0; h < d.heads; ++h)
      for (int64_t t = 0; t < d.t; ++t) {
        Vec row(d.s);
        std::vector<bool> kept(d.s);
        for (int64_t s = 0; s < d.s; ++s) {
          double acc = 0;
          for (int64_t j = 0; j < d.key; ++j) {
            acc += q[((b * d.t + t) * d.heads + h) * d.key + j] * scale * k[((b * d.s + s) * d.heads + h) * d.key + j];
          }
          row[s] = acc;
          kept[s] = keep(b, t, s);
        }
        row = masked_softmax_row(row, kept);
        for (int64_t s = 0; s < d.s; ++s) r.scores[((b * d.heads + h) * d.t + t) * d.s + s] = row[s];
        // This head's context row through the output kernel.
        for (int64_t j = 0; j < d.value; ++j) {
          double ctx = 0;
          for (int64_t s = 0; s < d.s; ++s) ctx += row[s] * v[((b * d.s + s) * d.heads + h) * d.value + j];
          for (int64_t o = 0; o < d.dq; ++o) r.out[(b * d.t + t) * d.dq + o] += ctx * w.wo[(h * d.value + j) * d.dq + o];
        }
      }
  for (int64_t i = 0; i < d.b * d.t; ++i)
    for (int64_t o = 0; o < d.dq; ++o) r.out[i * d.dq + o] += w.bo[o];
  return r;
}

void set_mha_weights(const Value& layer, const MhaDims& d, const MhaWeights& w) {
  layer.getattr("set_weights")({Value::list({dtensor(w.wq, {d.dq, d.heads, d.key}), dtensor(w.bq, {d.heads, d.key}),
                                             dtensor(w.wk, {d.dk, d.heads, d.key}), dtensor(w.bk, {d.heads, d.key}),
                                             dtensor(w.wv, {d.dv, d.heads, d.value}), dtensor(w.bv, {d.heads, d.value}),
                                             dtensor(w.wo, {d.heads, d.value, d.dq}), dtensor(w.bo, {d.dq})})},
                               {});
}

Value make_mha(const MhaDims& d, Kwargs kwargs = {}) {
  kwargs.emplace_back("num_heads", Value(d.heads));
  kwargs.emplace_back("key_dim", Value(d.key));
  kwargs.emplace_back("value_dim", Value(d.value));
  return test::make_layer(tf::api::keras_layers_MultiHeadAttention(), {}, std::move(kwargs));
}

}  // namespace

TEST_CASE("MultiHeadAttention matches the loops; its weights are Keras's EinsumDense sublayers") {
  MhaDims d;
  MhaWeights w = mha_weights(d);
  Vec query = ripple(d.b * d.t * d.dq, 1.0, 0.3), value = ripple(d.b * d.s * d.dv, 1.0, 1.7), key = ripple(d.b * d.s * d.dk, 1.0, 2.9);
  Value layer = make_mha(d, {{"name", Value("mha")}});
  Value q = dtensor(query, {d.b, d.t, d.dq}), v = dtensor(value, {d.b, d.s, d.dv}), k = dtensor(key, {d.b, d.s, d.dk});
  layer({q, v}, {{"key", k}});
  CHECK(weight_names(layer) == std::vector<std::string>{"mha/query/kernel:0", "mha/query/bias:0", "mha/key/kernel:0",
                                                         "mha/key/bias:0", "mha/value/kernel:0", "mha/value/bias:0",
                                                         "mha/attention_output/kernel:0", "mha/attention_output/bias:0"});
  CHECK(weight_shapes(layer) == std::vector<std::string>{"(4, 2, 3)", "(2, 3)", "(3, 2, 3)", "(2, 3)", "(5, 2, 2)",
                                                          "(2, 2)", "(2, 2, 4)", "(4,)"});
  CHECK(layer.getattr("count_params")({}, {}).as_int() == 24 + 6 + 18 + 6 + 20 + 4 + 16 + 4);
  set_mha_weights(layer, d, w);
  MhaResult want = mha_reference(d, w, query, value, key, [](int64_t, int64_t, int64_t) { return true; });
  Value got = layer({q, v}, {{"key", k}, {"return_attention_scores", Value(true)}});
  REQUIRE(got.is_tuple());
  CHECK(str(got.items()[0].getattr("shape")) == "(2, 3, 4)");
  CHECK(str(got.items()[1].getattr("shape")) == "(2, 2, 3, 4)");
  CHECK(close_all(got.items()[0], want.out, 1e-5));
  CHECK(close_all(got.items()[1], want.scores, 1e-5));
  // Inside a tf.function.
  Value f = traced_function({"q", "v", "k"}, [&](const std::vector<Value>& a) {
    return layer({a[0], a[1]}, {{"key", a[2]}});
  });
  CHECK(close_all(f({q, v, k}), want.out, 1e-5));
  // output_shape projects elsewhere; the value's dim sizes the value kernel.
  Value shaped = make_mha(d, {{"output_shape", Value(7)}, {"use_bias", Value(false)}});
  Value out = shaped({q, v});
  CHECK(str(out.getattr("shape")) == "(2, 3, 7)");
  CHECK(weight_shapes(shaped) == std::vector<std::string>{"(4, 2, 3)", "(5, 2, 3)", "(5, 2, 2)", "(2, 2, 7)"});
  CHECK(str(shaped.getattr("compute_output_shape")({Value::tuple({Value(), Value(3), Value(4)}),
                                                     Value::tuple({Value(), Value(4), Value(4)})},
                                                    {})) == "(None, 3, 7)");
}

TEST_CASE("MultiHeadAttention masks: Embedding's padding, an explicit attention_mask and the causal one") {
  MhaDims d;
  d.dk = d.dv = d.dq;  // self-attention over embeddings
  d.s = d.t = 4;
  MhaWeights w = mha_weights(d);
  Value emb = test::make_layer(tf::api::keras_layers_Embedding(), {Value(6), Value(d.dq)}, {{"mask_zero", Value(true)}});
  Value ids = tf::constant(Value::list({Value::list({Value(2), Value(5), Value(0), Value(0)}),
                                        Value::list({Value(1), Value(3), Value(4), Value(0)})}));
  std::vector<std::vector<bool>> pad{{true, true, false, false}, {true, true, true, false}};
  Value x = emb({ids});
  Vec xs = widen_values(values_of(x));
  Value layer = make_mha(d);
  layer({x, x});
  set_mha_weights(layer, d, w);
  auto check = [&](const Value& got, const std::function<bool(int64_t, int64_t, int64_t)>& keep) {
    MhaResult want = mha_reference(d, w, xs, xs, xs, keep);
    CHECK(close_all(got.items()[0], want.out, 1e-5));
    CHECK(close_all(got.items()[1], want.scores, 1e-5));
  };
  // The embedding's mask reaches the layer implicitly: query rows and value columns.
  Value padded = layer({x, x}, {{"return_attention_scores", Value(true)}});
  check(padded, [&](int64_t b, int64_t t, int64_t s) { return pad[b][t] && pad[b][s]; });
  // A padded query attends evenly to every key (all its scores are -1e9 in float32).
  std::vector<float> scores = values_of(padded.items()[1]);
  CHECK(scores[3 * 4 + 0] == doctest::Approx(0.25));
  // The output's mask is the query's; the scores keep the Softmax's.
  CHECK(str(keras::implicit_mask(padded.items()[0])) == str(keras::implicit_mask(x)));
  CHECK(str(layer.getattr("compute_mask")({x, keras::implicit_mask(x)}, {})) == str(keras::implicit_mask(x)));
  // use_causal_mask ANDs a lower triangle.
  check(layer({x, x}, {{"return_attention_scores", Value(true)}, {"use_causal_mask", Value(true)}}),
        [&](int64_t b, int64_t t, int64_t s) { return pad[b][t] && pad[b][s] && s <= t; });
  // An explicit attention_mask [B, T, S] ANDs with the padding.
  std::vector<int> bits{1, 0, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1};
  Value explicit_mask = bool_tensor(bits, {2, 4, 4});
  check(layer({x, x}, {{"attention_mask", explicit_mask}, {"return_attention_scores", Value(true)}}),
        [&](int64_t b, int64_t t, int64_t s) { return pad[b][t] && pad[b][s] && bits[(b * 4 + t) * 4 + s] != 0; });
  // Unmasked inputs with only the explicit mask.
  Value plain = dtensor(xs, {2, 4, d.dq});
  check(layer({plain, plain}, {{"attention_mask", explicit_mask}, {"return_attention_scores", Value(true)}}),
        [&](int64_t b, int64_t t, int64_t s) { return bits[(b * 4 + t) * 4 + s] != 0; });
  // In a functional model the padding flows from the Embedding to the layer.
  Value in = tf::api::keras_Input()({}, {{"shape", Value::tuple({Value(4)})}, {"dtype", Value("int32")}});
  Value sym = emb({in});
  Value model = tf::api::keras_Model()({in, layer({sym, sym})}, {});
  CHECK(close_all(model({ids}), widen_values(values_of(padded.items()[0])), 1e-6));
}

TEST_CASE("MultiHeadAttention's dropout acts on the scores only while training") {
  MhaDims d;
  d.dk = d.dv;  // the key is the value
  Vec query = ripple(d.b * d.t * d.dq, 1.0, 0.3), value = ripple(d.b * d.s * d.dv, 1.0, 1.7);
  Value q = dtensor(query, {d.b, d.t, d.dq}), v = dtensor(value, {d.b, d.s, d.dv});
  Value dropping = make_mha(d, {{"dropout", Value(0.5)}});
  Value plain = make_mha(d);
  dropping({q, v});
  plain({q, v});
  MhaWeights w = mha_weights(d);
  set_mha_weights(dropping, d, w);
  set_mha_weights(plain, d, w);
  Value want = plain({q, v}, {{"return_attention_scores", Value(true)}});
  CHECK(values_of(dropping({q, v})) == values_of(want.items()[0]));
  CHECK(values_of(dropping({q, v}, {{"training", Value(false)}})) == values_of(want.items()[0]));
  Value trained = dropping({q, v}, {{"training", Value(true)}, {"return_attention_scores", Value(true)}});
  CHECK(values_of(trained.items()[0]) != values_of(want.items()[0]));
  // The scores returned are the softmax's, before the dropout.
  CHECK(close_all(trained.items()[1], widen_values(values_of(want.items()[1])), 1e-6));
}

TEST_CASE("MultiHeadAttention's gradients match central differences of the loops, eagerly and traced") {
  MhaDims d;
  d.dk = d.dv;  // the key is the value
  MhaWeights w = mha_weights(d);
  Vec query = ripple(d.b * d.t * d.dq, 1.0, 0.3), value = ripple(d.b * d.s * d.dv, 1.0, 1.7);
  // Value position 3 of batch 0 is masked out (no row is fully masked).
  std::vector<int> bits{1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  auto keep = [&](int64_t b, int64_t t, int64_t s) { return bits[(b * d.t + t) * d.s + s] != 0; };
  Vec coeff = ripple(d.b * d.t * d.dq, 0.8, 0.2);
  auto loss = [&] {
    // The value is the key too: both read `value`.
    MhaResult r = mha_reference(d, w, query, value, value, keep);
    double sum = 0;
    for (size_t i = 0; i < r.out.size(); ++i) sum += r.out[i] * coeff[i];
    return sum;
  };
  auto numeric = [&](Vec& param) { return central_differences(param, loss); };
  // d(loss)/d(query, value, then the 8 weights in Keras's order).
  std::vector<Vec> want{numeric(query), numeric(value), numeric(w.wq), numeric(w.bq), numeric(w.wk),
                        numeric(w.bk),  numeric(w.wv),  numeric(w.bv), numeric(w.wo), numeric(w.bo)};
  Value layer = make_mha(d);
  Value q = dtensor(query, {d.b, d.t, d.dq}), v = dtensor(value, {d.b, d.s, d.dv});
  layer({q, v});
  set_mha_weights(layer, d, w);
  Value attention_mask = bool_tensor(bits, {d.b, d.t, d.s});
  Value weights = dtensor(coeff, {d.b, d.t, d.dq});
  auto body = [layer, weights, attention_mask](const Value& qs, const Value& vs) {
    Value tape = tf::api::GradientTape()({}, {});
    tape.getattr("__enter__")({}, {});
    tape.getattr("watch")({Value::list({qs, vs})}, {});
    Value y = layer({qs, vs}, {{"attention_mask", attention_mask}});
    Value loss_value = tf::reduce_sum(tf::multiply(y, weights));
    tape.getattr("__exit__")({Value(), Value(), Value()}, {});
    std::vector<Value> sources{qs, vs};
    for (const Value& x : iterate(layer.getattr("trainable_weights"))) sources.push_back(x);
    return tape.getattr("gradient")({loss_value, Value::list(std::move(sources))}, {});
  };
  for (bool in_function : {false, true}) {
    CAPTURE(in_function);
    Value grads = in_function ? tf::api::function({make_function("grads", {{"q", std::nullopt}, {"v", std::nullopt}},
                                                                 [body](const std::vector<Value>& a) {
                                                                   return body(a[0], a[1]);
                                                                 })},
                                                  {})({q, v})
                              : body(q, v);
    std::vector<Value> got = iterate(grads);
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      CAPTURE(i);
      CHECK(close_all(got[i], want[i], 1e-4));
    }
  }
}

namespace {

// ---- Attention and AdditiveAttention by loops: q [B, Tq, D], v and k [B, Tv, D].

struct DenseDims {
  int64_t b = 2, tq = 3, tv = 4, dim = 3;
};

enum class Score { Dot, Concat, Additive };

struct DenseOptions {
  Score score = Score::Dot;
  double scale = 1.0;         // Attention's scalar scale
  double concat_weight = 1.0;  // Attention's concat_score_weight
  Vec additive_scale;          // AdditiveAttention's [dim] scale (empty: none)
  std::vector<std::vector<bool>> query_mask, value_mask;
  bool causal = false;
};

struct DenseResult {
  Vec out, weights;  // [B, Tq, D], [B, Tq, Tv]
};

DenseResult dense_reference(const DenseDims& d, const Vec& q, const Vec& v, const Vec& k, const DenseOptions& o) {
  DenseResult r{Vec(d.b * d.tq * d.dim), Vec(d.b * d.tq * d.tv)};
  for (int64_t b = 0; b < d.b; ++b)
    for (int64_t i = 0; i < d.tq; ++i) {
      Vec row(d.tv);
      std::vector<bool> keep(d.tv, true);
      for (int64_t j = 0; j < d.tv; ++j) {
        double acc = 0;
        for (int64_t c = 0; c < d.dim; ++c) {
          double qc = q[(b * d.tq + i) * d.dim + c], kc = k[(b * d.tv + j) * d.dim + c];
          switch (o.score) {
            case Score::Dot: acc += qc * kc; break;
            case Score::Concat: acc += std::tanh(o.scale * (qc + kc)); break;
            case Score::Additive: acc += (o.additive_scale.empty() ? 1.0 : o.additive_scale[c]) * std::tanh(qc + kc); break;
          }
        }
        row[j] = o.score == Score::Dot ? acc * o.scale : o.score == Score::Concat ? acc * o.concat_weight : acc;
        if (!o.value_mask.empty() && !o.value_mask[b][j]) keep[j] = false;
        if (o.causal && j > i) keep[j] = false;
      }
      row = masked_softmax_row(row, keep);
      bool zero = !o.query_mask.empty() && !o.query_mask[b][i];
      for (int64_t j = 0; j < d.tv; ++j) r.weights[(b * d.tq + i) * d.tv + j] = row[j];
      for (int64_t c = 0; c < d.dim; ++c) {
        double acc = 0;
        for (int64_t j = 0; j < d.tv; ++j) acc += row[j] * v[(b * d.tv + j) * d.dim + c];
        r.out[(b * d.tq + i) * d.dim + c] = zero ? 0.0 : acc;
      }
    }
  return r;
}

DenseOptions additive_only() {
  DenseOptions o;
  o.score = Score::Additive;
  return o;
}

Value mask_tensor(const std::vector<std::vector<bool>>& rows) {
  std::vector<Value> out;
  for (const auto& row : rows) {
    std::vector<Value> items;
    for (bool b : row) items.emplace_back(b);
    out.push_back(Value::list(std::move(items)));
  }
  return tf::constant(Value::list(std::move(out)), DType::Bool);
}

}  // namespace

TEST_CASE("Attention's dot and concat scores match the loops, with Keras's weights, masks and causal mask") {
  DenseDims d;
  Vec q = ripple(d.b * d.tq * d.dim, 1.0, 0.3), v = ripple(d.b * d.tv * d.dim, 1.0, 1.1), k = ripple(d.b * d.tv * d.dim, 0.8, 2.3);
  Value tq = dtensor(q, {d.b, d.tq, d.dim}), tv = dtensor(v, {d.b, d.tv, d.dim}), tk = dtensor(k, {d.b, d.tv, d.dim});
  // Plain dot-product attention has no weights.
  Value att = test::make_layer(tf::api::keras_layers_Attention());
  Value got = att({Value::list({tq, tv, tk})}, {{"return_attention_scores", Value(true)}});
  DenseResult want = dense_reference(d, q, v, k, {});
  CHECK(close_all(got.items()[0], want.out, 1e-5));
  CHECK(close_all(got.items()[1], want.weights, 1e-5));
  CHECK(weight_names(att).empty());
  // Without a key the value is the key.
  CHECK(close_all(att({Value::list({tq, tv})}), dense_reference(d, q, v, v, {}).out, 1e-5));
  // Masks: the value mask hides columns, the query mask zeroes rows; the output's mask is the query's.
  DenseOptions masked;
  masked.query_mask = {{true, false, true}, {true, true, true}};
  masked.value_mask = {{true, true, false, false}, {false, true, true, true}};
  Value masks = Value::list({mask_tensor(masked.query_mask), mask_tensor(masked.value_mask)});
  Value out = att({Value::list({tq, tv, tk})}, {{"mask", masks}, {"return_attention_scores", Value(true)}});
  want = dense_reference(d, q, v, k, masked);
  CHECK(close_all(out.items()[0], want.out, 1e-5));
  CHECK(close_all(out.items()[1], want.weights, 1e-5));
  CHECK(str(keras::implicit_mask(out.items()[0])) == str(masks.items()[0]));
  CHECK(str(att.getattr("compute_mask")({Value::list({tq, tv}), masks}, {})) == str(masks.items()[0]));
  CHECK(att.getattr("compute_mask")({Value::list({tq, tv}), Value()}, {}).is_none());
  // use_causal_mask (and the deprecated causal=True) over a square score matrix.
  DenseDims sq = d;
  sq.tv = sq.tq;
  DenseOptions causal;
  causal.causal = true;
  Vec vs(v.begin(), v.begin() + sq.b * sq.tv * sq.dim);
  Value tvs = dtensor(vs, {sq.b, sq.tv, sq.dim});
  want = dense_reference(sq, q, vs, vs, causal);
  CHECK(close_all(att({Value::list({tq, tvs})}, {{"use_causal_mask", Value(true)}}), want.out, 1e-5));
  Value old_style = test::make_layer(tf::api::keras_layers_Attention(), {}, {{"causal", Value(true)}});
  CHECK(close_all(old_style({Value::list({tq, tvs})}), want.out, 1e-5));
  // use_scale makes a scalar "scale" of ones; concat adds "concat_score_weight".
  Value scaled = test::make_layer(tf::api::keras_layers_Attention(), {Value(true)}, {{"name", Value("luong")}});
  scaled({Value::list({tq, tv})});
  CHECK(weight_names(scaled) == std::vector<std::string>{"luong/scale:0"});
  CHECK(values_of(scaled.getattr("scale")) == std::vector<float>{1});
  scaled.getattr("set_weights")({Value::list({dtensor({0.5}, {})})}, {});
  DenseOptions half;
  half.scale = 0.5;
  CHECK(close_all(scaled({Value::list({tq, tv})}), dense_reference(d, q, v, v, half).out, 1e-5));
  Value concat = test::make_layer(tf::api::keras_layers_Attention(), {Value(true), Value("concat")}, {{"name", Value("cat")}});
  concat({Value::list({tq, tv, tk})});
  CHECK(weight_names(concat) == std::vector<std::string>{"cat/scale:0", "cat/concat_score_weight:0"});
  concat.getattr("set_weights")({Value::list({dtensor({0.7}, {}), dtensor({1.3}, {})})}, {});
  DenseOptions cat;
  cat.score = Score::Concat;
  cat.scale = 0.7;
  cat.concat_weight = 1.3;
  CHECK(close_all(concat({Value::list({tq, tv, tk})}), dense_reference(d, q, v, k, cat).out, 1e-5));
  Value unscaled_concat = test::make_layer(tf::api::keras_layers_Attention(), {}, {{"score_mode", Value("concat")}});
  DenseOptions plain_cat;
  plain_cat.score = Score::Concat;
  CHECK(close_all(unscaled_concat({Value::list({tq, tv, tk})}), dense_reference(d, q, v, k, plain_cat).out, 1e-5));
  CHECK(str(concat.getattr("get_config")({}, {})) ==
        "{'name': 'cat', 'trainable': True, 'dtype': 'float32', 'dropout': 0.0, 'use_scale': True, 'score_mode': 'concat'}");
  // Dropout acts on the weights only while training.
  Value drop = test::make_layer(tf::api::keras_layers_Attention(), {}, {{"dropout", Value(0.5)}});
  CHECK(values_of(drop({Value::list({tq, tv})})) == values_of(att({Value::list({tq, tv})})));
  CHECK(values_of(drop({Value::list({tq, tv})}, {{"training", Value(true)}})) != values_of(att({Value::list({tq, tv})})));
}

TEST_CASE("AdditiveAttention matches the loops; its scale's gradient matches central differences") {
  DenseDims d;
  Vec q = ripple(d.b * d.tq * d.dim, 1.0, 0.3), v = ripple(d.b * d.tv * d.dim, 1.0, 1.1);
  Value tq = dtensor(q, {d.b, d.tq, d.dim}), tv = dtensor(v, {d.b, d.tv, d.dim});
  Value layer = test::make_layer(tf::api::keras_layers_AdditiveAttention(), {}, {{"name", Value("bahdanau")}});
  layer({Value::list({tq, tv})});
  CHECK(weight_names(layer) == std::vector<std::string>{"bahdanau/scale:0"});
  CHECK(weight_shapes(layer) == std::vector<std::string>{"(3,)"});
  DenseOptions o;
  o.score = Score::Additive;
  o.additive_scale = {0.5, -1.2, 0.8};
  o.value_mask = {{true, true, true, false}, {true, false, true, true}};
  layer.getattr("set_weights")({Value::list({dtensor(o.additive_scale, {3})})}, {});
  Value masks = Value::list({Value(), mask_tensor(o.value_mask)});
  DenseResult want = dense_reference(d, q, v, v, o);
  Value got = layer({Value::list({tq, tv})}, {{"mask", masks}, {"return_attention_scores", Value(true)}});
  CHECK(close_all(got.items()[0], want.out, 1e-5));
  CHECK(close_all(got.items()[1], want.weights, 1e-5));
  // No query mask: no output mask.
  CHECK(keras::implicit_mask(got.items()[0]).is_none());
  Value unscaled = test::make_layer(tf::api::keras_layers_AdditiveAttention(), {Value(false)});
  unscaled({Value::list({tq, tv})});
  CHECK(weight_names(unscaled).empty());
  CHECK(close_all(unscaled({Value::list({tq, tv})}), dense_reference(d, q, v, v, additive_only()).out, 1e-5));
  // Gradients of sum(out * c) for the query, the value and the scale.
  Vec coeff = ripple(d.b * d.tq * d.dim, 0.9, 0.4);
  auto loss = [&] {
    DenseResult r = dense_reference(d, q, v, v, o);
    double sum = 0;
    for (size_t i = 0; i < r.out.size(); ++i) sum += r.out[i] * coeff[i];
    return sum;
  };
  auto numeric = [&](Vec& param) { return central_differences(param, loss); };
  std::vector<Vec> want_grads{numeric(q), numeric(v), numeric(o.additive_scale)};
  std::vector<Value> got_grads = tape_gradients(
      [&] { return tf::reduce_sum(tf::multiply(layer({Value::list({tq, tv})}, {{"mask", masks}}), dtensor(coeff, {d.b, d.tq, d.dim}))); },
      {tq, tv, layer.getattr("scale")}, {tq, tv});
  REQUIRE(got_grads.size() == 3);
  for (size_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(close_all(got_grads[i], want_grads[i], 1e-4));
  }
}

TEST_CASE("Attention and AdditiveAttention check their arguments with Keras's texts") {
  Value q = tensor_of(iota_values(6), {1, 3, 2});
  Value att = test::make_layer(tf::api::keras_layers_Attention(), {}, {{"name", Value("att")}});
  // Raised in call(): Keras adds the layer and the call's arguments.
  CHECK(error_text([&] { att({Value::list({q})}); }) ==
        "ValueError: Exception encountered when calling layer 'att' (type Attention).\n\n"
        "Attention layer accepts inputs list of length 2 or 3, namely [query, value] or [query, value, key]. "
        "Received length: 1.\n\n"
        "Call arguments received by layer 'att' (type Attention):\n"
        "  \u2022 inputs=['tf.Tensor(shape=(1, 3, 2), dtype=float32)']\n"
        "  \u2022 mask=None\n"
        "  \u2022 training=None\n"
        "  \u2022 return_attention_scores=False\n"
        "  \u2022 use_causal_mask=False");
  std::string not_list = call_error_text([&] { att({q}); });
  CHECK(not_list.rfind("ValueError: Attention layer must be called on a list of inputs, namely [query, value] or "
                       "[query, value, key]. Received: tf.Tensor(",
                       0) == 0);
  CHECK(call_error_text([&] { att({Value::list({q})}); }) ==
        "ValueError: Attention layer accepts inputs list of length 2 or 3, namely [query, value] or [query, value, "
        "key]. Received length: 1.");
  CHECK(call_error_text([&] { att({Value::list({q, q, q, q})}); }) ==
        "ValueError: Attention layer accepts inputs list of length 2 or 3, namely [query, value] or [query, value, "
        "key]. Received length: 4.");
  CHECK(call_error_text([&] { att({Value::tuple({q, q})}); }).rfind("ValueError: Attention layer must be called on a list", 0) == 0);
  CHECK(call_error_text([&] { att({Value::list({q, q})}, {{"mask", Value::list({Value()})}}); }) ==
        "ValueError: Attention layer mask must be a list of length 2, namely [query_mask, value_mask]. Received "
        "length: 1.");
  CHECK(call_error_text([&] { att({Value::list({q, q})}, {{"mask", Value::tuple({Value(), Value()})}}); }) ==
        "ValueError: Attention layer mask must be a list, namely [query_mask, value_mask]. Received: (None, None).");
  CHECK(error_text([] { test::make_layer(tf::api::keras_layers_Attention(), {}, {{"score_mode", Value("mul")}}); }) ==
        "ValueError: Received: score_mode=mul. Acceptable values are: [\"dot\", \"concat\"]");
  Value additive = test::make_layer(tf::api::keras_layers_AdditiveAttention());
  CHECK(call_error_text([&] { additive({q}); }).rfind("ValueError: AdditiveAttention layer must be called on a list", 0) == 0);
  CHECK(call_error_text([&] { additive({Value::list({q, q, q, q})}); }) ==
        "ValueError: AdditiveAttention layer accepts inputs list of length 2 or 3, namely [query, value] or [query, "
        "value, key]. Received length: 4.");
  // MultiHeadAttention: value is required; compute_output_shape's checks.
  Value mha = test::make_layer(tf::api::keras_layers_MultiHeadAttention(), {Value(2), Value(3)});
  CHECK(error_text([&] { mha({q}); }).find("missing 1 required positional argument: 'value'") != std::string::npos);
  Value shape_a = Value::tuple({Value(), Value(5), Value(8)});
  CHECK(error_text([&] { mha.getattr("compute_output_shape")({shape_a, Value::tuple({Value(), Value(4), Value(6)})}, {}); }) ==
        "ValueError: The last dimension of `query_shape` and `value_shape` must be equal, but are 8, 6. Received: "
        "query_shape={query_shape}, value_shape={value_shape}");
  CHECK(error_text([&] {
          mha.getattr("compute_output_shape")(
              {shape_a, Value::tuple({Value(), Value(4), Value(8)}), Value::tuple({Value(), Value(3), Value(8)})}, {});
        }) == "ValueError: All dimensions of `value` and `key`, except the last one, must be equal. Received (None, 4, 8) "
              "and (None, 3, 8)");
}

TEST_CASE("EinsumDense's weights come from its equation, with Keras's checks and texts") {
  Value x = tensor_of(iota_values(2 * 3 * 4, 0.1f), {2, 3, 4});
  Value dense = test::make_layer(tf::api::keras_layers_EinsumDense(), {Value("abc,cd->abd")},
                           {{"output_shape", Value::tuple({Value(), Value(5)})}, {"bias_axes", Value("d")}, {"name", Value("proj")}});
  Value y = dense({x});
  CHECK(str(y.getattr("shape")) == "(2, 3, 5)");
  CHECK(weight_names(dense) == std::vector<std::string>{"proj/kernel:0", "proj/bias:0"});
  CHECK(weight_shapes(dense) == std::vector<std::string>{"(4, 5)", "(5,)"});
  Vec kernel = ripple(20, 0.5, 0.2), bias = ripple(5, 0.3, 1.0);
  dense.getattr("set_weights")({Value::list({dtensor(kernel, {4, 5}), dtensor(bias, {5})})}, {});
  std::vector<float> xs = values_of(x);
  Vec want(2 * 3 * 5);
  for (int i = 0; i < 6; ++i)
    for (int o = 0; o < 5; ++o) {
      double acc = bias[o];
      for (int c = 0; c < 4; ++c) acc += xs[i * 4 + c] * kernel[c * 5 + o];
      want[i * 5 + o] = acc;
    }
  CHECK(close_all(dense({x}), want, 1e-5));
  // An ellipsis on the left; the bias over the output's last two dims.
  Value heads = test::make_layer(tf::api::keras_layers_EinsumDense(), {Value("...b,bcd->...cd")},
                           {{"output_shape", Value::tuple({Value(2), Value(3)})}, {"bias_axes", Value("cd")}});
  CHECK(str(heads({x}).getattr("shape")) == "(2, 3, 2, 3)");
  CHECK(weight_shapes(heads) == std::vector<std::string>{"(4, 2, 3)", "(2, 3)"});
  // A bias on an inner output dim is shaped with ones after it.
  Value inner = test::make_layer(tf::api::keras_layers_EinsumDense(), {Value("abc,cd->abd")},
                           {{"output_shape", Value::tuple({Value(3), Value(5)})}, {"bias_axes", Value("b")}});
  inner({x});
  CHECK(weight_shapes(inner) == std::vector<std::string>{"(4, 5)", "(3, 1)"});
  auto build_error = [&](const char* equation, Value output_shape, Value bias_axes = Value()) {
    return error_text([&] {
      test::make_layer(tf::api::keras_layers_EinsumDense(), {Value(equation), output_shape}, {{"bias_axes", bias_axes}})({x});
    });
  };
  CHECK(build_error("abc,cd", Value(4)) ==
        "ValueError: Invalid einsum equation 'abc,cd'. Equations must be in the form [X],[Y]->[Z], ...[X],[Y]->...[Z], "
        "or [X]...,[Y]->[Z]....");
  CHECK(build_error("abc,cd->abe", Value::tuple({Value(3), Value(4)})) ==
        "ValueError: Dimension 'e' was specified in the output 'abe' but has no corresponding dim in the input spec "
        "'abc' or weight spec 'abe'");
  CHECK(build_error("abc,cd->abd", Value::tuple({Value(7), Value(4)})) ==
        "ValueError: Input shape and output shape do not match at shared dimension 'b'. Input shape is 3, and output "
        "shape is 7.");
  CHECK(build_error("abc,ce->abd", Value::tuple({Value(3), Value(4)})).rfind("ValueError: Dimension 'd' was specified", 0) == 0);
  CHECK(build_error("abc,cde->abd", Value::tuple({Value(3), Value(4)})) ==
        "ValueError: Weight dimension 'e' did not have a match in either the input spec 'abc' or the output spec "
        "'abd'. For this layer, the weight must be fully specified.");
  CHECK(build_error("abc,cd->abd", Value::tuple({Value(3), Value(4)}), Value("x")) ==
        "ValueError: Bias dimension 'x' was requested, but is not part of the output spec 'abd'");
}

TEST_CASE("Softmax adds -1e9 where its mask is false; several axes normalize together") {
  Value x = tensor_of({1, 2, 3, 4, 5, 6}, {1, 2, 3});
  Value softmax = test::make_layer(tf::api::keras_layers_Softmax());
  Value mask = tf::constant(Value::list({Value::list({Value::list({Value(true), Value(false), Value(true)}),
                                                      Value::list({Value(false), Value(false), Value(false)})})}));
  double e2 = std::exp(2.0);
  std::vector<float> got = values_of(softmax({x, mask}));
  Vec want{1 / (1 + e2), 0, e2 / (1 + e2), 1.0 / 3, 1.0 / 3, 1.0 / 3};
  CHECK(all_close(got, want, 1e-6));
  Value both = test::make_layer(tf::api::keras_layers_Softmax(), {Value::tuple({Value(1), Value(2)})});
  double sum = 0;
  for (int i = 1; i <= 6; ++i) sum += std::exp(i);
  Vec all(6);
  for (int i = 0; i < 6; ++i) all[i] = std::exp(i + 1) / sum;
  CHECK(all_close(values_of(both({x})), all, 1e-6));
}

TEST_CASE("A layer that neither supports masking nor computes one drops an implicit mask, as Keras 2's __call__ does") {
  Value emb = test::make_layer(tf::api::keras_layers_Embedding(), {Value(5), Value(4)}, {{"mask_zero", Value(true)}});
  Value ids = tf::constant(Value::list({Value::list({Value(1), Value(0), Value(3)})}));
  Value x = emb({ids});
  REQUIRE_FALSE(keras::implicit_mask(x).is_none());
  Value dense = test::make_layer(tf::api::keras_layers_EinsumDense(), {Value("abc,cd->abd")}, {{"output_shape", Value::tuple({Value(), Value(2)})}});
  Value y = dense({x});
  CHECK(keras::implicit_mask(y).is_none());
  CHECK(str(y.getattr("shape")) == "(1, 3, 2)");
}

TEST_CASE("A functional MultiHeadAttention's keyword tensors are among its inbound layers in the summary") {
  Value q_in = tf::api::keras_Input()({}, {{"shape", Value::tuple({Value(3), Value(4)})}, {"name", Value("q_in")}});
  Value v_in = tf::api::keras_Input()({}, {{"shape", Value::tuple({Value(5), Value(4)})}, {"name", Value("v_in")}});
  Value cross = test::make_layer(tf::api::keras_layers_MultiHeadAttention(), {Value(2), Value(2)}, {{"name", Value("cross")}});
  Value out = cross({q_in}, {{"value", v_in}});
  CHECK(str(out.getattr("shape")) == "(None, 3, 4)");
  Value model = tf::api::keras_Model()({Value::list({q_in, v_in}), out}, {});
  std::vector<std::string> lines;
  Value collect = Value::callable("collect", [&lines](std::vector<Value> args, Kwargs) -> Value {
    lines.push_back(str(args.at(0)));
    return Value();
  });
  model.getattr("summary")({}, {{"print_fn", collect}});
  auto row = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.find("cross (") == 1; });
  REQUIRE(row != lines.end());
  CHECK(*row == " cross (MultiHeadAttention)  (None, 3, 4)                 80        ['q_in[0][0]',                ");
  CHECK(*(row + 1) == "                                                                     'v_in[0][0]']                ");
}
