// tf.keras's recurrent layers (runtime/keras/layers_rnn*.cpp): SimpleRNN,
// GRU (both reset_after modes) and LSTM, their cells, keras.layers.RNN,
// Bidirectional and TimeDistributed, against a reference written here with
// plain loops over vectors in double (the gate equations written out, Keras's
// masking rule, go_backwards' reversed outputs), eagerly and inside a
// tf.function (a While loop, also with an unknown time dim); gradients
// through GradientTape against central differences of the reference; Keras's
// weight names, shapes and initial values; Keras's error texts.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/tensor_spec_value.h"
#include "runtime/value/user_function.h"
#include "runtime/value/variable_value.h"
#include "tests/unit/error_text.h"
#include "tests/unit/keras/support.h"

using namespace ag;
using namespace ag::test;

namespace {

// ---- The reference.

using Vec = std::vector<double>;

enum class RK { SimpleRNN, GRU, GRUBefore, LSTM };

int gates(RK k) { return k == RK::LSTM ? 4 : k == RK::SimpleRNN ? 1 : 3; }

/// Row-major weights: kernel [F, G*U], recurrent [U, G*U], bias [G*U] (GRU
/// reset_after: [2, 3U], the input bias then the recurrent one).
struct Weights {
  Vec kernel, recurrent, bias;
};

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

/// x [n] @ w [n, m] (row-major), m outputs starting at column `col0` of a
/// matrix `cols` wide.
Vec vecmat(const Vec& x, const Vec& w, size_t cols, size_t col0, size_t m) {
  Vec y(m, 0.0);
  for (size_t i = 0; i < x.size(); ++i) {
    for (size_t j = 0; j < m; ++j) y[j] += x[i] * w[i * cols + col0 + j];
  }
  return y;
}

/// One step of one batch row: the new (h[, c]).
std::vector<Vec> ref_step(RK kind, const Weights& w, size_t u, const Vec& x, const std::vector<Vec>& s) {
  const size_t g = static_cast<size_t>(gates(kind)) * u;
  const Vec& h = s[0];
  auto bias = [&](size_t j) { return w.bias.empty() ? 0.0 : w.bias[j]; };
  switch (kind) {
    case RK::SimpleRNN: {
      Vec a = vecmat(x, w.kernel, g, 0, u), r = vecmat(h, w.recurrent, g, 0, u);
      Vec out(u);
      for (size_t j = 0; j < u; ++j) out[j] = std::tanh(a[j] + bias(j) + r[j]);
      return {out};
    }
    case RK::LSTM: {
      Vec a = vecmat(x, w.kernel, g, 0, g), r = vecmat(h, w.recurrent, g, 0, g);
      Vec nh(u), nc(u);
      for (size_t j = 0; j < u; ++j) {
        double i = sigmoid(a[j] + r[j] + bias(j));
        double f = sigmoid(a[u + j] + r[u + j] + bias(u + j));
        double cc = std::tanh(a[2 * u + j] + r[2 * u + j] + bias(2 * u + j));
        double o = sigmoid(a[3 * u + j] + r[3 * u + j] + bias(3 * u + j));
        nc[j] = f * s[1][j] + i * cc;
        nh[j] = o * std::tanh(nc[j]);
      }
      return {nh, nc};
    }
    case RK::GRU: {  // reset_after: r multiplies (h @ R_h + b_rh)
      Vec a = vecmat(x, w.kernel, g, 0, g), r = vecmat(h, w.recurrent, g, 0, g);
      Vec nh(u);
      for (size_t j = 0; j < u; ++j) {
        double z = sigmoid(a[j] + bias(j) + r[j] + bias(g + j));
        double rr = sigmoid(a[u + j] + bias(u + j) + r[u + j] + bias(g + u + j));
        double hh = std::tanh(a[2 * u + j] + bias(2 * u + j) + rr * (r[2 * u + j] + bias(g + 2 * u + j)));
        nh[j] = z * h[j] + (1 - z) * hh;
      }
      return {nh};
    }
    case RK::GRUBefore: {  // reset_after=False: (r * h) @ R_h
      Vec a = vecmat(x, w.kernel, g, 0, g), zr = vecmat(h, w.recurrent, g, 0, 2 * u);
      Vec z(u), rh(u);
      for (size_t j = 0; j < u; ++j) {
        z[j] = sigmoid(a[j] + bias(j) + zr[j]);
        rh[j] = sigmoid(a[u + j] + bias(u + j) + zr[u + j]) * h[j];
      }
      Vec cand = vecmat(rh, w.recurrent, g, 2 * u, u);
      Vec nh(u);
      for (size_t j = 0; j < u; ++j) nh[j] = z[j] * h[j] + (1 - z[j]) * std::tanh(a[2 * u + j] + bias(2 * u + j) + cand[j]);
      return {nh};
    }
  }
  return {};
}

struct Dims {
  size_t b, t, f, u;
};

struct Options {
  bool go_backwards = false;
  std::vector<std::vector<int>> mask;  ///< [B][T], empty: none
  bool zero_output_for_mask = false;
  std::vector<Vec> initial;  ///< per state [B * U], empty: zeros
};

struct RefResult {
  Vec sequence;  ///< [B, T, U] in the order the layer returns them
  Vec last;      ///< [B, U]
  std::vector<Vec> states;
};

/// Keras's backend.rnn over ref_step: steps in reverse for go_backwards (the
/// outputs kept in that order); a masked step keeps the states and outputs
/// the previous output (zeros before any, or always with zero_output_for_mask).
RefResult ref_run(RK kind, const Weights& w, Dims d, const Vec& x, const Options& o) {
  size_t n_states = kind == RK::LSTM ? 2 : 1;
  RefResult r;
  r.sequence.assign(d.b * d.t * d.u, 0.0);
  r.last.assign(d.b * d.u, 0.0);
  r.states.assign(n_states, Vec(d.b * d.u, 0.0));
  for (size_t b = 0; b < d.b; ++b) {
    std::vector<Vec> s(n_states, Vec(d.u, 0.0));
    for (size_t k = 0; k < n_states && !o.initial.empty(); ++k) {
      for (size_t j = 0; j < d.u; ++j) s[k][j] = o.initial[k][b * d.u + j];
    }
    Vec prev(d.u, 0.0);
    for (size_t k = 0; k < d.t; ++k) {
      size_t t = o.go_backwards ? d.t - 1 - k : k;
      Vec xt(x.begin() + static_cast<std::ptrdiff_t>((b * d.t + t) * d.f),
             x.begin() + static_cast<std::ptrdiff_t>((b * d.t + t + 1) * d.f));
      std::vector<Vec> next = ref_step(kind, w, d.u, xt, s);
      Vec out = next[0];
      if (!o.mask.empty() && !o.mask[b][t]) {
        out = o.zero_output_for_mask ? Vec(d.u, 0.0) : prev;
        next = s;
      }
      s = next;
      prev = out;
      for (size_t j = 0; j < d.u; ++j) r.sequence[(b * d.t + k) * d.u + j] = out[j];
    }
    for (size_t j = 0; j < d.u; ++j) {
      r.last[b * d.u + j] = prev[j];
      for (size_t k = 0; k < n_states; ++k) r.states[k][b * d.u + j] = s[k][j];
    }
  }
  return r;
}

// ---- Tensors and layers.

/// Deterministic values in [-scale, scale].
Vec wave(size_t n, double phase, double scale = 0.5) {
  Vec v(n);
  for (size_t i = 0; i < n; ++i) v[i] = scale * std::sin(0.73 * static_cast<double>(i) + phase);
  return v;
}

Value tensor(const Vec& v, const std::vector<int64_t>& shape) {
  std::vector<Value> items;
  for (double x : v) items.emplace_back(x);
  std::vector<Value> dims;
  for (int64_t d : shape) dims.emplace_back(d);
  return tf::reshape(tf::constant(Value::list(std::move(items)), DType::Float32), Value::list(std::move(dims)));
}

Value bool_mask(const std::vector<std::vector<int>>& m) {
  std::vector<Value> rows;
  for (const auto& r : m) {
    std::vector<Value> row;
    for (int b : r) row.emplace_back(b != 0);
    rows.push_back(Value::list(std::move(row)));
  }
  return tf::constant(Value::list(std::move(rows)));
}

/// Within `tol` of `want`, every value (a mismatch is printed).
bool near_all(const Value& got, const Vec& want, double tol = 2e-5) {
  std::vector<float> g = floats(got);
  if (g.size() != want.size()) {
    MESSAGE("size " << g.size() << " vs " << want.size());
    return false;
  }
  for (size_t i = 0; i < g.size(); ++i) {
    if (std::abs(g[i] - want[i]) > tol * std::max(1.0, std::abs(want[i]))) {
      MESSAGE("element " << i << ": " << g[i] << " vs " << want[i]);
      return false;
    }
  }
  return true;
}

Weights make_weights(RK kind, size_t f, size_t u, bool bias = true) {
  size_t g = static_cast<size_t>(gates(kind)) * u;
  Weights w;
  w.kernel = wave(f * g, 0.1, 0.6);
  w.recurrent = wave(u * g, 1.3, 0.5);
  if (bias) w.bias = wave(kind == RK::GRU ? 2 * g : g, 2.9, 0.3);
  return w;
}

Value layer_class(RK kind) {
  switch (kind) {
    case RK::SimpleRNN: return tf::api::keras_layers_SimpleRNN();
    case RK::LSTM: return tf::api::keras_layers_LSTM();
    case RK::GRU:
    case RK::GRUBefore: return tf::api::keras_layers_GRU();
  }
  return Value();
}

/// Assigns the reference weights to a built cell (or a layer's cell).
void set_cell_weights(const Value& cell, RK kind, const Weights& w, size_t f, size_t u) {
  int64_t g = gates(kind) * static_cast<int64_t>(u);
  std::vector<Value> ws{tensor(w.kernel, {static_cast<int64_t>(f), g}),
                        tensor(w.recurrent, {static_cast<int64_t>(u), g})};
  if (!w.bias.empty()) ws.push_back(kind == RK::GRU ? tensor(w.bias, {2, g}) : tensor(w.bias, {g}));
  cell.getattr("set_weights")({Value::list(std::move(ws))}, {});
}

/// A layer of `kind` (units u) built on [B, T, F] inputs and given `w`.
Value make_layer(RK kind, Dims d, const Weights& w, Kwargs kwargs = {}) {
  if (kind == RK::GRUBefore) kwargs.emplace_back("reset_after", Value(false));
  if (w.bias.empty()) kwargs.emplace_back("use_bias", Value(false));
  Value layer = layer_class(kind)({Value(static_cast<int64_t>(d.u))}, std::move(kwargs));
  layer.getattr("build")({Value::tuple({Value(), Value(), Value(static_cast<int64_t>(d.f))})}, {});
  set_cell_weights(layer.getattr("cell"), kind, w, d.f, d.u);
  return layer;
}

/// A tf.function calling layer(x, **kwargs).
Value traced(const Value& layer, const Kwargs& kwargs, const Value& signature = Value()) {
  Value fn = make_function("f", {{"x", std::nullopt}},
                           [layer, kwargs](const std::vector<Value>& a) { return layer({a[0]}, kwargs); });
  Kwargs opts;
  if (!signature.is_none()) opts.emplace_back("input_signature", signature);
  return tf::api::function({fn}, std::move(opts));
}

/// The outputs of one layer call against the reference: the output (the
/// sequence or the last), then the states when returned.
void check_outputs(const Value& got, const RefResult& want, bool return_sequences, bool return_state) {
  Value out = return_state ? getitem(got, Value(0)) : got;
  CHECK(near_all(out, return_sequences ? want.sequence : want.last));
  if (return_state) {
    REQUIRE(iterate(got).size() == want.states.size() + 1);
    for (size_t k = 0; k < want.states.size(); ++k) CHECK(near_all(getitem(got, Value(static_cast<int64_t>(k + 1))), want.states[k]));
  }
}

/// Every combination of the call options, eagerly and traced, against the reference.
void check_layer_variants(RK kind) {
  Dims d{2, 5, 3, 4};
  Weights w = make_weights(kind, d.f, d.u);
  Vec x = wave(d.b * d.t * d.f, 0.4, 1.0);
  Value xt = tensor(x, {2, 5, 3});
  std::vector<std::vector<int>> mask{{1, 1, 0, 1, 0}, {0, 0, 1, 1, 1}};
  size_t n_states = kind == RK::LSTM ? 2 : 1;
  std::vector<Vec> init;
  for (size_t k = 0; k < n_states; ++k) init.push_back(wave(d.b * d.u, 0.7 + static_cast<double>(k), 0.4));
  for (int variant = 0; variant < 32; ++variant) {
    bool seq = variant & 1, state = variant & 2, back = variant & 4, masked = variant & 8, initial = variant & 16;
    CAPTURE(variant);
    Options o;
    o.go_backwards = back;
    if (masked) o.mask = mask;
    if (initial) o.initial = init;
    RefResult want = ref_run(kind, w, d, x, o);
    Value layer = make_layer(kind, d, w,
                             {{"return_sequences", Value(seq)}, {"return_state", Value(state)}, {"go_backwards", Value(back)}});
    Kwargs call;
    if (masked) call.emplace_back("mask", bool_mask(mask));
    if (initial) {
      std::vector<Value> states;
      for (const Vec& s : init) states.push_back(tensor(s, {2, 4}));
      call.emplace_back("initial_state", Value::list(std::move(states)));
    }
    check_outputs(layer({xt}, call), want, seq, state);
    check_outputs(traced(layer, call)({xt}), want, seq, state);
  }
}

}  // namespace

