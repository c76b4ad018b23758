// If / StatelessIf, While / StatelessWhile and PartitionedCall /
// StatefulPartitionedCall: their builders and their definitions (shape rules
// that check the subgraphs with AutoGraph's messages, traits, gradient and
// cost decisions). Their kernels are the executor's
// (exec/control_flow_kernels.cpp).
#include "runtime/graph/control_flow.h"

#include "runtime/core/error.h"
#include "runtime/graph/control_flow_grad.h"
#include "runtime/graph/tape.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

void check_parent(const Graph& g, const Graph& sub, const char* what) {
  if (sub.parent() != &g) {
    throw InvalidArgumentError(std::string("the ") + what + " graph '" + sub.name() + "' is not nested in graph '" +
                               g.name() + "'");
  }
}

void append_captures(const Graph& sub, std::vector<Output>& inputs) {
  for (const auto& [outer, inner] : sub.captures()) inputs.push_back(outer);
}

/// Subgraph `i` of the node being checked, which has `count` of them.
const Graph& subgraph(const InferContext& c, size_t i, size_t count = 2) {
  if (c.subgraphs.size() != count || c.subgraphs[i] == nullptr) {
    throw InternalError(std::string(c.op) + " needs its subgraphs: build it with add_if/add_while/add_call");
  }
  return *c.subgraphs[i];
}

/// Checks that the inputs feeding `g`'s placeholders [0, n) + its captures fit them.
void check_feeds(const Graph& g, std::span<const TensorSpec> args, std::span<const TensorSpec> captures,
                 std::string_view op) {
  auto check = [&](const TensorSpec& have, const Node* ph) {
    const TensorSpec& want = ph->outputs[0];
    if (have.dtype != want.dtype || !want.shape.is_compatible_with(have.shape)) {
      throw InternalError(std::string(op) + ": input of type " + dtype_name(have.dtype) + have.shape.str() +
                          " feeds placeholder " + ph->name + " of type " + dtype_name(want.dtype) + want.shape.str());
    }
  };
  size_t n = g.num_args();
  for (size_t i = 0; i < n; ++i) check(args[i], g.inputs()[i]);
  for (size_t i = 0; i < captures.size(); ++i) check(captures[i], g.inputs()[n + i]);
}

std::vector<TensorSpec> infer_if(const InferContext& c) {
  const Graph& then_g = subgraph(c, 0);
  const Graph& else_g = subgraph(c, 1);
  const size_t n = then_g.num_args();
  const size_t tc = then_g.captures().size(), ec = else_g.captures().size();
  if (else_g.num_args() != n || c.inputs.size() != 1 + n + tc + ec) {
    throw InternalError("If: branch arguments do not match the node's inputs");
  }
  const TensorSpec& cond = c.inputs[0];
  if (cond.dtype != DType::Bool || (cond.shape.rank_known() && cond.shape.rank() != 0)) {
    throw InvalidArgumentError(std::string("The condition of an If must be a scalar bool tensor, got ") +
                               dtype_name(cond.dtype) + " of shape " + cond.shape.str());
  }
  auto args = c.inputs.subspan(1, n);
  check_feeds(then_g, args, c.inputs.subspan(1 + n, tc), c.op);
  check_feeds(else_g, args, c.inputs.subspan(1 + n + tc, ec), c.op);
  const auto& to = then_g.outputs();
  const auto& eo = else_g.outputs();
  if (to.size() != eo.size()) {
    throw ValueError("true_fn and false_fn arguments to tf.cond must have the same number, type, and overall "
                     "structure of return values.");
  }
  const auto* names = c.attrs.has("output_names") ? &c.attrs.get<std::vector<std::string>>("output_names") : nullptr;
  std::vector<TensorSpec> out;
  for (size_t i = 0; i < to.size(); ++i) {
    const TensorSpec& a = to[i].spec();
    const TensorSpec& b = eo[i].spec();
    if (a.dtype != b.dtype) {
      std::string name = names && i < names->size() ? (*names)[i] : "retval_";
      throw TypeError("'" + name + "' has dtype " + dtype_name(a.dtype) + " in the main branch, but dtype " +
                      dtype_name(b.dtype) + " in the else branch");
    }
    out.push_back({a.dtype, a.shape.most_specific_common_supertype(b.shape)});
  }
  return out;
}

