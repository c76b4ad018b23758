// The CPU kernels of If / StatelessIf, While / StatelessWhile and the
// function calls (defined in graph/control_flow.cpp; input layout in
// graph/control_flow.h). Their
// factories compile the subgraphs to plans once, for the backend the node is
// compiled for. The While kernel keeps
// the loop variables in the body plan's argument slots and rotates them with
// the body's output slots after each iteration, so a loop whose shapes are
// stable allocates nothing per iteration. A loop over scalars whose cond and
// body are scalar ops runs as one ScalarProgram instead (scalar_while.h).
#include <memory>
#include <string>

#include "runtime/core/error.h"
#include "runtime/exec/plan.h"
#include "runtime/exec/scalar_while.h"
#include "runtime/graph/graph.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

std::span<const std::shared_ptr<Graph>> subgraphs_of(const KernelSpec& s) {
  if (s.subgraphs.size() != 2) throw InternalError(std::string(s.op) + " is compiled without its two subgraphs");
  return s.subgraphs;
}


/// Reads a scalar bool condition (its shape may have been unknown statically).
bool truth(const Tensor& t, const char* what) {
  if (t.num_elements() != 1) {
    throw InvalidArgumentError(std::string(what) + " must be a scalar, got shape " + t.shape().debug_string());
  }
  return t.scalar_value<bool>();
}

Kernel if_kernel(const KernelSpec& s) {
  auto subs = subgraphs_of(s);
  auto then_p = std::make_shared<const Plan>(compile_plan(*subs[0], s.backend));
  auto else_p = std::make_shared<const Plan>(compile_plan(*subs[1], s.backend));
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
  auto subs = subgraphs_of(s);
  if (Kernel scalar = scalar_while_kernel(*subs[0], *subs[1], subs[1]->num_args(), s)) return scalar;
  auto cond_p = std::make_shared<const Plan>(compile_plan(*subs[0], s.backend));
  auto body_p = std::make_shared<const Plan>(compile_plan(*subs[1], s.backend));
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

/// A call runs its function's plan on its inputs (arguments, then captures).
Kernel call_kernel(const KernelSpec& s) {
  if (s.subgraphs.size() != 1) throw InternalError(std::string(s.op) + " is compiled without its function's graph");
  auto body = std::make_shared<const Plan>(compile_plan(*s.subgraphs[0], s.backend));
  return [body](KernelContext& k) { body->run(k.inputs, k.outputs, /*swap_outputs=*/true); };
}

}  // namespace

void register_control_flow_kernels(OpRegistry& reg) {
  reg.extend(op::PartitionedCall).cpu(call_kernel);
  reg.extend(op::StatefulPartitionedCall).cpu(call_kernel);
  reg.extend(op::If).cpu(if_kernel);
  reg.extend(op::StatelessIf).cpu(if_kernel);
  reg.extend(op::While).cpu(while_kernel);
  reg.extend(op::StatelessWhile).cpu(while_kernel);
}

}  // namespace ag