TEST_CASE("LSTM's weights: Keras's names, shapes, order and initial values") {
  Value lstm = tf::api::keras_layers_LSTM()({Value(3)}, {});
  std::string name = str(lstm.getattr("name"));
  CHECK(name.rfind("lstm", 0) == 0);
  lstm({tensor(wave(2 * 4 * 2, 0.0), {2, 4, 2})});
  std::vector<Value> ws = lstm.getattr("weights").items();
  REQUIRE(ws.size() == 3);
  CHECK(str(ws[0].getattr("name")) == name + "/lstm_cell/kernel:0");
  CHECK(str(ws[1].getattr("name")) == name + "/lstm_cell/recurrent_kernel:0");
  CHECK(str(ws[2].getattr("name")) == name + "/lstm_cell/bias:0");
  CHECK(str(ws[0].getattr("shape")) == "(2, 12)");
  CHECK(str(ws[1].getattr("shape")) == "(3, 12)");
  CHECK(str(ws[2].getattr("shape")) == "(12,)");
  // unit_forget_bias: the forget gate's block (i, f, c, o) starts at ones.
  CHECK(floats(ws[2]) == std::vector<float>{0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0});
  // 'orthogonal': the [3, 12] recurrent kernel has orthonormal rows.
  CHECK(near_all(tf::matmul(ws[1], ws[1], false, true), {1, 0, 0, 0, 1, 0, 0, 0, 1}, 1e-5));
  CHECK(lstm.getattr("trainable_weights").items().size() == 3);
  CHECK(str(lstm.getattr("cell").getattr("name")) == "lstm_cell");
  CHECK(lstm.getattr("units").as_int() == 3);
  CHECK(str(lstm.getattr("cell").getattr("state_size")) == "[3, 3]");
  // Without unit_forget_bias the bias is bias_initializer's.
  Value plain = tf::api::keras_layers_LSTM()({Value(2)}, {{"unit_forget_bias", Value(false)}, {"name", Value("plain")}});
  plain({tensor(wave(4, 0.0), {1, 2, 2})});
  CHECK(floats(plain.getattr("weights").items()[2]) == std::vector<float>(8, 0.0f));
}