std::vector<TensorSpec> infer_while(const InferContext& c) {
  const Graph& cond_g = subgraph(c, 0);
  const Graph& body_g = subgraph(c, 1);
  const size_t n = body_g.num_args();
  const size_t cc = cond_g.captures().size(), bc = body_g.captures().size();
  if (cond_g.num_args() != n || c.inputs.size() != n + cc + bc) {
    throw InternalError("While: cond/body arguments do not match the node's loop variables");
  }
  if (cond_g.outputs().size() != 1) throw InternalError("While: the cond graph must have one output");
  const TensorSpec& cs = cond_g.outputs()[0].spec();
  if (cs.dtype != DType::Bool || (cs.shape.rank_known() && cs.shape.rank() != 0)) {
    throw TypeError(std::string("the loop condition must be a scalar bool tensor, got ") + dtype_name(cs.dtype) +
                    " of shape " + cs.shape.str());
  }
  if (body_g.outputs().size() != n) {
    throw ValueError("the body of a while loop must return " + std::to_string(n) + " loop variables, got " +
                     std::to_string(body_g.outputs().size()));
  }
  const auto* names = c.attrs.has("loop_var_names") ? &c.attrs.get<std::vector<std::string>>("loop_var_names") : nullptr;
  std::vector<TensorSpec> out;
  for (size_t i = 0; i < n; ++i) {
    std::string name = names && i < names->size() ? (*names)[i] : body_g.inputs()[i]->name;
    const TensorSpec& entry = c.inputs[i];
    const TensorSpec& exit = body_g.outputs()[i].spec();
    if (entry.dtype != exit.dtype) {
      throw TypeError("'" + name + "' has dtype " + dtype_name(entry.dtype) + " before the loop, but dtype " +
                      dtype_name(exit.dtype) + " after one iteration");
    }
    std::string inv_key = "shape_invariant_" + std::to_string(i);
    Shape shape = entry.shape;
    if (c.attrs.has(inv_key)) {
      const Shape& inv = c.attrs.get<Shape>(inv_key);
      if (!inv.is_supertype_of(entry.shape)) {
        throw ValueError("'" + name + "' has shape " + entry.shape.str() +
                         " before the loop, which does not conform with the shape invariant " + inv.str() + ".");
      }
      if (!inv.is_supertype_of(exit.shape)) {
        throw ValueError("'" + name + "' has shape " + exit.shape.str() +
                         " after one iteration, which does not conform with the shape invariant " + inv.str() + ".");
      }
      shape = inv;
    } else if (!entry.shape.is_supertype_of(exit.shape)) {
      throw ValueError("'" + name + "' has shape " + entry.shape.str() + " before the loop, but shape " +
                       exit.shape.str() +
                       " after one iteration. Use tf.autograph.experimental.set_loop_options to set shape "
                       "invariants.");
    }
    out.push_back({entry.dtype, shape});
  }
  // The loop variables as the subgraphs see them: every iteration's values.
  check_feeds(cond_g, out, c.inputs.subspan(n, cc), c.op);
  check_feeds(body_g, out, c.inputs.subspan(n + cc, bc), c.op);
  return out;
}

std::vector<TensorSpec> infer_call(const InferContext& c) {
  const Graph& body = subgraph(c, 0, 1);
  const size_t n = body.num_args();
  if (c.inputs.size() != n + body.captures().size()) {
    throw InternalError(std::string(c.op) + ": the function's arguments do not match the node's inputs");
  }
  check_feeds(body, c.inputs.subspan(0, n), c.inputs.subspan(n), c.op);
  std::vector<TensorSpec> out;
  for (const Output& o : body.outputs()) out.push_back(o.spec());
  return out;
}

/// TPUPartitionedCall: the call's inputs, then the device ordinal (an int32
/// scalar or TPUOrdinalSelector's vector).
std::vector<TensorSpec> infer_device_call(const InferContext& c) {
  if (c.inputs.empty() || c.inputs.back().dtype != DType::Int32) {
    throw InvalidArgumentError(std::string(c.op) + " takes its device ordinal (int32) as its last input");
  }
  InferContext call = c;
  call.inputs = c.inputs.first(c.inputs.size() - 1);
  call.constants = c.constants.first(c.constants.size() - 1);
  return infer_call(call);
}

