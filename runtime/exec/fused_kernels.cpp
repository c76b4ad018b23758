// The CPU kernels of FusedElementwise and FusedScalar (defined in
// graph/fused_ops.cpp), compiled once from the node's body: each body node
// contributes its op's own ElementwiseDef step, so a fused node computes
// exactly what its nodes would.
//   FusedElementwise walks the data in blocks of kBlock elements and runs
//     every step over the block, so intermediates stay in a few KB of stack
//     instead of full-size tensors.
//   FusedScalar runs its body as one ScalarProgram.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/exec/exec_ops.h"
#include "runtime/exec/scalar_program.h"
#include "runtime/graph/fused_ops.h"
#include "runtime/ops/kernels/elementwise.h"
#include "runtime/ops/kernels/gemm.h"
#include "runtime/ops/elementwise_def.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

constexpr int64_t kBlock = 128;

const Graph& body_of(const KernelSpec& s) {
  if (s.subgraphs.size() != 1 || s.subgraphs[0] == nullptr) {
    throw InternalError(std::string(s.op) + " is compiled without its body");
  }
  return *s.subgraphs[0];
}
constexpr size_t kMaxElementBytes = 8;

/// One body node: its block step reading registers a (and b) into dst.
struct Step {
  BlockFn fn;
  int arity;
  int a, b;
};

/// The body as steps over registers: 0..n_inputs-1 the inputs, then one per
/// step; the last step's result is the output.
struct BlockProgram {
  std::vector<Step> steps;
  size_t n_inputs = 0;
  DType dtype = DType::Float32;
};

BlockProgram compile_block_program(const Graph& body) {
  BlockProgram p;
  p.n_inputs = body.inputs().size();
  p.dtype = body.outputs()[0].spec().dtype;
  if (has_object_elements(p.dtype) || dtype_size(p.dtype) > kMaxElementBytes) {
    throw InternalError("FusedElementwise on " + std::string(dtype_name(p.dtype)));
  }
  std::vector<int> reg(body.nodes().size(), -1);
  for (size_t i = 0; i < p.n_inputs; ++i) reg[static_cast<size_t>(body.inputs()[i]->id)] = static_cast<int>(i);
  for (const auto& n : body.nodes()) {
    if (n->op->role() == OpRole::Argument) continue;
    const ElementwiseDef& e = *n->op->elementwise;  // the shape rule checked the body
    Step s{e.block_for(p.dtype), e.arity, reg[static_cast<size_t>(n->inputs[0].node->id)],
           e.arity > 1 ? reg[static_cast<size_t>(n->inputs[1].node->id)] : -1};
    reg[static_cast<size_t>(n->id)] = static_cast<int>(p.n_inputs + p.steps.size());
    p.steps.push_back(s);
  }
  return p;
}

Kernel fused_elementwise_kernel(const KernelSpec& spec) {
  auto prog = std::make_shared<const BlockProgram>(compile_block_program(body_of(spec)));
  return [prog](KernelContext& k) {
    const BlockProgram& p = *prog;
    const size_t n_in = p.n_inputs;
    const size_t elem = dtype_size(p.dtype);
    const Tensor* shaped = nullptr;
    for (size_t i = 0; i < n_in && shaped == nullptr; ++i) {
      if (k.input(i).rank() != 0) shaped = &k.input(i);
    }
    const Shape shape = shaped ? shaped->shape() : Shape{};
    for (size_t i = 0; i < n_in; ++i) {
      const Tensor& t = k.input(i);
      if (t.rank() != 0 && t.shape() != shape) {
        throw InvalidArgumentError("Incompatible shapes: " + shape.debug_string() + " vs. " + t.shape().debug_string());
      }
    }
    Tensor& out = k.allocate_output(0, p.dtype, shape);
    const int64_t n = out.num_elements();
    auto* dst = static_cast<unsigned char*>(out.raw_data());
    const unsigned char* src[kFusedElementwiseMaxInputs];
    for (size_t i = 0; i < n_in; ++i) src[i] = static_cast<const unsigned char*>(k.input(i).raw_data());
    // Elements [begin, end), on one thread: the blocks' registers are its own.
    auto run = [&](int64_t begin, int64_t end) {
      alignas(64) unsigned char regs[kFusedElementwiseMaxOps][kBlock * kMaxElementBytes];
      alignas(64) unsigned char splat[kFusedElementwiseMaxInputs][kBlock * kMaxElementBytes];
      bool is_splat[kFusedElementwiseMaxInputs];
      for (size_t i = 0; i < n_in; ++i) {
        is_splat[i] = k.input(i).rank() == 0;
        if (is_splat[i]) {
          for (int64_t j = 0; j < kBlock; ++j) std::memcpy(splat[i] + j * elem, src[i], elem);
        }
      }
      const void* reg[kFusedElementwiseMaxInputs + kFusedElementwiseMaxOps];
      const size_t last = p.steps.size() - 1;
      for (int64_t start = begin; start < end; start += kBlock) {
        const int64_t len = std::min<int64_t>(kBlock, end - start);
        for (size_t i = 0; i < n_in; ++i) reg[i] = is_splat[i] ? splat[i] : src[i] + start * elem;
        for (size_t j = 0; j < p.steps.size(); ++j) {
          const Step& s = p.steps[j];
          void* d = j == last ? dst + start * elem : regs[j];
          const void* operands[2] = {reg[s.a], s.arity > 1 ? reg[s.b] : nullptr};
          s.fn(operands, d, len);
          reg[n_in + j] = d;
        }
      }
    };
    // As a single elementwise op: long runs on two threads, split at a block
    // boundary so each thread's blocks stay whole.
    if (n < kernels::kParallelMinElements) {
      run(0, n);
      return;
    }
    const int64_t blocks = (n + kBlock - 1) / kBlock;
    kernels::parallel_for(blocks, 2, [&](int64_t first, int64_t last) {
      run(first * kBlock, std::min(n, last * kBlock));
    });
  };
}

Kernel fused_scalar_kernel(const KernelSpec& spec) {
  auto p = std::make_shared<ScalarProgram>();
  std::vector<int> in;
  for (const TensorSpec& t : spec.inputs) in.push_back(p->add_register(t.dtype));
  std::optional<std::vector<int>> results = p->add_graph(body_of(spec), in);
  if (!results) throw InternalError("FusedScalar: its body is not a scalar program");
  std::vector<DType> out_types;
  for (int r : *results) out_types.push_back(p->dtype(r));
  // Inputs are registers 0..n-1 and every op's result is a new register.
  if (p->num_registers() > static_cast<size_t>(kFusedScalarMaxInputs + kFusedScalarMaxOps)) {
    throw InternalError("FusedScalar: program too large");
  }
  return Kernel([p, results = std::move(*results), out_types, scalar = Shape{}](KernelContext& k) {
    ScalarReg regs[kFusedScalarMaxInputs + kFusedScalarMaxOps];
    p->init(regs);
    for (size_t i = 0; i < k.inputs.size(); ++i) ScalarProgram::load(regs[i], *k.inputs[i]);
    p->run(regs);
    for (size_t j = 0; j < results.size(); ++j) {
      ScalarProgram::store(k.allocate_output(j, out_types[j], scalar), regs[results[j]]);
    }
  });
}

}  // namespace

void register_fused_kernels(OpRegistry& reg) {
  reg.extend(op::FusedElementwise).cpu(fused_elementwise_kernel);
  reg.extend(op::FusedScalar).cpu(fused_scalar_kernel);
}

}  // namespace ag