TEST_CASE("GRU's and SimpleRNN's weights, with both GRU bias layouts") {
  Value x = tensor(wave(2 * 3 * 5, 0.0), {2, 3, 5});
  Value gru = tf::api::keras_layers_GRU()({Value(4)}, {{"name", Value("gru")}});
  gru({x});
  std::vector<Value> ws = gru.getattr("weights").items();
  REQUIRE(ws.size() == 3);
  CHECK(str(ws[0].getattr("name")) == "gru/gru_cell/kernel:0");
  CHECK(str(ws[0].getattr("shape")) == "(5, 12)");
  CHECK(str(ws[1].getattr("name")) == "gru/gru_cell/recurrent_kernel:0");
  CHECK(str(ws[1].getattr("shape")) == "(4, 12)");
  CHECK(str(ws[2].getattr("name")) == "gru/gru_cell/bias:0");
  CHECK(str(ws[2].getattr("shape")) == "(2, 12)");  // reset_after (TF 2's default): input and recurrent biases
  Value before = tf::api::keras_layers_GRU()({Value(4)}, {{"reset_after", Value(false)}, {"name", Value("gru_v1")}});
  before({x});
  CHECK(str(before.getattr("weights").items()[2].getattr("shape")) == "(12,)");
  Value rnn = tf::api::keras_layers_SimpleRNN()({Value(4)}, {{"use_bias", Value(false)}, {"name", Value("srnn")}});
  rnn({x});
  ws = rnn.getattr("weights").items();
  REQUIRE(ws.size() == 2);
  CHECK(str(ws[0].getattr("name")) == "srnn/simple_rnn_cell/kernel:0");
  CHECK(str(ws[1].getattr("name")) == "srnn/simple_rnn_cell/recurrent_kernel:0");
  CHECK(str(ws[1].getattr("shape")) == "(4, 4)");
}

TEST_CASE("LSTM against the reference: sequences, states, go_backwards, masks, initial states; eager and traced") {
  check_layer_variants(RK::LSTM);
}

TEST_CASE("GRU (reset_after=True) against the reference") { check_layer_variants(RK::GRU); }

TEST_CASE("GRU (reset_after=False) against the reference") { check_layer_variants(RK::GRUBefore); }

TEST_CASE("SimpleRNN against the reference") { check_layer_variants(RK::SimpleRNN); }

TEST_CASE("A masked step outputs the previous output: zeros before the first unmasked step") {
  // Kept as Keras's backend.rnn states it, checked on a case small enough to read.
  Dims d{1, 3, 1, 1};
  Weights w{{1.0}, {0.0}, {}};
  Value layer = make_layer(RK::SimpleRNN, d, w, {{"return_sequences", Value(true)}, {"return_state", Value(true)}});
  Value x = tensor({0.5, 1.0, 2.0}, {1, 3, 1});
  Value out = layer({x}, {{"mask", bool_mask({{0, 1, 0}})}});
  // Step 0 masked: 0; step 1: tanh(1); step 2 masked: tanh(1) again; the state is tanh(1).
  CHECK(near_all(getitem(out, Value(0)), {0.0, std::tanh(1.0), std::tanh(1.0)}));
  CHECK(near_all(getitem(out, Value(1)), {std::tanh(1.0)}));
  // A float mask is cast to bool, as Keras does.
  Value f = layer({x}, {{"mask", tensor({0, 1, 0}, {1, 3})}});
  CHECK(near_all(getitem(f, Value(0)), {0.0, std::tanh(1.0), std::tanh(1.0)}));
}