/// BatchFunction: the function's outputs, their batch dim unknown (the
/// batch is built at run time from concurrent calls).
std::vector<TensorSpec> infer_batch_function(const InferContext& c) {
  std::vector<TensorSpec> out = infer_call(c);
  for (TensorSpec& o : out) {
    if (o.shape.rank_known() && o.shape.rank() > 0) o.shape = o.shape.with_dim(0, kUnknownDim);
  }
  return out;
}

}  // namespace

bool has_stateful_nodes(const Graph& g) {
  for (const auto& n : g.nodes()) {
    if (n->stateful()) return true;
    for (const auto& sub : n->subgraphs) {
      if (has_stateful_nodes(*sub)) return true;
    }
  }
  return false;
}

Node* add_if(Graph& g, Output cond, std::vector<Output> args, std::shared_ptr<Graph> then_g,
             std::shared_ptr<Graph> else_g, std::vector<std::string> output_names, std::string_view name) {
  check_parent(g, *then_g, "then");
  check_parent(g, *else_g, "else");
  std::vector<Output> inputs;
  inputs.reserve(1 + args.size() + then_g->captures().size() + else_g->captures().size());
  inputs.push_back(cond);
  inputs.insert(inputs.end(), args.begin(), args.end());
  append_captures(*then_g, inputs);
  append_captures(*else_g, inputs);
  Attrs attrs;
  if (!output_names.empty()) attrs.set("output_names", std::move(output_names));
  bool stateful = has_stateful_nodes(*then_g) || has_stateful_nodes(*else_g);
  std::vector<std::shared_ptr<Graph>> subgraphs{std::move(then_g), std::move(else_g)};
  const OpDef& op = OpRegistry::global().get(stateful ? op::If : op::StatelessIf);
  Node* n = g.add_node(op, std::move(inputs), std::move(attrs), name, subgraphs);
  record_node(*n);
  return n;
}

Node* add_while(Graph& g, std::vector<Output> loop_vars, std::shared_ptr<Graph> cond_g, std::shared_ptr<Graph> body_g,
                const WhileOptions& options) {
  check_parent(g, *cond_g, "cond");
  check_parent(g, *body_g, "body");
  std::vector<Output> inputs = std::move(loop_vars);
  append_captures(*cond_g, inputs);
  append_captures(*body_g, inputs);
  Attrs attrs;
  if (!options.names.empty()) attrs.set("loop_var_names", options.names);
  for (size_t i = 0; i < options.shape_invariants.size(); ++i) {
    if (options.shape_invariants[i]) attrs.set("shape_invariant_" + std::to_string(i), *options.shape_invariants[i]);
  }
  if (options.maximum_iterations >= 0) attrs.set("maximum_iterations", options.maximum_iterations);
  bool stateful = has_stateful_nodes(*cond_g) || has_stateful_nodes(*body_g);
  std::vector<std::shared_ptr<Graph>> subgraphs{std::move(cond_g), std::move(body_g)};
  const OpDef& op = OpRegistry::global().get(stateful ? op::While : op::StatelessWhile);
  Node* n = g.add_node(op, std::move(inputs), std::move(attrs), options.name, subgraphs);
  record_node(*n);
  return n;
}

Node* add_call(Graph& g, std::vector<Output> args, std::shared_ptr<Graph> body, std::string f, std::string_view name) {
  check_parent(g, *body, "function");
  std::vector<Output> inputs = std::move(args);
  append_captures(*body, inputs);
  bool stateful = has_stateful_nodes(*body);
  const OpDef& op = OpRegistry::global().get(stateful ? op::StatefulPartitionedCall : op::PartitionedCall);
  Node* n = g.add_node(op, std::move(inputs), Attrs{{"f", std::move(f)}}, name.empty() ? std::string_view(op.name) : name,
                       {std::move(body)});
  record_node(*n);
  return n;
}

