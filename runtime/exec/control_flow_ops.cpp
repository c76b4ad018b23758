// If / StatelessIf and While / StatelessWhile (input layout in control_flow.h).
// Their shape rules check the subgraphs with AutoGraph's messages; their
// kernel factories compile the subgraphs to plans once. The While kernel keeps
// the loop variables in the body plan's argument slots and rotates them with
// the body's output slots after each iteration, so a loop whose shapes are
// stable allocates nothing per iteration. A loop over scalars whose cond and
// body are scalar ops runs as one ScalarProgram instead (scalar_while.h).
#include <memory>
#include <string>

#include "runtime/core/error.h"
#include "runtime/exec/fused_elementwise.h"
#include "runtime/exec/plan.h"
#include "runtime/exec/scalar_while.h"
#include "runtime/exec/subgraph_context.h"
#include "runtime/graph/graph.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

std::span<const std::shared_ptr<Graph>> subgraphs_of(std::string_view op) {
  auto subs = current_subgraphs();
  if (subs.size() != 2) {
    throw InternalError(std::string(op) + " needs its subgraphs: build it with add_if/add_while and compile it "
                        "with compile_plan");
  }
  return subs;
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
  auto subs = subgraphs_of(c.op);
  const Graph& then_g = *subs[0];
  const Graph& else_g = *subs[1];
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
  auto subs = subgraphs_of(c.op);
  const Graph& cond_g = *subs[0];
  const Graph& body_g = *subs[1];
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

/// Reads a scalar bool condition (its shape may have been unknown statically).
bool truth(const Tensor& t, const char* what) {
  if (t.num_elements() != 1) {
    throw InvalidArgumentError(std::string(what) + " must be a scalar, got shape " + t.shape().debug_string());
  }
  return t.scalar_value<bool>();
}

Kernel if_kernel(const KernelSpec& s) {
  auto subs = subgraphs_of(s.op);
  auto then_p = std::make_shared<const Plan>(compile_plan(*subs[0]));
  auto else_p = std::make_shared<const Plan>(compile_plan(*subs[1]));
  const size_t n = subs[0]->num_args();
  const size_t tc = subs[0]->captures().size(), ec = subs[1]->captures().size();
  return [then_p, else_p, n, tc, ec](KernelContext& k) {
    const bool c = truth(k.input(0), "The condition of an If");
    const Plan& p = c ? *then_p : *else_p;
    const size_t caps_begin = 1 + n + (c ? 0 : tc);
    const size_t total = n + (c ? tc : ec);
    constexpr size_t kInline = 32;
    const Tensor* inline_ptrs[kInline];
    std::vector<const Tensor*> heap;
    const Tensor** ptrs = inline_ptrs;
    if (total > kInline) {
      heap.resize(total);
      ptrs = heap.data();
    }
    for (size_t i = 0; i < n; ++i) ptrs[i] = k.inputs[1 + i];
    for (size_t i = n; i < total; ++i) ptrs[i] = k.inputs[caps_begin + i - n];
    p.run(std::span<const Tensor* const>(ptrs, total), k.outputs, /*swap_outputs=*/true);
  };
}

Kernel while_kernel(const KernelSpec& s) {
  auto subs = subgraphs_of(s.op);
  if (Kernel scalar = scalar_while_kernel(*subs[0], *subs[1], subs[1]->num_args(), s)) return scalar;
  auto cond_p = std::make_shared<const Plan>(compile_plan(*subs[0]));
  auto body_p = std::make_shared<const Plan>(compile_plan(*subs[1]));
  const size_t n = subs[1]->num_args();
  const size_t cc = subs[0]->captures().size(), bc = subs[1]->captures().size();
  const int64_t max_iter = s.attrs.get_or<int64_t>("maximum_iterations", -1);
  // The cond reads the loop variables where they live, in the body's argument
  // slots: (index into the cond's in_ptrs, loop variable).
  std::vector<std::pair<uint32_t, uint32_t>> cond_reads;
  for (size_t i = 0; i < n; ++i) {
    for (uint32_t j : cond_p->readers_of(cond_p->arg_slot(i))) cond_reads.emplace_back(j, static_cast<uint32_t>(i));
  }
  int cond_result_var = -1;  // the cond returns loop variable i as is
  for (size_t i = 0; i < n; ++i) {
    if (cond_p->output_slot(0) == cond_p->arg_slot(i)) cond_result_var = static_cast<int>(i);
  }
  // Rotation by plain swaps when every result is either computed in its own
  // slot or the variable itself passed through unchanged (nothing to do: a
  // counter loop's untouched state costs nothing per iteration).
  bool simple = true;
  std::vector<uint32_t> swapped;  // the variables a simple rotation swaps
  for (size_t i = 0; i < n; ++i) {
    const uint32_t o = body_p->output_slot(i);
    if (o == body_p->arg_slot(i)) continue;
    simple = simple && body_p->is_computed_slot(o);
    for (size_t j = 0; j < n; ++j) simple = simple && (j == i || body_p->output_slot(j) != o);
    swapped.push_back(static_cast<uint32_t>(i));
  }
  return [cond_p, body_p, n, cc, bc, max_iter, cond_reads, cond_result_var, simple, swapped](KernelContext& k) {
    const Plan& cp = *cond_p;
    const Plan& bp = *body_p;
    StateLease cl(cp);
    StateLease bl(bp);
    RunState& cs = *cl;
    RunState& bs = *bl;
    Tensor* cslots = cs.slots.data();
    Tensor* bslots = bs.slots.data();
    // Captures stay bound for the whole loop; the loop variables live in the
    // body's argument slots.
    for (size_t j = 0; j < cc; ++j) cslots[cp.arg_slot(n + j)] = k.input(n + j);
    for (size_t j = 0; j < bc; ++j) bslots[bp.arg_slot(n + j)] = k.input(n + cc + j);
    for (size_t i = 0; i < n; ++i) bslots[bp.arg_slot(i)] = k.input(i);
    for (auto [j, i] : cond_reads) cs.in_ptrs[j] = &bslots[bp.arg_slot(i)];
    const Tensor& cond_result = cond_result_var >= 0 ? bslots[bp.arg_slot(static_cast<size_t>(cond_result_var))]
                                                     : cslots[cp.output_slot(0)];
    auto restore = [&] {
      for (auto [j, i] : cond_reads) cs.in_ptrs[j] = &cslots[cp.arg_slot(i)];
      cp.unbind(cs);
      bp.unbind(bs);
    };
    std::vector<Tensor> scratch(simple ? 0 : n);
    try {
      for (int64_t iter = 0; max_iter < 0 || iter < max_iter; ++iter) {
        cp.execute(cs);
        if (!truth(cond_result, "The loop condition")) break;
        bp.execute(bs);
        // Rotate: the results become the loop variables, and the previous
        // values go to the output slots, where allocate_output reuses them.
        if (simple) {
          for (uint32_t i : swapped) swap(bslots[bp.arg_slot(i)], bslots[bp.output_slot(i)]);
          continue;
        }
        for (size_t i = 0; i < n; ++i) scratch[i] = bslots[bp.output_slot(i)];
        for (size_t i = 0; i < n; ++i) swap(bslots[bp.arg_slot(i)], scratch[i]);
        for (size_t i = 0; i < n; ++i) {
          const uint32_t o = bp.output_slot(i);
          if (bp.is_computed_slot(o)) {
            bslots[o] = std::move(scratch[i]);
          } else {
            scratch[i] = Tensor();
          }
        }
      }
    } catch (...) {
      restore();
      throw;
    }
    for (size_t i = 0; i < n; ++i) k.set_output(i, std::move(bslots[bp.arg_slot(i)]));
    restore();
  };
}

}  // namespace

void register_control_flow_ops(OpRegistry& reg) {
  reg.op("If").inputs(1, -1).outputs(-1).stateful().infer(infer_if).cpu(if_kernel);
  reg.op("StatelessIf").inputs(1, -1).outputs(-1).infer(infer_if).cpu(if_kernel);
  reg.op("While").inputs(0, -1).outputs(-1).stateful().infer(infer_while).cpu(while_kernel);
  reg.op("StatelessWhile").inputs(0, -1).outputs(-1).infer(infer_while).cpu(while_kernel);
  register_fused_elementwise_op(reg);
}

}  // namespace ag