TEST_CASE("The cells: one step of SimpleRNNCell, GRUCell and LSTMCell, and keras.layers.RNN over them") {
  Dims d{2, 4, 3, 2};
  Vec x = wave(d.b * d.t * d.f, 0.2, 1.0);
  Value xt = tensor(x, {2, 4, 3});
  for (RK kind : {RK::SimpleRNN, RK::GRU, RK::GRUBefore, RK::LSTM}) {
    CAPTURE(static_cast<int>(kind));
    Weights w = make_weights(kind, d.f, d.u);
    Value cls = kind == RK::LSTM         ? tf::api::keras_layers_LSTMCell()
                : kind == RK::SimpleRNN ? tf::api::keras_layers_SimpleRNNCell()
                                          : tf::api::keras_layers_GRUCell();
    Kwargs kw;
    if (kind == RK::GRUBefore) kw.emplace_back("reset_after", Value(false));
    Value cell = cls({Value(2)}, kw);
    // One step from x[:, 0] and a given state.
    Value x0 = tensor(Vec(x.begin(), x.begin() + 3), {1, 3});
    size_t n = kind == RK::LSTM ? 2 : 1;
    std::vector<Vec> s;
    std::vector<Value> st;
    for (size_t k = 0; k < n; ++k) {
      s.push_back(wave(2, 0.3 * static_cast<double>(k + 1), 0.5));
      st.push_back(tensor(s.back(), {1, 2}));
    }
    cell({x0, Value::list(st)});  // builds
    set_cell_weights(cell, kind, w, d.f, d.u);
    Value r = cell({x0, Value::list(st)});
    std::vector<Vec> want = ref_step(kind, w, 2, Vec(x.begin(), x.begin() + 3), s);
    CHECK(near_all(getitem(r, Value(0)), want[0]));
    std::vector<Value> states = iterate(getitem(r, Value(1)));
    REQUIRE(states.size() == n);
    for (size_t k = 0; k < n; ++k) CHECK(near_all(states[k], want[k]));
    if (kind != RK::LSTM) {
      // A single state tensor (not a list) comes back as one.
      Value single = cell({x0, st[0]});
      CHECK(getitem(single, Value(1)).is_tensor());
    }
    // keras.layers.RNN(cell): the cell's weights, the layer's loop.
    Value fresh = cls({Value(2)}, kw);
    Value rnn = tf::api::keras_layers_RNN()({fresh}, {{"return_sequences", Value(true)}, {"name", Value("rnn_of_cell")}});
    rnn({xt});
    std::string cell_name = str(fresh.getattr("name"));
    CHECK(str(rnn.getattr("weights").items()[0].getattr("name")) == "rnn_of_cell/" + cell_name + "/kernel:0");
    set_cell_weights(fresh, kind, w, d.f, d.u);
    RefResult want_seq = ref_run(kind, w, d, x, {});
    CHECK(near_all(rnn({xt}), want_seq.sequence));
    CHECK(near_all(traced(rnn, {})({xt}), want_seq.sequence));
  }
  CHECK(error_text([] { tf::api::keras_layers_LSTMCell()({Value(0)}, {}); }) ==
        "ValueError: Received an invalid value for argument `units`, expected a positive integer, got 0.");
  Value zeros = tf::api::keras_layers_LSTMCell()({Value(3)}, {}).getattr("get_initial_state")(
      {}, {{"batch_size", Value(2)}, {"dtype", Value("float32")}});
  CHECK(str(getitem(zeros, Value(1)).getattr("shape")) == "(2, 3)");
}

TEST_CASE("RNN over a list of cells: StackedRNNCells, each cell's output the next one's input") {
  Dims d1{2, 4, 3, 3}, d2{2, 4, 3, 2};
  Weights w1 = make_weights(RK::LSTM, 3, 3), w2 = make_weights(RK::SimpleRNN, 3, 2);
  Vec x = wave(2 * 4 * 3, 0.8, 1.0);
  Value c1 = tf::api::keras_layers_LSTMCell()({Value(3)}, {{"name", Value("c1")}});
  Value c2 = tf::api::keras_layers_SimpleRNNCell()({Value(2)}, {{"name", Value("c2")}});
  Value rnn = tf::api::keras_layers_RNN()({Value::list({c1, c2})}, {{"return_sequences", Value(true)},
                                                                   {"return_state", Value(true)},
                                                                   {"name", Value("stack")}});
  Value xt = tensor(x, {2, 4, 3});
  rnn({xt});
  std::string cells = str(rnn.getattr("cell").getattr("name"));
  CHECK(cells.rfind("stacked_rnn_cells", 0) == 0);
  std::vector<Value> ws = rnn.getattr("weights").items();
  REQUIRE(ws.size() == 6);
  CHECK(str(ws[0].getattr("name")) == "stack/" + cells + "/c1/kernel:0");
  CHECK(str(ws[3].getattr("name")) == "stack/" + cells + "/c2/kernel:0");
  CHECK(str(ws[3].getattr("shape")) == "(3, 2)");  // the second cell reads the first's 3 units
  set_cell_weights(c1, RK::LSTM, w1, 3, 3);
  set_cell_weights(c2, RK::SimpleRNN, w2, 3, 2);
  RefResult first = ref_run(RK::LSTM, w1, d1, x, {});
  RefResult second = ref_run(RK::SimpleRNN, w2, d2, first.sequence, {});
  for (bool in_function : {false, true}) {
    CAPTURE(in_function);
    Value r = in_function ? traced(rnn, {})({xt}) : rnn({xt});
    // [output, [h1, c1], h2]: the states nested per cell, as Keras returns them.
    std::vector<Value> parts = iterate(r);
    REQUIRE(parts.size() == 3);
    CHECK(near_all(parts[0], second.sequence));
    REQUIRE(parts[1].is_list());
    CHECK(near_all(getitem(parts[1], Value(0)), first.states[0]));
    CHECK(near_all(getitem(parts[1], Value(1)), first.states[1]));
    CHECK(near_all(parts[2], second.states[0]));
  }
  CHECK(error_text([] { tf::api::keras_layers_StackedRNNCells()({Value::list({Value(1)})}, {}); }) ==
        "ValueError: All cells must have a `call` method. Received cell without a `call` method: 1");
}

namespace {

/// A program's cell, as Keras's guide writes MinimalRNNCell: h = x @ k + h @ r.
Value minimal_cell_class() {
  static const Value cls = make_class(
      "MinimalRNNCell", {tf::api::keras_layers_Layer()},
      {{"__init__", make_function("__init__", {{"self", std::nullopt}, {"units", std::nullopt}},
                                  [](const std::vector<Value>& a) {
                                    a[0].setattr("units", a[1]);
                                    a[0].setattr("state_size", a[1]);
                                    super_getattr(minimal_cell_class(), a[0], "__init__")({}, {});
                                    return Value();
                                  })},
       {"build", make_function("build", {{"self", std::nullopt}, {"input_shape", std::nullopt}},
                               [](const std::vector<Value>& a) {
                                 int64_t f = getitem(a[1], Value(-1)).as_int();
                                 int64_t u = a[0].getattr("units").as_int();
                                 a[0].setattr("kernel", a[0].getattr("add_weight")(
                                                            {}, {{"shape", Value::tuple({Value(f), Value(u)})},
                                                                 {"initializer", Value("ones")},
                                                                 {"name", Value("kernel")}}));
                                 a[0].setattr("recurrent_kernel",
                                              a[0].getattr("add_weight")({}, {{"shape", Value::tuple({Value(u), Value(u)})},
                                                                              {"initializer", Value("identity")},
                                                                              {"name", Value("recurrent_kernel")}}));
                                 a[0].setattr("built", true);
                                 return Value();
                               })},
       {"call", make_function("call", {{"self", std::nullopt}, {"inputs", std::nullopt}, {"states", std::nullopt}},
                              [](const std::vector<Value>& a) {
                                Value h = tf::add(tf::matmul(a[1], a[0].getattr("kernel")),
                                                  tf::matmul(getitem(a[2], Value(0)), a[0].getattr("recurrent_kernel")));
                                return Value::tuple({h, Value::list({h})});
                              })}});
  return cls;
}

}  // namespace