Node* add_device_call(Graph& g, std::vector<Output> args, Output device_ordinal, std::shared_ptr<Graph> body,
                      std::string f, std::string_view name) {
  check_parent(g, *body, "function");
  std::vector<Output> inputs = std::move(args);
  append_captures(*body, inputs);
  inputs.push_back(device_ordinal);
  const OpDef& op = OpRegistry::global().get(op::TPUPartitionedCall);
  Node* n = g.add_node(op, std::move(inputs), Attrs{{"f", std::move(f)}, {"autotuner_thresh", int64_t{0}}},
                       name.empty() ? std::string_view(op.name) : name, {std::move(body)});
  record_node(*n);
  return n;
}

Node* add_batch_function(Graph& g, std::vector<Output> in_tensors, std::vector<Output> captured,
                         std::shared_ptr<Graph> body, std::string f, Attrs options, std::string_view name) {
  check_parent(g, *body, "function");
  const auto num_captured = static_cast<int64_t>(captured.size());
  std::vector<Output> inputs = std::move(in_tensors);
  inputs.insert(inputs.end(), captured.begin(), captured.end());
  append_captures(*body, inputs);
  options.set("f", std::move(f));
  options.set("num_captured", num_captured + static_cast<int64_t>(body->captures().size()));
  const OpDef& op = OpRegistry::global().get(op::BatchFunction);
  Node* n = g.add_node(op, std::move(inputs), std::move(options), name.empty() ? std::string_view(op.name) : name,
                       {std::move(body)});
  record_node(*n);
  return n;
}

void register_control_flow_ops(OpRegistry& reg) {
  // TF's in-graph batching (TPU_EMULATOR.md section 4): calls from many
  // threads gathered along dim 0 into one run of the function. Stateful: a
  // call is a request to a shared queue.
  reg.op("BatchFunction")
      .inputs(1, -1)
      .outputs(-1)
      .role(OpRole::Batched)
      .infer(infer_batch_function)
      .stateful()
      .grad_unimplemented()
      .cost(CostKind::ControlFlow)
      .tpu_unsupported("BatchFunction runs on the host: the batching op cannot run on the TPU");
  // The converter's TPU call stub (TPU_EMULATOR.md B9): a call of a function
  // placed on the TPU, and the core it runs on. Stateful, as TF's: a TPU
  // program runs once per call, in program order.
  reg.op("TPUPartitionedCall")
      .inputs(1, -1)
      .outputs(-1)
      .role(OpRole::DeviceCall)
      .infer(infer_device_call)
      .stateful()
      .grad_unimplemented()
      .cost(CostKind::ControlFlow)
      .tpu_unsupported("TPUPartitionedCall runs on the host: it launches the TPU program");
  reg.op("TPUOrdinalSelector")
      .tf_signature(" -> device_ordinals: int32")
      .inputs(0)
      .infer([](const InferContext&) { return std::vector<TensorSpec>{{DType::Int32, Shape{1}}}; })
      .cpu([](const KernelSpec&) {
        // One v5e chip, one TensorCore: core 0 (TPU_EMULATOR.md section 1).
        return Kernel([](KernelContext& k) { k.set_output(0, Tensor::from_vector<int32_t>({1}, {0})); });
      })
      .stateful()
      .not_differentiable()
      .cost(CostKind::Free)
      .tpu_unsupported("TPUOrdinalSelector runs on the host: it picks the core");
  // A stateful body makes the node stateful: kept in program order, never
  // folded or pruned (add_if/add_while pick the variant).
  for (bool stateful : {true, false}) {
    OpBuilder i = reg.op(stateful ? "If" : "StatelessIf").inputs(1, -1).outputs(-1).role(OpRole::If).infer(infer_if);
    OpBuilder w = reg.op(stateful ? "While" : "StatelessWhile").inputs(0, -1).outputs(-1).role(OpRole::While).infer(infer_while);
    i.grad(if_gradient);
    w.grad(while_gradient);
    OpBuilder call = reg.op(stateful ? "StatefulPartitionedCall" : "PartitionedCall")
                         .inputs(0, -1)
                         .outputs(-1)
                         .role(OpRole::Call)
                         .infer(infer_call)
                         .grad(call_gradient);
    for (OpBuilder* b : {&i, &w, &call}) {
      if (stateful) b->stateful();
      b->cost(CostKind::ControlFlow).tpu();
    }
  }
}

}  // namespace ag
