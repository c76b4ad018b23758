#include "runtime/graph/control_flow_grad.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "runtime/core/error.h"
#include "runtime/core/variable.h"
#include "runtime/graph/control_flow.h"
#include "runtime/graph/gradients.h"
#include "runtime/graph/tape.h"

namespace ag {
namespace {

/// Zeros of `spec`'s dtype, its unknown dims 0 (an unknown rank: a scalar).
Tensor zeros_of(const TensorSpec& spec) {
  Shape shape;
  if (spec.shape.rank_known()) {
    for (int64_t d : spec.shape.dims()) shape.push_back(d < 0 ? 0 : d);
  }
  return Tensor::zeros(spec.dtype, shape);
}

/// A zero gradient for variable `id`.
Tensor variable_zeros(int64_t id) {
  auto v = Variable::lookup(id);
  return Tensor::zeros(v->dtype(), v->shape());
}

/// How gradient graph `into` reaches tensor `t` of the forward subgraph
/// `sub` it differentiates: a captured placeholder reads its outer tensor, a
/// Const is copied, argument placeholder k goes to `argument(k)`, anything
/// else to `intermediate(t)`. Each tensor is resolved once.
Graph::ForeignResolver resolver_for(Graph& into, const Graph& sub, std::function<Output(size_t)> argument,
                                    std::function<Output(const Output&)> intermediate) {
  auto cache = std::make_shared<std::map<std::pair<const Node*, int>, Output>>();
  return [&into, &sub, argument = std::move(argument), intermediate = std::move(intermediate),
          cache](const Output& t) -> std::optional<Output> {
    if (t.node->graph != &sub) return std::nullopt;  // an enclosing gradient graph's to resolve
    auto key = std::make_pair(static_cast<const Node*>(t.node), t.index);
    if (auto it = cache->find(key); it != cache->end()) return it->second;
    Output r;
    if (t.node->op->role() == OpRole::Argument) {
      const auto& inputs = sub.inputs();
      auto k = static_cast<size_t>(std::find(inputs.begin(), inputs.end(), t.node) - inputs.begin());
      r = k < sub.num_args() ? argument(k) : sub.captures()[k - sub.num_args()].first;
    } else if (const Tensor* v = Graph::constant_value(t)) {
      r = into.constant(*v, t.node->name);
    } else {
      r = intermediate(t);
    }
    cache->emplace(key, r);
    return r;
  };
}

/// The key of each variable of `sub` among `all` (a node's variable keys
/// follow its `first` other keys).
std::vector<size_t> variable_keys(const Graph& sub, const std::vector<std::pair<int64_t, DType>>& all, size_t first) {
  std::vector<size_t> keys;
  for (const auto& var : variables_read(sub)) {
    const int64_t id = var.first;
    auto it = std::find_if(all.begin(), all.end(), [id](const auto& v) { return v.first == id; });
    keys.push_back(first + static_cast<size_t>(it - all.begin()));
  }
  return keys;
}

// ---- If

/// The output of If node `f` that carries `t`, a tensor of branch `b`, when
/// that branch runs: an existing output, or a new one the other branch fills
/// with zeros.
int export_from_if(Node& f, int b, const Output& t) {
  Graph& own = *f.subgraphs[static_cast<size_t>(b)];
  Graph& other = *f.subgraphs[static_cast<size_t>(1 - b)];
  for (size_t i = 0; i < own.outputs().size(); ++i) {
    if (own.outputs()[i] == t) return static_cast<int>(i);
  }
  TensorSpec spec = t.spec();
  Output zeros = other.constant(zeros_of(spec), "zeros");
  own.outputs().push_back(t);
  other.outputs().push_back(zeros);
  f.outputs.push_back({spec.dtype, spec.shape.most_specific_common_supertype(zeros.spec().shape)});
  return static_cast<int>(f.outputs.size()) - 1;
}

/// A gradient If/While/call reads what its forward node exported after the tapes
/// recorded that node, so a gradient reaching those exports would be lost:
/// differentiating a gradient node again (a second derivative through
/// control flow) is refused rather than answered wrongly.
constexpr const char* kGradientOf = "gradient_of";

void check_not_gradient(const Node& n) {
  if (n.attrs.has(kGradientOf)) {
    throw UnimplementedError("agc: the gradient of '" + n.attrs.get<std::string>(kGradientOf) +
                             "' is itself differentiated here (a second derivative through a tf.cond, a loop "
                             "over tensors or a tf.function called by another), which agc does not support yet.");
  }
}

}  // namespace

std::vector<GradTensor> if_gradient(GradContext& gc) {
  auto& c = static_cast<TapeGradContext&>(gc);
  const TapeEntry& e = c.entry();
  Node& f = *e.outputs.at(0).output().node;
  check_not_gradient(f);
  // The gradient goes to the graph being built (a loop's gradient body when
  // the If is in a loop body), which reaches f's graph by resolving.
  Graph& g = *current_graph();
  const size_t n_in = e.inputs.size(), n_keys = e.input_keys.size(), n_out = e.outputs.size();
  const size_t n = f.subgraphs[0]->num_args(), then_caps = f.subgraphs[0]->captures().size();
  const auto variables = variables_read(f.subgraphs);

  // The gradient If takes the upstream gradients of the float outputs.
  std::vector<size_t> seeded;
  std::vector<Output> upstream;
  for (size_t k = 0; k < n_out; ++k) {
    if (!is_trainable_dtype(e.outputs[k].dtype())) continue;
    seeded.push_back(k);
    upstream.push_back(in_graph(g, c.handle(c.grad(static_cast<int>(k)))));
  }

  std::shared_ptr<Graph> branches[2];
  std::vector<std::optional<TensorHandle>> per_key[2];
  for (int b = 0; b < 2; ++b) {
    const Graph& sub = *f.subgraphs[static_cast<size_t>(b)];
    auto bg = std::make_shared<Graph>(sub.name() + "_grad", &g);
    TraceScope scope(*bg);
    std::vector<std::optional<TensorHandle>> seeds(n_out);
    for (size_t s = 0; s < seeded.size(); ++s) seeds[seeded[s]] = TensorHandle(bg->placeholder(upstream[s].spec(), "grad"));
    bg->set_foreign_resolver(resolver_for(
        *bg, sub, [&f](size_t k) { return f.inputs[1 + k]; },
        [&f, b](const Output& t) { return f.output(export_from_if(f, b, t)); }));
    GraphGradient gr = differentiate_graph(sub, seeds);
    bg->set_foreign_resolver(nullptr);
    auto& keys = per_key[b];
    keys.assign(n_keys, std::nullopt);
    for (size_t k = 0; k < n; ++k) keys[1 + k] = gr.args[k];
    const size_t caps = b == 0 ? 1 + n : 1 + n + then_caps;
    for (size_t j = 0; j < gr.captures.size(); ++j) keys[caps + j] = gr.captures[j];
    std::vector<size_t> vkeys = variable_keys(sub, variables, n_in);
    for (size_t v = 0; v < vkeys.size(); ++v) keys[vkeys[v]] = gr.variables[v];
    branches[b] = std::move(bg);
  }

  // An output per wanted input that has a gradient in some branch; the
  // other branch gives zeros (None in both stays None).
  std::vector<size_t> out_keys;
  for (size_t i = 0; i < n_keys; ++i) {
    if (c.needed(static_cast<int>(i)) && (per_key[0][i] || per_key[1][i])) out_keys.push_back(i);
  }
  for (int b = 0; b < 2; ++b) {
    Graph& bg = *branches[b];
    TraceScope scope(bg);
    for (size_t i : out_keys) {
      const auto& grad = per_key[b][i];
      TensorHandle h = grad ? *grad
                       : i < n_in ? apply_op1(op::ZerosLike, std::span<const TensorHandle>(&e.inputs[i], 1), {}, "zeros_like")
                                  : TensorHandle(variable_zeros(variables[i - n_in].first));
      bg.outputs().push_back(in_graph(bg, h));
    }
  }
  Node* grad_if = add_if(g, g.capture(f.inputs[0]), upstream, branches[0], branches[1], {}, f.name + "_grad");
  grad_if->attrs.set(kGradientOf, f.name);
  std::vector<GradTensor> out(n_keys);
  for (size_t o = 0; o < out_keys.size(); ++o) out[out_keys[o]] = c.wrap(TensorHandle(grad_if->output(static_cast<int>(o))));
  return out;
}

// ---- Call

namespace {

/// The output of call node `f` that carries `t`, a tensor of its function's
/// graph: an existing output, or a new one.
int export_from_call(Node& f, const Output& t) {
  Graph& body = *f.subgraphs[0];
  for (size_t i = 0; i < body.outputs().size(); ++i) {
    if (body.outputs()[i] == t) return static_cast<int>(i);
  }
  body.outputs().push_back(t);
  f.outputs.push_back(t.spec());
  return static_cast<int>(f.outputs.size()) - 1;
}

}  // namespace

std::vector<GradTensor> call_gradient(GradContext& gc) {
  auto& c = static_cast<TapeGradContext&>(gc);
  const TapeEntry& e = c.entry();
  Node& f = *e.outputs.at(0).output().node;
  check_not_gradient(f);
  Graph& g = *current_graph();
  const Graph& sub = *f.subgraphs[0];
  const size_t n_in = e.inputs.size(), n_keys = e.input_keys.size(), n_out = e.outputs.size();
  const auto variables = variables_read(f.subgraphs);

  // The gradient call takes the upstream gradients of the float outputs.
  std::vector<size_t> seeded;
  std::vector<Output> upstream;
  for (size_t k = 0; k < n_out; ++k) {
    if (!is_trainable_dtype(e.outputs[k].dtype())) continue;
    seeded.push_back(k);
    upstream.push_back(in_graph(g, c.handle(c.grad(static_cast<int>(k)))));
  }
  auto bg = std::make_shared<Graph>(sub.name() + "_grad", &g);
  std::vector<size_t> out_keys;
  {
    TraceScope scope(*bg);
    std::vector<std::optional<TensorHandle>> seeds(n_out);
    for (size_t s = 0; s < seeded.size(); ++s) seeds[seeded[s]] = TensorHandle(bg->placeholder(upstream[s].spec(), "grad"));
    bg->set_foreign_resolver(resolver_for(
        *bg, sub, [&f](size_t k) { return f.inputs[k]; },
        [&f](const Output& t) { return f.output(export_from_call(f, t)); }));
    GraphGradient gr = differentiate_graph(sub, seeds);
    bg->set_foreign_resolver(nullptr);
    std::vector<std::optional<TensorHandle>> keys(n_keys);
    for (size_t k = 0; k < gr.args.size(); ++k) keys[k] = gr.args[k];
    for (size_t j = 0; j < gr.captures.size(); ++j) keys[gr.args.size() + j] = gr.captures[j];
    std::vector<size_t> vkeys = variable_keys(sub, variables, n_in);
    for (size_t v = 0; v < vkeys.size(); ++v) keys[vkeys[v]] = gr.variables[v];
    for (size_t i = 0; i < n_keys; ++i) {
      if (!c.needed(static_cast<int>(i)) || !keys[i]) continue;
      out_keys.push_back(i);
      bg->outputs().push_back(in_graph(*bg, *keys[i]));
    }
  }
  // TF names a function's gradient "__inference___backward_<forward>".
  std::string forward = f.attrs.get_or<std::string>("f", f.name);
  if (forward.rfind("__inference_", 0) == 0) forward = forward.substr(12);
  Node* grad_call = add_call(g, upstream, bg, "__inference___backward_" + forward);
  grad_call->attrs.set(kGradientOf, f.name);
  std::vector<GradTensor> out(n_keys);
  for (size_t o = 0; o < out_keys.size(); ++o) out[out_keys[o]] = c.wrap(TensorHandle(grad_call->output(static_cast<int>(o))));
  return out;
}

// ---- While

namespace {

/// Gives While node `w` one more loop variable, starting at `init` (a node
/// of w's graph without inputs, moved before w) and updated by the body to
/// `next(body, its placeholder)`. Returns its index.
template <class Next>
size_t add_loop_var(Node& w, Output init, std::string_view name, Next&& next) {
  Graph& g = *w.graph;
  if (init.node->id > w.id) g.move_before(init.node, &w);
  Graph& cond = *w.subgraphs[0];
  Graph& body = *w.subgraphs[1];
  const size_t index = w.outputs.size();
  TensorSpec spec = init.spec();
  cond.insert_argument(spec, name);
  Output placeholder = body.insert_argument(spec, name);
  body.outputs().push_back(next(body, placeholder));
  w.inputs.insert(w.inputs.begin() + static_cast<std::ptrdiff_t>(index), init);
  w.outputs.push_back(spec);
  return index;
}

/// The loop variable of `w` that counts its iterations (added on first use).
size_t iteration_counter(Node& w) {
  if (w.attrs.has("iteration_counter")) return static_cast<size_t>(w.attrs.get<int64_t>("iteration_counter"));
  Output zero = w.graph->constant(Tensor::scalar<int32_t>(0), "iteration_counter");
  size_t index = add_loop_var(w, zero, "iteration_counter", [](Graph& body, Output counter) {
    return body.add_node(op::AddV2, {counter, body.constant(Tensor::scalar<int32_t>(1))}, {}, "iteration_counter")
        ->output(0);
  });
  w.attrs.set("iteration_counter", static_cast<int64_t>(index));
  return index;
}

/// The While attr naming an accumulator's loop variable: this, then the
/// accumulated tensor's name.
constexpr std::string_view kAccumulatorKey = "accumulator:";

/// The loop variable of `w` that accumulates the value of `t` (a tensor of
/// its body) at every iteration in a TensorList (added on first use).
size_t accumulator(Node& w, const Output& t) {
  std::string key = std::string(kAccumulatorKey) + t.name();
  if (w.attrs.has(key)) return static_cast<size_t>(w.attrs.get<int64_t>(key));
  TensorSpec spec = t.spec();
  Attrs list_attrs{{"element_dtype", spec.dtype}, {"element_shape", spec.shape}};
  Output empty = w.graph->add_node(op::EmptyTensorList, {}, list_attrs, "accumulator")->output(0);
  size_t index = add_loop_var(w, empty, "accumulator", [&t](Graph& body, Output list) {
    return body.add_node(op::TensorListPushBack, {list, t}, {}, "accumulator")->output(0);
  });
  w.attrs.set(key, static_cast<int64_t>(index));
  return index;
}

/// Whether graph `g` (nested subgraphs included) may write variable `id`:
/// variable ops name theirs by attr "var", and all but reads write it.
bool may_write_variable(const Graph& g, int64_t id) {
  for (const auto& n : g.nodes()) {
    if (!n->op->traits.reads_variable && n->attrs.has("var") && n->attrs.get<int64_t>("var") == id) return true;
    for (const auto& sub : n->subgraphs) {
      if (may_write_variable(*sub, id)) return true;
    }
  }
  return false;
}

/// The value of `read`, a variable read in the body of `w`, when it is the
/// same at every iteration (no op of the loop writes the variable): a read
/// of the variable just before the loop, which the gradient uses instead of
/// saving `read` at every iteration. TF accumulates such reads (they are
/// loop invariants it cannot prove); for an RNN's weights that was the bulk
/// of what the loop saved.
std::optional<Output> invariant_read(Node& w, const Output& read) {
  if (!read.node->op->traits.reads_variable) return std::nullopt;
  int64_t id = read.node->attrs.get<int64_t>("var");
  for (const auto& sub : w.subgraphs) {
    if (may_write_variable(*sub, id)) return std::nullopt;
  }
  Node* before = w.graph->add_copy(*read.node, {});
  w.graph->move_before(before, &w);  // in program order, just before the loop
  return before->output(read.index);
}

/// Whether `t`, a tensor of loop body `body` (whose first `n` arguments are
/// the loop's variables), is a row of a tensor the loop does not change
/// (x[i] of a captured x): the gradient cuts it again rather than saving it
/// at every iteration, as cheap as the copy it saves and no memory.
bool is_row_of_invariant(const Graph& body, size_t n, const Output& t) {
  const Node& s = *t.node;
  const NodeQuery selects_row = s.op->traits.selects_row;
  if (selects_row == nullptr || !s.control_inputs.empty() || !with_context(s, selects_row)) return false;
  const Node* x = s.inputs[0].node;
  if (x->op->role() != OpRole::Argument) return false;
  const auto& inputs = body.inputs();
  auto k = static_cast<size_t>(std::find(inputs.begin(), inputs.end(), x) - inputs.begin());
  return k >= body.num_args() || (k < n && body.outputs()[k].node == x && body.outputs()[k].index == 0);
}

}  // namespace

std::vector<SavedPerIteration> while_saved_tensors(const Node& w) {
  std::vector<SavedPerIteration> saved;
  for (const auto& [key, value] : w.attrs.items()) {
    if (!key.starts_with(kAccumulatorKey)) continue;
    const Node& empty = *w.inputs.at(static_cast<size_t>(std::get<int64_t>(value))).node;
    saved.push_back({key.substr(kAccumulatorKey.size()),
                     TensorSpec{empty.attrs.get<DType>("element_dtype"), empty.attrs.get<Shape>("element_shape")}});
  }
  return saved;
}

std::vector<GradTensor> while_gradient(GradContext& gc) {
  auto& c = static_cast<TapeGradContext&>(gc);
  const TapeEntry& e = c.entry();
  Node& w = *e.outputs.at(0).output().node;
  check_not_gradient(w);
  Graph& g = *current_graph();  // as for If: not w's graph when w is nested in a loop body
  const Graph& body = *w.subgraphs[1];
  const size_t n = e.outputs.size();  // the loop variables when recorded
  const size_t n_in = e.inputs.size(), n_keys = e.input_keys.size();
  const size_t body_caps = n_in - body.captures().size();  // the key of the body's first capture
  const auto variables = variables_read(w.subgraphs);
  const std::vector<size_t> body_var_keys = variable_keys(body, variables, n_in);
  const Output iterations = w.output(static_cast<int>(iteration_counter(w)));

  // The gradient loop's variables: a counter, then per float loop variable
  // its gradient, then the gradients of the body's wanted float captures and
  // variables, summed over the iterations. `keys[i]`: the forward key of
  // loop variable i + 1.
  std::vector<size_t> keys;
  std::vector<TensorHandle> init{TensorHandle(Tensor::scalar<int32_t>(0))};
  for (size_t k = 0; k < n; ++k) {
    if (!is_trainable_dtype(e.outputs[k].dtype())) continue;
    keys.push_back(k);
    init.push_back(c.handle(c.grad(static_cast<int>(k))));
  }
  for (size_t i = body_caps; i < n_keys; ++i) {
    bool body_var = i >= n_in && std::find(body_var_keys.begin(), body_var_keys.end(), i) != body_var_keys.end();
    if (!c.needed(static_cast<int>(i)) || (i >= n_in && !body_var)) continue;
    keys.push_back(i);
    init.push_back(i < n_in ? apply_op1(op::ZerosLike, std::span<const TensorHandle>(&e.inputs[i], 1), {}, "zeros_like")
                            : TensorHandle(variable_zeros(variables[i - n_in].first)));
  }
  std::vector<TensorSpec> specs{{DType::Int32, Shape{}}};
  for (size_t i = 0; i < keys.size(); ++i) {
    const TensorSpec& s = keys[i] < n ? w.outputs[keys[i]] : TensorSpec{init[i + 1].dtype(), init[i + 1].shape()};
    specs.push_back(s);
  }

  auto cond_g = std::make_shared<Graph>(w.name + "_grad_cond", &g);
  {
    TraceScope scope(*cond_g);
    std::vector<TensorHandle> vars;
    for (const TensorSpec& s : specs) vars.emplace_back(cond_g->placeholder(s, "loop_var"));
    TensorHandle less[] = {vars[0], TensorHandle(iterations)};
    cond_g->outputs().push_back(apply_op1(op::Less, less, {}, "Less").output());
  }

  auto body_g = std::make_shared<Graph>(w.name + "_grad_body", &g);
  {
    TraceScope scope(*body_g);
    std::vector<TensorHandle> vars;
    for (const TensorSpec& s : specs) vars.emplace_back(body_g->placeholder(s, "loop_var"));
    // Backward iteration j reads what forward iteration (iterations - 1 - j) saved.
    Graph& bg = *body_g;
    Output counter = vars[0].output();
    std::optional<Output> forward_index;
    auto saved = [&w, &bg, &body, n, &iterations, counter, &forward_index](const Output& t) {
      if (std::optional<Output> read = invariant_read(w, t)) return bg.capture(*read);
      if (is_row_of_invariant(body, n, t)) {
        std::vector<Output> inputs;
        for (const Output& in : t.node->inputs) inputs.push_back(bg.capture(in));  // resolved as the gradient's
        return bg.add_copy(*t.node, std::move(inputs))->output(t.index);
      }
      if (!forward_index) {
        Output last = bg.add_node(op::Sub, {bg.capture(iterations), bg.constant(Tensor::scalar<int32_t>(1))})->output(0);
        forward_index = bg.add_node(op::Sub, {last, counter})->output(0);
      }
      TensorSpec spec = t.spec();
      Output list = bg.capture(w.output(static_cast<int>(accumulator(w, t))));
      return bg.add_node(op::TensorListGetItem, {list, *forward_index},
                         Attrs{{"element_dtype", spec.dtype}, {"element_shape", spec.shape}}, "saved")
          ->output(0);
    };
    body_g->set_foreign_resolver(resolver_for(
        bg, body,
        [&w, &body, n, &saved](size_t k) {
          Output arg = body.inputs()[k]->output(0);
          // A loop invariant is the loop's input itself.
          return k < n && body.outputs()[k] == arg ? w.inputs[k] : saved(arg);
        },
        saved));
    std::vector<std::optional<TensorHandle>> seeds(n);
    for (size_t i = 0; i < keys.size() && keys[i] < n; ++i) seeds[keys[i]] = vars[i + 1];
    GraphGradient gr = differentiate_graph(body, seeds);
    body_g->set_foreign_resolver(nullptr);

    TensorHandle one(Tensor::scalar<int32_t>(1));
    TensorHandle next_counter[] = {vars[0], one};
    body_g->outputs().push_back(apply_op1(op::AddV2, next_counter, {}, "add").output());
    for (size_t i = 0; i < keys.size(); ++i) {
      const TensorHandle& carried = vars[i + 1];
      size_t key = keys[i];
      std::optional<TensorHandle> grad;
      if (key < n) grad = gr.args[key];
      else if (key < n_in) grad = gr.captures[key - body_caps];
      else grad = gr.variables[static_cast<size_t>(std::find(body_var_keys.begin(), body_var_keys.end(), key) - body_var_keys.begin())];
      auto next = [&]() -> TensorHandle {
        // A loop variable's: the gradient of the previous iteration's
        // outputs (zeros when none flows); a capture's or variable's: the sum.
        if (key < n) {
          return grad ? *grad : apply_op1(op::ZerosLike, std::span<const TensorHandle>(&carried, 1), {}, "zeros_like");
        }
        if (!grad) return carried;
        TensorHandle sum[] = {carried, *grad};
        return add_all(sum);
      };
      body_g->outputs().push_back(in_graph(bg, next()));
    }
  }

  WhileOptions options;
  options.name = w.name + "_grad";
  for (const TensorSpec& s : specs) options.shape_invariants.emplace_back(s.shape);
  std::vector<Output> init_outputs;
  for (const TensorHandle& h : init) init_outputs.push_back(in_graph(g, h));
  Node* grad_while = add_while(g, init_outputs, cond_g, body_g, options);
  grad_while->attrs.set(kGradientOf, w.name);
  std::vector<GradTensor> out(n_keys);
  for (size_t i = 0; i < keys.size(); ++i) {
    if (c.needed(static_cast<int>(keys[i]))) out[keys[i]] = c.wrap(TensorHandle(grad_while->output(static_cast<int>(i + 1))));
  }
  return out;
}

}  // namespace ag