TEST_CASE("keras.layers.RNN over a program's cell: called at each step, eagerly and in a While loop") {
  // kernel ones [2, 1], recurrent identity: h_t = h_{t-1} + x_t[0] + x_t[1], a running sum.
  Value cell = minimal_cell_class()({Value(1)}, {});
  Value rnn = tf::api::keras_layers_RNN()({cell}, {{"return_sequences", Value(true)}, {"return_state", Value(true)}});
  Value x = tensor({1, 2, 3, 4, 5, 6}, {1, 3, 2});
  Value r = rnn({x});
  CHECK(near_all(getitem(r, Value(0)), {3, 10, 21}));
  CHECK(near_all(getitem(r, Value(1)), {21}));
  Value t = traced(rnn, {})({x});
  CHECK(near_all(getitem(t, Value(0)), {3, 10, 21}));
  // A mask makes the While carry the previous output, whose shape the loop learns by a trial step.
  Value masked = traced(rnn, {{"mask", bool_mask({{1, 0, 1}})}})({x});
  CHECK(near_all(getitem(masked, Value(0)), {3, 3, 14}));
  // Gradients through the cell's own variable reads, eagerly and through the While:
  // L = h1 + h2 + h3 with h_t = h_{t-1} r + x_t k; dL/dk = [1+4+9, 2+6+12] = [14, 20],
  // dL/dr = 0 + h1 + (h2 + h1) = 0 + 3 + 13 = 16.
  for (bool in_function : {false, true}) {
    CAPTURE(in_function);
    auto body = [&rnn, &cell](const Value& xs) {
      Value tape = tf::api::GradientTape()({}, {});
      tape.getattr("__enter__")({}, {});
      Value loss = tf::reduce_sum(getitem(rnn({xs}), Value(0)));
      tape.getattr("__exit__")({Value(), Value(), Value()}, {});
      return tape.getattr("gradient")(
          {loss, Value::list({cell.getattr("kernel"), cell.getattr("recurrent_kernel")})}, {});
    };
    Value g = in_function ? tf::api::function({make_function("g", {{"x", std::nullopt}},
                                                             [body](const std::vector<Value>& a) { return body(a[0]); })},
                                              {})({x})
                          : body(x);
    CHECK(near_all(getitem(g, Value(0)), {14, 20}));
    CHECK(near_all(getitem(g, Value(1)), {16}));
  }
  Value last = tf::api::keras_layers_RNN()({minimal_cell_class()({Value(1)}, {})}, {});
  CHECK(near_all(traced(last, {})({x}), {21}));
  CHECK(error_text([] { tf::api::keras_layers_RNN()({Value(3)}, {}); }) ==
        "ValueError: Argument `cell` should have a `call` method. The RNN was passed: cell=3");
}

namespace {

/// d(sum(output * weights))/d(x, kernel, recurrent_kernel, bias) through a
/// GradientTape, eagerly or inside a tf.function.
std::vector<Value> tape_gradients(const Value& layer, const Value& x, const Value& weights, bool in_function,
                                  const Kwargs& call = {}) {
  auto body = [layer, weights, call](const Value& xs) {
    Value tape = tf::api::GradientTape()({}, {});
    tape.getattr("__enter__")({}, {});
    tape.getattr("watch")({xs}, {});
    Value y = layer({xs}, call);
    Value loss = tf::reduce_sum(tf::multiply(y, weights));
    tape.getattr("__exit__")({Value(), Value(), Value()}, {});
    std::vector<Value> sources{xs};
    for (const Value& w : iterate(layer.getattr("trainable_weights"))) sources.push_back(w);
    return tape.getattr("gradient")({loss, Value::list(std::move(sources))}, {});
  };
  Value grads = in_function ? tf::api::function({make_function("grads", {{"x", std::nullopt}},
                                                               [body](const std::vector<Value>& a) { return body(a[0]); })},
                                                {})({x})
                            : body(x);
  return iterate(grads);
}

/// Central differences of the reference's sum(output * weights) in double.
Vec numeric_gradient(const std::function<double()>& loss, Vec& param) {
  Vec g(param.size());
  const double eps = 1e-6;
  for (size_t i = 0; i < param.size(); ++i) {
    double keep = param[i];
    param[i] = keep + eps;
    double up = loss();
    param[i] = keep - eps;
    double down = loss();
    param[i] = keep;
    g[i] = (up - down) / (2 * eps);
  }
  return g;
}

void check_gradients(RK kind, bool return_sequences, bool go_backwards, bool masked) {
  Dims d{2, 4, 3, 3};
  Weights w = make_weights(kind, d.f, d.u);
  Vec x = wave(d.b * d.t * d.f, 0.9, 1.0);
  Options o;
  o.go_backwards = go_backwards;
  if (masked) o.mask = {{1, 0, 1, 1}, {1, 1, 1, 0}};
  Vec coeff = wave(return_sequences ? d.b * d.t * d.u : d.b * d.u, 0.5, 1.0);
  auto loss = [&] {
    RefResult r = ref_run(kind, w, d, x, o);
    const Vec& out = return_sequences ? r.sequence : r.last;
    double sum = 0;
    for (size_t i = 0; i < out.size(); ++i) sum += out[i] * coeff[i];
    return sum;
  };
  std::vector<Vec> want{numeric_gradient(loss, x), numeric_gradient(loss, w.kernel), numeric_gradient(loss, w.recurrent),
                        numeric_gradient(loss, w.bias)};
  Value layer = make_layer(kind, d, w, {{"return_sequences", Value(return_sequences)}, {"go_backwards", Value(go_backwards)}});
  Value weights = tensor(coeff, return_sequences ? std::vector<int64_t>{2, 4, 3} : std::vector<int64_t>{2, 3});
  Kwargs call;
  if (masked) call.emplace_back("mask", bool_mask(o.mask));
  for (bool in_function : {false, true}) {
    CAPTURE(in_function);
    std::vector<Value> got = tape_gradients(layer, tensor(x, {2, 4, 3}), weights, in_function, call);
    REQUIRE(got.size() == 4);
    for (size_t i = 0; i < 4; ++i) {
      CAPTURE(i);
      CHECK(near_all(got[i], want[i], 1e-4));
    }
  }
}

}  // namespace

TEST_CASE("Gradients through the time loop match central differences, eagerly and traced") {
  for (RK kind : {RK::SimpleRNN, RK::GRU, RK::GRUBefore, RK::LSTM}) {
    CAPTURE(static_cast<int>(kind));
    check_gradients(kind, true, false, false);
    check_gradients(kind, false, true, true);
  }
  check_gradients(RK::LSTM, true, true, true);
}

TEST_CASE("An unknown time dim: one While over TensorLists serves every length") {
  Dims d{2, 6, 3, 4};
  Weights w = make_weights(RK::LSTM, d.f, d.u);
  Value layer = make_layer(RK::LSTM, d, w, {{"return_sequences", Value(true)}, {"return_state", Value(true)}});
  Value spec = make_tensor_spec(Shape{kUnknownDim, kUnknownDim, 3}, DType::Float32);
  Value f = traced(layer, {}, Value::tuple({spec}));
  for (size_t t : {6, 2}) {
    d.t = t;
    Vec x = wave(d.b * t * d.f, 0.1, 1.0);
    RefResult want = ref_run(RK::LSTM, w, d, x, {});
    Value r = f({tensor(x, {2, static_cast<int64_t>(t), 3})});
    CHECK(near_all(getitem(r, Value(0)), want.sequence));
    CHECK(near_all(getitem(r, Value(2)), want.states[1]));
  }
  CHECK(f.getattr("experimental_get_tracing_count")({}, {}).as_int() == 1);
  // unroll=True needs the time dim.
  Value unrolled = make_layer(RK::LSTM, d, w, {{"unroll", Value(true)}});
  CHECK(call_error_text([&] { traced(unrolled, {}, Value::tuple({spec}))({tensor(wave(12, 0.0), {2, 2, 3})}); })
            .rfind("ValueError: Cannot unroll a RNN if the time dimension is undefined. \n- If using a Sequential", 0) == 0);
  // With a static time dim, unroll=True is a Python loop while tracing too.
  Vec x = wave(2 * 2 * 3, 0.3, 1.0);
  d.t = 2;
  CHECK(near_all(traced(unrolled, {})({tensor(x, {2, 2, 3})}), ref_run(RK::LSTM, w, d, x, {}).last));
}

