// keras.layers.SimpleRNNCell, GRUCell and LSTMCell (Keras 2.15's
// tf_keras/layers/rnn/{simple_rnn,gru,lstm}.py): their constructors' checks,
// weights (names, shapes and gate order: GRU z, r, h; LSTM i, f, c, o) and
// one step, written as the two parts the time loop runs (layers_rnn.h): the
// input projection and the recurrent step. StackedRNNCells (what
// RNN([cell, ...]) runs) calls its cells in turn.
#include <algorithm>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/graph/tracing.h"
#include "runtime/keras/activations.h"
#include "runtime/keras/initializers.h"
#include "runtime/keras/layer.h"
#include "runtime/keras/layers_rnn.h"
#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"
#include "runtime/value/variable_value.h"

namespace ag::keras::rnn {
namespace {

Value rnn_add(const Value& a, const Value& b) { return tf::add(a, b); }
Value rnn_mul(const Value& a, const Value& b) { return tf::multiply(a, b); }
Value rnn_dot(const Value& a, const Value& b) { return tf::matmul(a, b); }
Value rnn_act(const Value& f, const Value& x) { return f({x}, {}); }
std::vector<Value> rnn_split(const Value& x, int64_t n) { return tf::split(x, Value(n), Value(1)).items(); }
Value rnn_concat(std::vector<Value> parts) { return tf::concat(Value::list(std::move(parts)), Value(-1)); }

/// The value of parameter `name` among a constructor's bound arguments
/// (`a[0]` is self, then one per parameter).
const Value& arg(const std::vector<Param>& params, const std::vector<Value>& a, std::string_view name) {
  for (size_t i = 0; i < params.size(); ++i) {
    if (params[i].name == name) return a[i + 1];
  }
  throw InternalError("rnn: no constructor parameter " + std::string(name));
}

/// `kwargs` without `drop` (the keywords Keras's cells and layers pop before Layer.__init__).
Value without(const Value& kwargs, std::initializer_list<std::string_view> drop) {
  std::vector<std::pair<Value, Value>> kept;
  for (const auto& [k, v] : kwargs.as_dict().entries) {
    if (std::find(drop.begin(), drop.end(), k.as_str()) == drop.end()) kept.emplace_back(k, v);
  }
  return Value::dict(std::move(kept));
}

Value kwarg_or(const Value& kwargs, std::string_view key, Value fallback) {
  for (const auto& [k, v] : kwargs.as_dict().entries) {
    if (k.as_str() == key) return v;
  }
  return fallback;
}

/// min(1, max(0, rate)), as the cells store dropout rates.
double clip_rate(const Value& v) { return std::min(1.0, std::max(0.0, v.as_float())); }

void init_cell(CellKind kind, const std::vector<Param>& params, const Value& self, const std::vector<Value>& a) {
  const Value& units = arg(params, a, "units");
  if (!units.is_index() || units.as_int() <= 0) {
    throw ValueError("Received an invalid value for argument `units`, expected a positive integer, got " + str(units) +
                     ".");
  }
  for (const char* c : {"kernel_constraint", "recurrent_constraint", "bias_constraint"}) {
    if (!arg(params, a, c).is_none()) throw UnimplementedError(std::string("agc: recurrent cells do not support `") + c + "`");
  }
  const Value& kwargs = a.back();
  int64_t implementation = kwarg_or(kwargs, "implementation", Value(2)).as_int();
  init_base(self, arg(params, a, "name"), arg(params, a, "trainable"), arg(params, a, "dtype"),
            without(kwargs, {"implementation", "enable_caching_device"}));
  int64_t u = units.as_int();
  self.setattr("units", Value(u));
  self.setattr("activation", get_activation(arg(params, a, "activation")));
  if (kind != CellKind::SimpleRNN) {
    self.setattr("recurrent_activation", get_activation(arg(params, a, "recurrent_activation")));
  }
  self.setattr("use_bias", Value(truthy(arg(params, a, "use_bias"))));
  for (const char* name : {"kernel_initializer", "recurrent_initializer", "bias_initializer", "kernel_regularizer",
                           "recurrent_regularizer", "bias_regularizer"}) {
    self.setattr(name, arg(params, a, name));
  }
  if (kind == CellKind::LSTM) self.setattr("unit_forget_bias", Value(truthy(arg(params, a, "unit_forget_bias"))));
  double dropout = clip_rate(arg(params, a, "dropout"));
  double recurrent_dropout = clip_rate(arg(params, a, "recurrent_dropout"));
  self.setattr("dropout", Value(dropout));
  self.setattr("recurrent_dropout", Value(recurrent_dropout));
  if (kind != CellKind::SimpleRNN) {
    // Keras: recurrent dropout needs the per-gate products of implementation 1.
    self.setattr("implementation", Value(recurrent_dropout != 0.0 ? int64_t{1} : implementation));
  }
  if (kind == CellKind::GRU) self.setattr("reset_after", Value(truthy(arg(params, a, "reset_after"))));
  if (kind == CellKind::LSTM) {
    self.setattr("state_size", Value::list({Value(u), Value(u)}));
  } else {
    self.setattr("state_size", Value(u));
  }
  self.setattr("output_size", Value(u));
}

int gates_of(CellKind kind) { return kind == CellKind::LSTM ? 4 : kind == CellKind::GRU ? 3 : 1; }

void build_cell(CellKind kind, const Value& self, const Value& input_shape) {
  int64_t input_dim = shape_dim(input_shape, -1);
  if (input_dim < 0) {
    throw ValueError("The last dimension of the inputs to a recurrent cell should be defined. Found None. Full input "
                     "shape received: " + str(input_shape));
  }
  int64_t u = self.getattr("units").as_int();
  int64_t g = gates_of(kind);
  self.setattr("kernel", add_weight(self, {"kernel", {input_dim, g * u}, self.getattr("kernel_initializer"),
                                           self.getattr("kernel_regularizer")}));
  self.setattr("recurrent_kernel", add_weight(self, {"recurrent_kernel", {u, g * u}, self.getattr("recurrent_initializer"),
                                                     self.getattr("recurrent_regularizer")}));
  if (!truthy(self.getattr("use_bias"))) {
    self.setattr("bias", Value());
    return;
  }
  Value initializer = self.getattr("bias_initializer");
  std::vector<int64_t> shape{g * u};
  if (kind == CellKind::GRU && truthy(self.getattr("reset_after"))) {
    shape = {2, 3 * u};  // separate input and recurrent biases (Keras's shape, unlike CuDNNGRU's)
  }
  if (kind == CellKind::LSTM && truthy(self.getattr("unit_forget_bias"))) {
    // The forget gate's bias starts at ones: [init(u), ones(u), init(2u)].
    Value base = initializer;
    initializer = Value::callable("bias_initializer", [base, u](std::vector<Value>, Kwargs) -> Value {
      Tensor i = initial_value(base, {u}, DType::Float32);
      Tensor f = initial_value(Value("ones"), {u}, DType::Float32);
      Tensor co = initial_value(base, {2 * u}, DType::Float32);
      return tf::concat(Value::list({Value(i), Value(f), Value(co)}), Value(0));
    });
  }
  self.setattr("bias", add_weight(self, {"bias", shape, initializer, self.getattr("bias_regularizer")}));
}

/// Cell.call(inputs, states, training=None): one step, as Keras's cells return
/// it (LSTM: (h, [h, c]); the others: (h, [h]) for a list of states, else (h, h)).
Value call_cell(CellKind kind, const std::vector<Value>& a) {
  const Value& self = a[0];
  Value x = Value(to_tensor(a[1]));
  const Value& states = a[2];
  bool nested = states.is_list() || states.is_tuple();
  std::vector<Value> st = nested ? iterate(states) : std::vector<Value>{states};
  CellMath m = cell_math(self);
  std::vector<Value> xs{x};
  if (m.dropout > 0.0 && m.dropout < 1.0 && training_on(a[3])) {
    std::vector<Value> masks = dropout_masks(x, m.dropout, m.implementation == 1 ? m.gates : 1);
    xs.clear();
    for (const Value& mask : masks) xs.push_back(rnn_mul(x, mask));
  }
  std::vector<Value> recurrent_masks;
  if (m.recurrent_dropout > 0.0 && m.recurrent_dropout < 1.0 && training_on(a[3])) {
    recurrent_masks = dropout_masks(st.at(0), m.recurrent_dropout, m.gates);
  }
  auto [output, next] = cell_step(m, project_inputs(m, xs), st, recurrent_masks);
  if (kind == CellKind::LSTM || nested) return Value::tuple({output, Value::list(std::move(next))});
  return Value::tuple({output, next.at(0)});
}

/// Cell.get_initial_state(inputs=None, batch_size=None, dtype=None): zeros
/// [batch, units] per state (a list for the LSTM's two), as Keras's
/// generate_zero_filled_state_for_cell.
Value initial_state_method(CellKind kind, const std::vector<Value>& a) {
  const Value& self = a[0];
  Value batch = a[2];
  if (!a[1].is_none()) batch = tf::api::gather({tf::api::shape({a[1]}, {}), Value(0)}, {});
  if (batch.is_none()) {
    throw ValueError("batch_size and dtype cannot be None while constructing initial state. Received: batch_size=" +
                     str(batch) + ", dtype=" + str(a[3]));
  }
  Value u = self.getattr("units");
  auto zeros = [&] { return tf::zeros(batch.is_tensor() ? tf::api::stack({Value::list({batch, u})}, {}) : Value::list({batch, u})); };
  if (kind == CellKind::LSTM) return Value::list({zeros(), zeros()});
  return zeros();
}

Value make_cell_class(CellKind kind, const char* name) {
  std::vector<Param> params = cell_params(kind);
  Value cls = make_layer_class(LayerDef{
      .name = name,
      .init_params = params,
      .init =
          [kind, params](const Value& self, const std::vector<Value>& a) {
            init_cell(kind, params, self, a);
            save_constructor_args(self, params, a);
          },
      .build = [kind](const Value& self, const Value& input_shape) { build_cell(kind, self, input_shape); },
      .call_params = {{"states", std::nullopt}, {"training", Value()}},
      .call = [kind](const std::vector<Value>& a) { return call_cell(kind, a); },
      .config = {"units", "activation", "use_bias", "dropout", "recurrent_dropout"},
  });
  cls.as_object().attrs.push_back(native_method(
      std::string(name) + ".get_initial_state", "get_initial_state",
      {{"self", std::nullopt}, {"inputs", Value()}, {"batch_size", Value()}, {"dtype", Value()}},
      [kind](const std::vector<Value>& a) { return initial_state_method(kind, a); }));
  return cls;
}

// ---- StackedRNNCells: the cell RNN([cell, ...]) runs, each cell's output
// the next one's input.

/// How many state tensors a state size stands for (ints and TensorShapes are
/// one each; lists and tuples nest).
size_t size_leaves(const Value& size) {
  if (!size.is_list() && !size.is_tuple()) return 1;
  size_t n = 0;
  for (const Value& s : size.items()) n += size_leaves(s);
  return n;
}

/// `size`'s structure with leaves from `leaves` (tf.nest.pack_sequence_as(state_size, ...)).
Value pack_by_size(const Value& size, const std::vector<Value>& leaves, size_t& pos) {
  if (!size.is_list() && !size.is_tuple()) return leaves.at(pos++);
  std::vector<Value> parts;
  for (const Value& s : size.items()) parts.push_back(pack_by_size(s, leaves, pos));
  return size.is_list() ? Value::list(std::move(parts)) : Value::tuple(std::move(parts));
}

/// A cell's output size: output_size, else its (first) state size.
Value output_size_of(const Value& cell) {
  if (cell.hasattr("output_size") && !cell.getattr("output_size").is_none()) return cell.getattr("output_size");
  Value size = cell.getattr("state_size");
  return size.is_list() || size.is_tuple() ? size.items().at(0) : size;
}

void init_stacked(const Value& self, const std::vector<Value>& a) {
  std::vector<Value> cells = iterate(a[1]);
  for (const Value& cell : cells) {
    if (!cell.hasattr("call")) {
      throw ValueError("All cells must have a `call` method. Received cell without a `call` method: " + str(cell));
    }
    if (!cell.hasattr("state_size")) {
      throw ValueError("All cells must have a `state_size` attribute. Received cell without a `state_size`: " +
                       str(cell));
    }
  }
  if (truthy(kwarg_or(a[5], "reverse_state_order", Value(false)))) {
    throw UnimplementedError("agc: StackedRNNCells(reverse_state_order=True) is not supported");
  }
  init_base(self, a[2], a[3], a[4], without(a[5], {"reverse_state_order"}));
  self.setattr("cells", Value::list(cells));
  std::vector<Value> sizes;
  for (const Value& cell : cells) sizes.push_back(cell.getattr("state_size"));
  self.setattr("state_size", Value::tuple(std::move(sizes)));
  self.setattr("output_size", cells.empty() ? Value() : output_size_of(cells.back()));
}

void build_stacked(const Value& self, const Value& input_shape) {
  Value shape = input_shape.is_list() ? input_shape.items().at(0) : input_shape;
  for (const Value& cell : iterate(self.getattr("cells"))) {
    if (is_layer(cell) && !truthy(cell.getattr("built"))) {
      struct Scope {
        explicit Scope(const std::string& n) : saved(eager_name_scope()) { set_eager_name_scope(saved + n + "/"); }
        ~Scope() { set_eager_name_scope(saved); }
        std::string saved;
      } scope(layer_name(cell));
      cell.getattr("build")({shape}, {});
      cell.setattr("built", true);
    }
    Value dim = output_size_of(cell);
    std::vector<Value> next{iterate(shape).at(0)};
    for (const Value& d : dim.is_index() ? std::vector<Value>{dim} : iterate(dim)) next.push_back(d);
    shape = Value::tuple(std::move(next));
  }
}

/// StackedRNNCells.call(inputs, states, constants=None, training=None).
Value call_stacked(const std::vector<Value>& a) {
  if (!a[3].is_none()) throw UnimplementedError("agc: RNN `constants` are not supported");
  std::vector<Value> flat;
  flatten_states(a[2], flat);
  size_t pos = 0;
  Value x = a[1];
  std::vector<Value> next;
  for (const Value& cell : iterate(a[0].getattr("cells"))) {
    size_t n = size_leaves(cell.getattr("state_size"));
    if (pos + n > flat.size()) throw ValueError("StackedRNNCells: fewer states than the cells' state sizes");
    Value states = Value::list(std::vector<Value>(flat.begin() + static_cast<std::ptrdiff_t>(pos),
                                                  flat.begin() + static_cast<std::ptrdiff_t>(pos + n)));
    pos += n;
    Value r = cell({x, states}, {{"training", a[4]}});
    x = getitem(r, Value(0));
    flatten_states(getitem(r, Value(1)), next);
  }
  size_t at = 0;
  return Value::tuple({x, pack_by_size(a[0].getattr("state_size"), next, at)});
}

/// StackedRNNCells.get_initial_state: each cell's, as a tuple.
Value stacked_initial_state(const std::vector<Value>& a) {
  std::vector<Value> out;
  for (const Value& cell : iterate(a[0].getattr("cells"))) {
    if (cell.hasattr("get_initial_state")) {
      out.push_back(cell.getattr("get_initial_state")({}, {{"inputs", a[1]}, {"batch_size", a[2]}, {"dtype", a[3]}}));
      continue;
    }
    Value batch = a[1].is_none() ? a[2] : tf::api::gather({tf::api::shape({a[1]}, {}), Value(0)}, {});
    Value size = cell.getattr("state_size");
    std::vector<Value> zeros;
    for (const Value& s : size.is_list() || size.is_tuple() ? iterate(size) : std::vector<Value>{size}) {
      std::vector<Value> dims{batch};
      for (const Value& d : s.is_index() ? std::vector<Value>{s} : iterate(s)) dims.push_back(d);
      bool dynamic = std::any_of(dims.begin(), dims.end(), [](const Value& d) { return d.is_tensor(); });
      zeros.push_back(tf::zeros(dynamic ? tf::api::stack({Value::list(dims)}, {}) : Value::list(dims)));
    }
    out.push_back(size.is_list() || size.is_tuple() ? Value::list(std::move(zeros)) : zeros[0]);
  }
  return Value::tuple(std::move(out));
}

Value make_stacked_cells_class() {
  Value cls = make_layer_class(LayerDef{
      .name = "StackedRNNCells",
      .init_params = {{"cells", std::nullopt}, {"name", Value()}, {"trainable", Value(true)}, {"dtype", Value()}},
      .init = init_stacked,
      .build = build_stacked,
      .call_params = {{"states", std::nullopt}, {"constants", Value()}, {"training", Value()}},
      .call = call_stacked,
      .config = {},
  });
  cls.as_object().attrs.push_back(native_method(
      "StackedRNNCells.get_initial_state", "get_initial_state",
      {{"self", std::nullopt}, {"inputs", Value()}, {"batch_size", Value()}, {"dtype", Value()}}, stacked_initial_state));
  return cls;
}

}  // namespace

std::vector<Param> cell_params(CellKind kind) {
  std::vector<Param> p{{"units", std::nullopt}, {"activation", Value("tanh")}};
  if (kind != CellKind::SimpleRNN) p.push_back({"recurrent_activation", Value("sigmoid")});
  p.push_back({"use_bias", Value(true)});
  p.push_back({"kernel_initializer", Value("glorot_uniform")});
  p.push_back({"recurrent_initializer", Value("orthogonal")});
  p.push_back({"bias_initializer", Value("zeros")});
  if (kind == CellKind::LSTM) p.push_back({"unit_forget_bias", Value(true)});
  for (const char* name : {"kernel_regularizer", "recurrent_regularizer", "bias_regularizer", "kernel_constraint",
                           "recurrent_constraint", "bias_constraint"}) {
    p.push_back({name, Value()});
  }
  p.push_back({"dropout", Value(0.0)});
  p.push_back({"recurrent_dropout", Value(0.0)});
  if (kind == CellKind::GRU) p.push_back({"reset_after", Value(true)});
  p.push_back({"name", Value()});
  p.push_back({"trainable", Value(true)});
  p.push_back({"dtype", Value()});
  return p;
}

const Value& simple_rnn_cell_class() {
  static const Value cls = make_cell_class(CellKind::SimpleRNN, "SimpleRNNCell");
  return cls;
}

const Value& gru_cell_class() {
  static const Value cls = make_cell_class(CellKind::GRU, "GRUCell");
  return cls;
}

const Value& stacked_cells_class() {
  static const Value cls = make_stacked_cells_class();
  return cls;
}

void flatten_states(const Value& v, std::vector<Value>& out) {
  if (v.is_list() || v.is_tuple()) {
    for (const Value& x : v.items()) flatten_states(x, out);
    return;
  }
  out.push_back(v);
}

const Value& lstm_cell_class() {
  static const Value cls = make_cell_class(CellKind::LSTM, "LSTMCell");
  return cls;
}

void save_constructor_args(const Value& self, const std::vector<Param>& params, const std::vector<Value>& a) {
  std::vector<std::pair<Value, Value>> args;
  for (size_t i = 0; i < params.size(); ++i) args.emplace_back(Value(params[i].name), a[i + 1]);
  for (const auto& [k, v] : a.back().as_dict().entries) args.emplace_back(k, v);
  self.setattr("_agc_ctor", Value::dict(std::move(args)));
}

CellKind cell_kind(const Value& cell) {
  // Only the classes themselves: a program's subclass may override call().
  if (!cell.is_object()) return CellKind::Other;
  const Value& cls = cell.as_object().cls;
  if (cls.is(simple_rnn_cell_class())) return CellKind::SimpleRNN;
  if (cls.is(gru_cell_class())) return CellKind::GRU;
  if (cls.is(lstm_cell_class())) return CellKind::LSTM;
  return CellKind::Other;
}

CellMath cell_math(const Value& cell) {
  CellMath m;
  m.kind = cell_kind(cell);
  m.units = cell.getattr("units").as_int();
  m.gates = gates_of(m.kind);
  m.activation = cell.getattr("activation");
  if (m.kind != CellKind::SimpleRNN) {
    m.recurrent_activation = cell.getattr("recurrent_activation");
    m.implementation = static_cast<int>(cell.getattr("implementation").as_int());
  }
  m.use_bias = truthy(cell.getattr("use_bias"));
  m.reset_after = m.kind == CellKind::GRU && truthy(cell.getattr("reset_after"));
  m.dropout = cell.getattr("dropout").as_float();
  m.recurrent_dropout = cell.getattr("recurrent_dropout").as_float();
  m.kernel = Value(variable_value::read(cell.getattr("kernel")));
  m.recurrent_kernel = Value(variable_value::read(cell.getattr("recurrent_kernel")));
  if (m.use_bias) {
    Value bias = Value(variable_value::read(cell.getattr("bias")));
    if (m.reset_after) {
      std::vector<Value> rows = tf::unstack(bias).items();
      m.input_bias = rows[0];
      m.recurrent_bias = rows[1];
    } else {
      m.input_bias = bias;
    }
  }
  if (m.recurrent_dropout > 0.0 && m.gates > 1) m.recurrent_parts = rnn_split(m.recurrent_kernel, m.gates);
  if (m.kind == CellKind::GRU && !m.reset_after) {
    std::vector<Value> parts =
        tf::split(m.recurrent_kernel, Value::list({Value(2 * m.units), Value(m.units)}), Value(1)).items();
    m.recurrent_zr = parts[0];
    m.recurrent_h = parts[1];
  }
  return m;
}

Value project_inputs(const CellMath& m, const std::vector<Value>& xs) {
  Value y;
  if (xs.size() == 1) {
    y = rnn_dot(xs[0], m.kernel);
  } else {
    std::vector<Value> kernels = rnn_split(m.kernel, m.gates);
    std::vector<Value> parts;
    for (size_t g = 0; g < xs.size(); ++g) parts.push_back(rnn_dot(xs[g], kernels[g]));
    y = rnn_concat(std::move(parts));
  }
  if (m.use_bias) y = tf::bias_add(y, m.input_bias);
  return y;
}

std::pair<Value, std::vector<Value>> cell_step(const CellMath& m, const Value& xw, const std::vector<Value>& states,
                                               const std::vector<Value>& recurrent_masks) {
  const Value& h = states.at(0);
  // h @ recurrent_kernel, per gate on h times its mask under recurrent dropout.
  auto recurrent = [&](const Value& kernel, const std::vector<Value>& parts) {
    if (recurrent_masks.empty()) return rnn_dot(h, kernel);
    if (parts.empty()) return rnn_dot(rnn_mul(h, recurrent_masks[0]), kernel);
    std::vector<Value> out;
    for (size_t g = 0; g < parts.size(); ++g) out.push_back(rnn_dot(rnn_mul(h, recurrent_masks[g]), parts[g]));
    return rnn_concat(std::move(out));
  };
  switch (m.kind) {
    case CellKind::SimpleRNN: {
      Value out = rnn_act(m.activation, rnn_add(xw, recurrent(m.recurrent_kernel, {})));
      return {out, {out}};
    }
    case CellKind::LSTM: {
      std::vector<Value> z = rnn_split(rnn_add(xw, recurrent(m.recurrent_kernel, m.recurrent_parts)), 4);
      Value i = rnn_act(m.recurrent_activation, z[0]);
      Value f = rnn_act(m.recurrent_activation, z[1]);
      Value c = rnn_add(rnn_mul(f, states.at(1)), rnn_mul(i, rnn_act(m.activation, z[2])));
      Value o = rnn_act(m.recurrent_activation, z[3]);
      Value next_h = rnn_mul(o, rnn_act(m.activation, c));
      return {next_h, {next_h, c}};
    }
    case CellKind::GRU: {
      std::vector<Value> x = rnn_split(xw, 3);
      Value z, r, hh;
      if (m.reset_after) {
        // The reset gate multiplies h @ recurrent_kernel + recurrent bias (cuDNN's form).
        Value inner = recurrent(m.recurrent_kernel, m.recurrent_parts);
        if (m.use_bias) inner = tf::bias_add(inner, m.recurrent_bias);
        std::vector<Value> rec = rnn_split(inner, 3);
        z = rnn_act(m.recurrent_activation, rnn_add(x[0], rec[0]));
        r = rnn_act(m.recurrent_activation, rnn_add(x[1], rec[1]));
        hh = rnn_act(m.activation, rnn_add(x[2], rnn_mul(r, rec[2])));
      } else {
        // The reset gate multiplies h before its product with the candidate's kernel.
        std::vector<Value> zr_parts;
        if (!m.recurrent_parts.empty()) zr_parts = {m.recurrent_parts[0], m.recurrent_parts[1]};
        std::vector<Value> rec = rnn_split(recurrent(m.recurrent_zr, zr_parts), 2);
        z = rnn_act(m.recurrent_activation, rnn_add(x[0], rec[0]));
        r = rnn_act(m.recurrent_activation, rnn_add(x[1], rec[1]));
        Value h_c = recurrent_masks.empty() ? h : rnn_mul(h, recurrent_masks[2]);
        hh = rnn_act(m.activation, rnn_add(x[2], rnn_dot(rnn_mul(r, h_c), m.recurrent_h)));
      }
      // h = z * h_tm1 + (1 - z) * hh
      Value next_h = rnn_add(rnn_mul(z, h), rnn_mul(tf::subtract(Value(1.0), z), hh));
      return {next_h, {next_h}};
    }
    case CellKind::Other: break;
  }
  throw InternalError("rnn: cell_step on a cell that is not native");
}

std::vector<Value> dropout_masks(const Value& like, double rate, int count) {
  Value ones = tf::ones_like(like);
  std::vector<Value> masks;
  for (int i = 0; i < count; ++i) masks.push_back(tf::dropout(ones, Value(rate)));
  return masks;
}

bool training_on(const Value& training) {
  if (training.is_none()) return false;
  if (training.is_tensor() && training.as_tensor().symbolic()) {
    throw UnimplementedError("agc: a symbolic `training` tensor is not supported; pass a Python bool");
  }
  return truthy(training);
}

}  // namespace ag::keras::rnn

namespace ag::tf::api {

const Value& keras_layers_SimpleRNNCell() { return keras::rnn::simple_rnn_cell_class(); }
const Value& keras_layers_GRUCell() { return keras::rnn::gru_cell_class(); }
const Value& keras_layers_LSTMCell() { return keras::rnn::lstm_cell_class(); }
const Value& keras_layers_StackedRNNCells() { return keras::rnn::stacked_cells_class(); }

}  // namespace ag::tf::api
