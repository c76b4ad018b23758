// The time loop of the recurrent layers (Keras 2.15's backend.rnn; see
// layers_rnn.h): eagerly or unrolled a C++ loop over the rows of the
// time-major inputs, while tracing one While over TensorLists.
#include <optional>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/graph/control_flow.h"
#include "runtime/graph/tracing.h"
#include "runtime/keras/layers_rnn.h"
#include "runtime/value/convert.h"

namespace ag::keras::rnn {
namespace {

/// tf.where(mask_t, new, old) with mask_t [B, 1] widened to new's rank.
Value rnn_select(const Value& mask_t, const Value& next, const Value& old) {
  Value m = mask_t;
  const Shape& s = next.as_tensor().shape();
  for (int r = 2; s.rank_known() && r < s.rank(); ++r) m = tf::expand_dims(m, Value(-1));
  return tf::where(m, next, old);
}

/// Applies Keras's masking rule to one step's results.
void mask_step(const Value& mask_t, const Value& prev_output, bool zero_output, Value& output, std::vector<Value>& next,
               const std::vector<Value>& states) {
  Value keep = zero_output || prev_output.is_none() ? tf::zeros_like(output) : prev_output;
  output = rnn_select(mask_t, output, keep);
  for (size_t i = 0; i < next.size(); ++i) next[i] = rnn_select(mask_t, next[i], states[i]);
}

LoopResult run_unrolled(const LoopArgs& args, const StepFn& step) {
  std::vector<Value> xs = tf::unstack(args.inputs).items();
  // No step: x[0] fails with the error TF's backend.rnn meets reading step 0.
  if (xs.empty()) getitem(args.inputs, Value(0));
  std::vector<Value> masks;
  if (!args.mask.is_none()) masks = tf::unstack(args.mask).items();
  std::vector<Value> states = args.states;
  std::vector<Value> outputs;
  Value prev;
  for (size_t t = 0; t < xs.size(); ++t) {
    auto [output, next] = step(xs[t], states);
    if (!masks.empty()) mask_step(masks[t], prev, args.zero_output_for_mask, output, next, states);
    states = std::move(next);
    prev = output;
    if (args.return_all_outputs) outputs.push_back(output);
  }
  LoopResult r;
  r.last_output = prev;
  if (args.return_all_outputs) r.outputs = tf::stack(Value::list(std::move(outputs)));
  r.states = std::move(states);
  return r;
}

TensorHandle list_op(OpType op, std::vector<TensorHandle> in, Attrs attrs, std::string_view name) {
  return apply_op1(op, in, attrs, name);
}

/// The spec of a step's output, learnt by running the step once in a scratch
/// graph (Keras's backend.rnn calls the step on x[0] first for the same reason).
TensorSpec probe_output(Graph& g, const TensorSpec& x_spec, const std::vector<Value>& states, const StepFn& step) {
  Graph probe("rnn_probe", &g);
  TraceScope scope(probe);
  Value x(probe.placeholder(x_spec, "x"));
  std::vector<Value> st;
  for (const Value& s : states) {
    const TensorHandle& h = s.as_tensor();
    st.emplace_back(probe.placeholder({h.dtype(), h.shape()}, "state"));
  }
  Value out = step(x, st).first;
  TensorHandle h = to_tensor(out);
  return {h.dtype(), h.shape()};
}

LoopResult run_while(const LoopArgs& args, const StepFn& step) {
  Graph& g = *current_graph();
  const TensorHandle inputs = to_tensor(args.inputs);
  const Shape& in_shape = inputs.shape();
  const TensorSpec x_spec{inputs.dtype(), Shape(in_shape.dims().subspan(1))};
  const int64_t static_t = in_shape.dim(0);
  Value time_steps = static_t >= 0 ? Value(static_t) : tf::gather(tf::shape(args.inputs), Value(0));
  const bool masked = !args.mask.is_none();

  std::vector<TensorHandle> states;
  for (const Value& s : args.states) states.push_back(to_tensor(s));
  TensorSpec out_spec = args.output_is_state0 ? TensorSpec{states.at(0).dtype(), states.at(0).shape()}
                                              : probe_output(g, x_spec, args.states, step);
  // The loop carries the previous output when a mask needs it, or when it is
  // the last output and no state gives it.
  const bool carry_output = masked || (!args.return_all_outputs && !args.output_is_state0);

  TensorHandle input_list = list_op(op::TensorListFromTensor, {inputs}, Attrs{{"element_shape", x_spec.shape}},
                                    "TensorArrayUnstack/TensorListFromTensor");
  std::optional<TensorHandle> mask_list;
  Shape mask_elem;
  if (masked) {
    TensorHandle m = to_tensor(args.mask);
    mask_elem = Shape(m.shape().dims().subspan(1));
    mask_list = list_op(op::TensorListFromTensor, {m}, Attrs{{"element_shape", mask_elem}},
                        "TensorArrayUnstack_1/TensorListFromTensor");
  }

  // Loop variables: time, [output list], [previous output], states.
  std::vector<Output> init{g.constant(Tensor::scalar<int32_t>(0), "time")};
  std::vector<std::string> names{"time"};
  int list_var = -1, prev_var = -1;
  if (args.return_all_outputs) {
    list_var = static_cast<int>(init.size());
    TensorHandle n = to_tensor(time_steps, DType::Int32);
    init.push_back(in_graph(g, list_op(op::TensorListReserve, {n},
                                       Attrs{{"element_dtype", out_spec.dtype}, {"element_shape", out_spec.shape}},
                                       "TensorArrayV2")));
    names.push_back("output_ta_t");
  }
  if (carry_output) {
    prev_var = static_cast<int>(init.size());
    Value zeros;
    if (out_spec.shape.fully_defined()) {
      zeros = Value(Tensor::zeros(out_spec.dtype, out_spec.shape));
    } else {
      // [batch, ...]: the batch from the inputs, the other dims static.
      std::vector<Value> dims{tf::gather(tf::shape(args.inputs), Value(1))};
      for (int i = 1; i < out_spec.shape.rank(); ++i) {
        if (out_spec.shape.dim(i) < 0) throw UnimplementedError("agc: a recurrent step's output needs static feature dims");
        dims.emplace_back(out_spec.shape.dim(i));
      }
      zeros = tf::zeros(tf::stack(Value::list(std::move(dims))), out_spec.dtype);
    }
    init.push_back(in_graph(g, to_tensor(zeros)));
    names.push_back("prev_output");
  }
  const size_t first_state = init.size();
  for (size_t i = 0; i < states.size(); ++i) {
    init.push_back(in_graph(g, states[i]));
    names.push_back("states_" + std::to_string(i));
  }

  auto placeholders = [&](Graph& sg) {
    std::vector<Value> phs;
    for (size_t i = 0; i < init.size(); ++i) phs.emplace_back(sg.placeholder(init[i].spec(), names[i]));
    return phs;
  };
  auto cond_g = std::make_shared<Graph>("while_cond", &g);
  {
    TraceScope scope(*cond_g);
    std::vector<Value> v = placeholders(*cond_g);
    cond_g->outputs() = {in_graph(*cond_g, to_tensor(tf::less(v[0], time_steps)))};
  }
  auto body_g = std::make_shared<Graph>("while_body", &g);
  {
    TraceScope scope(*body_g);
    std::vector<Value> v = placeholders(*body_g);
    const Value& t = v[0];
    Value x_t(list_op(op::TensorListGetItem, {input_list, t.as_tensor()},
                      Attrs{{"element_dtype", x_spec.dtype}, {"element_shape", x_spec.shape}},
                      "TensorArrayV2Read/TensorListGetItem"));
    std::vector<Value> st(v.begin() + static_cast<std::ptrdiff_t>(first_state), v.end());
    auto [output, next] = step(x_t, st);
    if (next.size() != st.size()) {
      throw ValueError("The RNN cell returned " + std::to_string(next.size()) + " states for " +
                       std::to_string(st.size()) + " initial states");
    }
    if (masked) {
      Value m_t(list_op(op::TensorListGetItem, {*mask_list, t.as_tensor()},
                        Attrs{{"element_dtype", DType::Bool}, {"element_shape", mask_elem}},
                        "TensorArrayV2Read_1/TensorListGetItem"));
      mask_step(m_t, v[static_cast<size_t>(prev_var)], args.zero_output_for_mask, output, next, st);
    }
    std::vector<Output> outs{in_graph(*body_g, to_tensor(tf::add(t, Value(1))))};
    if (list_var >= 0) {
      outs.push_back(in_graph(*body_g, list_op(op::TensorListSetItem,
                                               {v[static_cast<size_t>(list_var)].as_tensor(), t.as_tensor(),
                                                to_tensor(output)},
                                               Attrs{{"resize_if_index_out_of_bounds", false}},
                                               "TensorArrayV2Write/TensorListSetItem")));
    }
    if (prev_var >= 0) outs.push_back(in_graph(*body_g, to_tensor(output)));
    for (const Value& s : next) outs.push_back(in_graph(*body_g, to_tensor(s)));
    body_g->outputs() = std::move(outs);
  }
  WhileOptions options;
  options.names = names;
  for (const Output& o : init) options.shape_invariants.emplace_back(o.spec().shape);
  Node* loop = add_while(g, init, cond_g, body_g, options);

  LoopResult r;
  for (size_t i = first_state; i < init.size(); ++i) r.states.emplace_back(loop->output(static_cast<int>(i)));
  if (list_var >= 0) {
    TensorHandle list(loop->output(list_var));
    r.outputs = Value(list_op(op::TensorListStack, {list},
                              Attrs{{"element_dtype", out_spec.dtype}, {"element_shape", out_spec.shape},
                                    {"num_elements", static_t}},
                              "TensorArrayV2Stack/TensorListStack"));
  }
  if (prev_var >= 0) {
    r.last_output = Value(loop->output(prev_var));
  } else if (args.output_is_state0) {
    r.last_output = r.states.at(0);
  } else {
    r.last_output = getitem(r.outputs, Value(-1));
  }
  return r;
}

}  // namespace

LoopResult run_loop(const LoopArgs& args, const StepFn& step) {
  if (current_graph() == nullptr || args.unroll) return run_unrolled(args, step);
  return run_while(args, step);
}

}  // namespace ag::keras::rnn