TEST_CASE("Bidirectional: forward_ and backward_ copies, every merge mode, states and masks") {
  Dims d{2, 4, 3, 2};
  Weights wf = make_weights(RK::LSTM, d.f, d.u), wb = make_weights(RK::LSTM, d.f, d.u);
  wb.kernel = wave(wb.kernel.size(), 4.0, 0.6);
  Vec x = wave(d.b * d.t * d.f, 1.7, 1.0);
  Value xt = tensor(x, {2, 4, 3});
  auto make = [&](const Value& merge, bool seq, bool state) {
    Value inner = tf::api::keras_layers_LSTM()({Value(2)}, {{"return_sequences", Value(seq)},
                                                          {"return_state", Value(state)},
                                                          {"name", Value("lstm")}});
    Value bi = tf::api::keras_layers_Bidirectional()({inner}, {{"merge_mode", merge}});
    bi({xt});
    set_cell_weights(bi.getattr("forward_layer").getattr("cell"), RK::LSTM, wf, d.f, d.u);
    set_cell_weights(bi.getattr("backward_layer").getattr("cell"), RK::LSTM, wb, d.f, d.u);
    return bi;
  };
  Value bi = make(Value("concat"), true, false);
  std::string name = str(bi.getattr("name"));
  CHECK(name.rfind("bidirectional", 0) == 0);
  CHECK(str(bi.getattr("forward_layer").getattr("name")) == "forward_lstm");
  CHECK(str(bi.getattr("backward_layer").getattr("name")) == "backward_lstm");
  CHECK(truthy(bi.getattr("backward_layer").getattr("go_backwards")));
  std::vector<Value> ws = bi.getattr("weights").items();
  REQUIRE(ws.size() == 6);  // the given layer is not tracked
  CHECK(str(ws[0].getattr("name")) == name + "/forward_lstm/lstm_cell/kernel:0");
  CHECK(str(ws[5].getattr("name")) == name + "/backward_lstm/lstm_cell/bias:0");
  CHECK(bi.getattr("layer").getattr("weights").items().empty());

  Options back;
  back.go_backwards = true;
  RefResult f = ref_run(RK::LSTM, wf, d, x, {}), b = ref_run(RK::LSTM, wb, d, x, back);
  // The backward sequence is reversed back into time order before merging.
  Vec b_seq(b.sequence.size());
  for (size_t i = 0; i < d.b; ++i) {
    for (size_t t = 0; t < d.t; ++t) {
      for (size_t j = 0; j < d.u; ++j) b_seq[(i * d.t + t) * d.u + j] = b.sequence[(i * d.t + (d.t - 1 - t)) * d.u + j];
    }
  }
  Vec concat, sum, mul, ave;
  for (size_t r = 0; r < d.b * d.t; ++r) {
    for (size_t j = 0; j < d.u; ++j) concat.push_back(f.sequence[r * d.u + j]);
    for (size_t j = 0; j < d.u; ++j) concat.push_back(b_seq[r * d.u + j]);
  }
  for (size_t i = 0; i < f.sequence.size(); ++i) {
    sum.push_back(f.sequence[i] + b_seq[i]);
    mul.push_back(f.sequence[i] * b_seq[i]);
    ave.push_back((f.sequence[i] + b_seq[i]) / 2);
  }
  CHECK(near_all(bi({xt}), concat));
  CHECK(str(bi({xt}).getattr("shape")) == "(2, 4, 4)");
  CHECK(near_all(traced(bi, {})({xt}), concat));
  CHECK(near_all(make(Value("sum"), true, false)({xt}), sum));
  CHECK(near_all(make(Value("mul"), true, false)({xt}), mul));
  CHECK(near_all(make(Value("ave"), true, false)({xt}), ave));
  Value none = make(Value(), true, false)({xt});
  REQUIRE(iterate(none).size() == 2);
  CHECK(near_all(getitem(none, Value(0)), f.sequence));
  CHECK(near_all(getitem(none, Value(1)), b_seq));
  // return_state: [output, forward h, forward c, backward h, backward c].
  Value states = make(Value("sum"), false, true)({xt});
  REQUIRE(iterate(states).size() == 5);
  Vec last_sum;
  for (size_t i = 0; i < f.last.size(); ++i) last_sum.push_back(f.last[i] + b.last[i]);
  CHECK(near_all(getitem(states, Value(0)), last_sum));
  CHECK(near_all(getitem(states, Value(2)), f.states[1]));
  CHECK(near_all(getitem(states, Value(3)), b.states[0]));
  // Masked steps output zeros in both directions when sequences are returned.
  Options fm, bm;
  fm.mask = bm.mask = {{1, 1, 0, 0}, {1, 0, 1, 1}};
  fm.zero_output_for_mask = bm.zero_output_for_mask = true;
  bm.go_backwards = true;
  RefResult fr = ref_run(RK::LSTM, wf, d, x, fm), br = ref_run(RK::LSTM, wb, d, x, bm);
  Value none_masked = make(Value(), true, false)({xt}, {{"mask", bool_mask(fm.mask)}});
  CHECK(near_all(getitem(none_masked, Value(0)), fr.sequence));
  Vec br_seq(br.sequence.size());
  for (size_t i = 0; i < d.b; ++i) {
    for (size_t t = 0; t < d.t; ++t) {
      for (size_t j = 0; j < d.u; ++j) br_seq[(i * d.t + t) * d.u + j] = br.sequence[(i * d.t + (d.t - 1 - t)) * d.u + j];
    }
  }
  CHECK(near_all(getitem(none_masked, Value(1)), br_seq));
  // Initial states: the first half forward, the second backward.
  Value with_states = make(Value("concat"), false, false);
  std::vector<Value> init;
  for (int k = 0; k < 4; ++k) init.push_back(tensor(wave(4, 0.5 * k, 0.3), {2, 2}));
  Options fi, bi_opts;
  fi.initial = {wave(4, 0.0, 0.3), wave(4, 0.5, 0.3)};
  bi_opts.initial = {wave(4, 1.0, 0.3), wave(4, 1.5, 0.3)};
  bi_opts.go_backwards = true;
  RefResult fs = ref_run(RK::LSTM, wf, d, x, fi), bs = ref_run(RK::LSTM, wb, d, x, bi_opts);
  Vec cat;
  for (size_t i = 0; i < d.b; ++i) {
    for (size_t j = 0; j < d.u; ++j) cat.push_back(fs.last[i * d.u + j]);
    for (size_t j = 0; j < d.u; ++j) cat.push_back(bs.last[i * d.u + j]);
  }
  CHECK(near_all(with_states({xt}, {{"initial_state", Value::list(init)}}), cat));

  Value lstm = tf::api::keras_layers_LSTM()({Value(2)}, {});
  CHECK(error_text([&] { tf::api::keras_layers_Bidirectional()({lstm}, {{"merge_mode", Value("max")}}); }) ==
        "ValueError: Invalid merge mode. Received: max. Merge mode should be one of {\"sum\", \"mul\", \"ave\", "
        "\"concat\", None}");
  CHECK(error_text([&] { tf::api::keras_layers_Bidirectional()({Value(1)}, {}); }) ==
        "ValueError: Please initialize `Bidirectional` layer with a `tf.keras.layers.Layer` instance. Received: 1");
  CHECK(error_text([&] {
          tf::api::keras_layers_Bidirectional()({lstm}, {{"backward_layer", tf::api::keras_layers_LSTM()({Value(2)}, {})}});
        }) ==
        "ValueError: Forward layer and backward layer should have different `go_backwards` value.forward_layer."
        "go_backwards = False,backward_layer.go_backwards = False");
  CHECK(error_text([&] {
          tf::api::keras_layers_Bidirectional()(
              {lstm}, {{"backward_layer", tf::api::keras_layers_LSTM()(
                                               {Value(2)}, {{"go_backwards", Value(true)}, {"return_sequences", Value(true)}})}});
        }) ==
        "ValueError: Forward layer and backward layer are expected to have the same value for attribute "
        "\"return_sequences\", got \"False\" for forward layer and \"True\" for backward layer");
  CHECK(error_text([&] { with_states({xt}, {{"initial_state", Value::list({init[0]})}}); }) ==
        "ValueError: When passing `initial_state` to a Bidirectional RNN, the state should be a list containing the "
        "states of the underlying RNNs. Received: [" + repr(init[0]) + "]");
}

TEST_CASE("TimeDistributed(Dense): one Dense over [batch * time, ...], named after the wrapper") {
  Value dense = tf::api::keras_layers_Dense()({Value(2)}, {});
  Value td = tf::api::keras_layers_TimeDistributed()({dense}, {});
  Vec x = wave(2 * 3 * 4, 0.6, 1.0);
  Value xt = tensor(x, {2, 3, 4});
  Value y = td({xt});
  CHECK(str(y.getattr("shape")) == "(2, 3, 2)");
  std::string name = str(td.getattr("name"));
  CHECK(name.rfind("time_distributed", 0) == 0);
  std::vector<Value> ws = td.getattr("weights").items();
  REQUIRE(ws.size() == 2);
  CHECK(str(ws[0].getattr("name")) == name + "/kernel:0");  // Keras builds the inner layer under the wrapper's name
  Value per_step = tf::stack(Value::list({dense({getitem(xt, std::vector<IndexPart>{SliceSpec{}, Value(0)})}),
                                          dense({getitem(xt, std::vector<IndexPart>{SliceSpec{}, Value(1)})}),
                                          dense({getitem(xt, std::vector<IndexPart>{SliceSpec{}, Value(2)})})}),
                             Value(1));
  Vec want;
  for (float v : floats(per_step)) want.push_back(v);
  CHECK(near_all(y, want));
  // Unknown batch and time dims while tracing.
  Value spec = make_tensor_spec(Shape{kUnknownDim, kUnknownDim, 4}, DType::Float32);
  Value f = traced(td, {}, Value::tuple({spec}));
  CHECK(near_all(f({xt}), want));
  CHECK(error_text([&] { tf::api::keras_layers_TimeDistributed()({tf::api::keras_layers_Dense()({Value(2)}, {})}, {})(
                             {tensor(wave(6, 0.0), {2, 3})}); }) ==
        "ValueError: `TimeDistributed` Layer should be passed an `input_shape ` with at least 3 dimensions, received: "
        "(2, 3)");
  CHECK(error_text([] { tf::api::keras_layers_TimeDistributed()({Value("dense")}, {}); }) ==
        "ValueError: Please initialize `TimeDistributed` layer with a `tf.keras.layers.Layer` instance. Received: dense");
  // A program's layer with a static batch runs once per time step (Keras's rnn path).
  Value cell_layer = make_class("Doubler", {tf::api::keras_layers_Layer()},
                                {{"call", make_function("call", {{"self", std::nullopt}, {"inputs", std::nullopt}},
                                                        [](const std::vector<Value>& a) {
                                                          return tf::multiply(a[1], Value(2.0));
                                                        })}})({}, {});
  Value td2 = tf::api::keras_layers_TimeDistributed()({cell_layer}, {});
  Vec doubled;
  for (double v : x) doubled.push_back(2 * v);
  CHECK(near_all(td2({xt}), doubled));
  CHECK(near_all(traced(td2, {})({xt}), doubled));
}

TEST_CASE("Keras's error texts for recurrent layers") {
  Value lstm = tf::api::keras_layers_LSTM()({Value(3)}, {{"name", Value("lstm")}});
  CHECK(error_text([&] { lstm({tensor(wave(6, 0.0), {2, 3})}); }) ==
        "ValueError: Input 0 of layer \"lstm\" is incompatible with the layer: expected ndim=3, found ndim=2. Full "
        "shape received: (2, 3)");
  lstm({tensor(wave(2 * 5 * 3, 0.0), {2, 5, 3})});
  CHECK(error_text([&] { lstm({tensor(wave(2 * 5 * 4, 0.0), {2, 5, 4})}); }) ==
        "ValueError: Input 0 of layer \"lstm\" is incompatible with the layer: expected shape=(None, None, 3), found "
        "shape=(2, 5, 4)");
  CHECK(call_error_text([&] { lstm({tensor(wave(30, 0.0), {2, 5, 3})}, {{"initial_state", tensor(wave(6, 0.0), {2, 3})}}); }) ==
        "ValueError: Layer has 2 states but was passed 1 initial states. Received: initial_state=" +
            str(tensor(wave(6, 0.0), {2, 3})));
  CHECK(error_text([] { tf::api::keras_layers_GRU()({Value(-1)}, {}); }) ==
        "ValueError: Received an invalid value for argument `units`, expected a positive integer, got -1.");
  CHECK(error_text([] { tf::api::keras_layers_SimpleRNN()({Value(2)}, {{"stateful", Value(true)}}); }) ==
        "UnimplementedError: agc: stateful recurrent layers (stateful=True) are not supported");
  CHECK(error_text([] { tf::api::keras_layers_LSTM()({Value(2)}, {{"bogus", Value(1)}}); }) ==
        "TypeError: ('Keyword argument not understood:', 'bogus')");
  Value no_state = make_class("NoState", {tf::api::keras_layers_Layer()}, {})({}, {});
  CHECK(error_text([&] { tf::api::keras_layers_RNN()({no_state}, {}); }).rfind(
            "ValueError: The RNN cell should have a `state_size` attribute (tuple of integers, one integer per RNN "
            "state). Received: cell=",
            0) == 0);
}

TEST_CASE("Dropout in training only: inputs per sequence (LSTM, GRU) or per step (cells), recurrent per gate") {
  tf::set_seed(Value(5));
  Dims d{2, 4, 3, 3};
  Vec x = wave(d.b * d.t * d.f, 0.0, 1.0);
  Value xt = tensor(x, {2, 4, 3});
  for (RK kind : {RK::SimpleRNN, RK::GRU, RK::LSTM}) {
    CAPTURE(static_cast<int>(kind));
    Weights w = make_weights(kind, d.f, d.u);
    RefResult want = ref_run(kind, w, d, x, {});
    for (Kwargs kw : {Kwargs{{"dropout", Value(0.5)}}, Kwargs{{"recurrent_dropout", Value(0.5)}}}) {
      Value layer = make_layer(kind, d, w, kw);
      CHECK(near_all(layer({xt}), want.last));
      CHECK(near_all(layer({xt}, {{"training", Value(false)}}), want.last));
      std::vector<float> trained = floats(layer({xt}, {{"training", Value(true)}}));
      bool differs = false;
      for (size_t i = 0; i < trained.size(); ++i) differs |= std::abs(trained[i] - want.last[i]) > 1e-4;
      CHECK(differs);
      // And traced, where the masks are drawn once per call outside the loop.
      std::vector<float> traced_train = floats(traced(layer, {{"training", Value(true)}})({xt}));
      CHECK(traced_train.size() == want.last.size());
    }
  }
  // implementation=1 (forced by recurrent dropout) is kept as Keras reports it.
  CHECK(make_layer(RK::LSTM, d, make_weights(RK::LSTM, 3, 3), {{"recurrent_dropout", Value(0.2)}})
            .getattr("implementation")
            .as_int() == 1);
}

TEST_CASE("A functional model over keras.Input with an unknown time dim runs the layer's loop") {
  Dims d{2, 5, 3, 4};
  Weights w = make_weights(RK::GRU, d.f, d.u);
  Value inputs = tf::api::keras_Input()({Value::tuple({Value(), Value(3)})}, {});
  Value gru = tf::api::keras_layers_GRU()({Value(4)}, {{"return_sequences", Value(true)}});
  Value outputs = gru({inputs});
  CHECK(str(outputs.getattr("shape")) == "(None, None, 4)");
  Value model = tf::api::keras_Model()({}, {{"inputs", inputs}, {"outputs", outputs}});
  set_cell_weights(gru.getattr("cell"), RK::GRU, w, d.f, d.u);
  Vec x = wave(d.b * d.t * d.f, 0.2, 1.0);
  CHECK(near_all(model({tensor(x, {2, 5, 3})}), ref_run(RK::GRU, w, d, x, {}).sequence));
}

TEST_CASE("fit() trains a Sequential LSTM: the traced train step differentiates the While") {
  tf::set_seed(Value(3));
  Value model = tf::api::keras_Sequential()(
      {Value::list({tf::api::keras_layers_LSTM()({Value(4)}, {{"input_shape", Value::tuple({Value(), Value(3)})}}),
                    tf::api::keras_layers_Dense()({Value(1)}, {})})},
      {});
  // LSTM: 4 gates of 4 units over 3 inputs, 4 recurrent and a bias; Dense: 4 + 1.
  CHECK(model.getattr("count_params")({}, {}).as_int() == 4 * 4 * (3 + 4 + 1) + 5);
  model.getattr("compile")({}, {{"optimizer", tf::api::keras_optimizers_Adam()({}, {{"learning_rate", Value(0.05)}})},
                                {"loss", Value("mse")}});
  // Target: the sum of the first feature over the sequence.
  Value x = tensor(wave(16 * 5 * 3, 0.3, 1.0), {16, 5, 3});
  Value y = tf::reduce_sum(getitem(x, std::vector<IndexPart>{SliceSpec{}, SliceSpec{}, SliceSpec{Value(0), Value(1), Value()}}),
                           Value(1));
  Value history = model.getattr("fit")({x, y}, {{"epochs", Value(30)}, {"batch_size", Value(16)}, {"verbose", Value(0)}});
  std::vector<Value> losses = iterate(getitem(history.getattr("history"), Value("loss")));
  REQUIRE(losses.size() == 30);
  CHECK(losses.back().as_float() < 0.5 * losses.front().as_float());
  CHECK(str(model.getattr("predict")({x}, {{"verbose", Value(0)}}).getattr("shape")) == "(16, 1)");
}

TEST_CASE("Implicit masks: Embedding(mask_zero=True) masks the LSTMs after it; compute_mask as Keras's") {
  Value tokens = tf::constant(Value::list({Value::list({Value(1), Value(2), Value(0), Value(0)}),
                                           Value::list({Value(3), Value(0), Value(4), Value(0)})}));
  tf::set_seed(Value(2));
  Value embed = tf::api::keras_layers_Embedding()({Value(5), Value(3)}, {{"mask_zero", Value(true)}});
  Value first = tf::api::keras_layers_LSTM()({Value(4)}, {{"return_sequences", Value(true)}});
  Value second = tf::api::keras_layers_GRU()({Value(2)}, {});
  Value model = tf::api::keras_Sequential()({Value::list({embed, first, second})}, {});
  Value y = model({tokens});
  // The same layers with the mask passed by hand.
  Value mask = tf::not_equal(tokens, Value(0));
  Value e = embed({tokens});
  Value want = second({first({e}, {{"mask", mask}})}, {{"mask", mask}});
  CHECK(near_all(y, [&] {
    Vec v;
    for (float f : floats(want)) v.push_back(f);
    return v;
  }()));
  // Unmasked, the padded steps would change the result.
  std::vector<float> unmasked = floats(second({first({e}, {{"mask", Value()}})}, {{"mask", Value()}}));
  CHECK(std::abs(unmasked[0] - floats(want)[0]) > 1e-6);
  // compute_mask: the mask for a returned sequence, None for the last output and states.
  Value seq = tf::api::keras_layers_LSTM()({Value(2)}, {{"return_sequences", Value(true)}, {"return_state", Value(true)}});
  Value masks = seq.getattr("compute_mask")({e, mask}, {});
  REQUIRE(iterate(masks).size() == 3);
  CHECK(getitem(masks, Value(0)).is_tensor());
  CHECK(getitem(masks, Value(1)).is_none());
  CHECK(tf::api::keras_layers_LSTM()({Value(2)}, {}).getattr("compute_mask")({e, mask}, {}).is_none());
  Value bi = tf::api::keras_layers_Bidirectional()({tf::api::keras_layers_LSTM()({Value(2)}, {{"return_sequences", Value(true)}})},
                                                    {{"merge_mode", Value()}});
  CHECK(iterate(bi.getattr("compute_mask")({e, mask}, {})).size() == 2);
}
