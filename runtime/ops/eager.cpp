#include "runtime/ops/eager.h"

#include <algorithm>
#include <mutex>

#include "runtime/core/error.h"

namespace ag {
namespace {

/// TF's eager kernel cache, for the kernels whose state matters: a seeded
/// random op called again continues its Philox stream instead of repeating it.
/// (An unseeded one draws a fresh seed anyway; stateless kernels are rebuilt.)
class SeededKernelCache {
 public:
  static bool applies(const OpDef& op, const Attrs& attrs) {
    return op.stateful() && (attrs.get_or<int64_t>("seed", 0) != 0 || attrs.get_or<int64_t>("seed2", 0) != 0);
  }
  Kernel get(const OpDef& op, std::span<const TensorSpec> in, std::span<const TensorSpec> out, const Attrs& attrs) {
    std::lock_guard<std::mutex> lock(mu_);
    for (const Entry& e : entries_) {
      if (e.op == &op && e.attrs == attrs && std::equal(e.in.begin(), e.in.end(), in.begin(), in.end(),
                                                         [](DType a, const TensorSpec& b) { return a == b.dtype; })) {
        return e.kernel;
      }
    }
    if (entries_.size() >= kMaxEntries) entries_.clear();
    Entry e{&op, {}, attrs, op.cpu()(KernelSpec{op.name, in, out, attrs})};
    for (const TensorSpec& t : in) e.in.push_back(t.dtype);
    entries_.push_back(e);
    return e.kernel;
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mu_);
    entries_.clear();
  }

 private:
  static constexpr size_t kMaxEntries = 4096;
  struct Entry {
    const OpDef* op;
    std::vector<DType> in;
    Attrs attrs;
    Kernel kernel;
  };
  std::mutex mu_;
  std::vector<Entry> entries_;
};

SeededKernelCache& seeded_kernels() {
  static SeededKernelCache* cache = new SeededKernelCache();  // outlives static destructors
  return *cache;
}

}  // namespace

void clear_eager_kernel_cache() { seeded_kernels().clear(); }

std::vector<TensorSpec> infer_outputs(const OpDef& op, std::span<const TensorSpec> inputs, const Attrs& attrs,
                                      std::span<const Tensor* const> constants,
                                      std::span<const std::shared_ptr<Graph>> subgraphs) {
  return infer_outputs(op, InferContext{op.name, inputs, attrs, constants, subgraphs});
}

std::vector<TensorSpec> infer_outputs(const OpDef& op, const InferContext& ctx) {
  int n = static_cast<int>(ctx.inputs.size());
  if (n < op.min_inputs || (op.max_inputs >= 0 && n > op.max_inputs)) {
    std::string want = op.min_inputs == op.max_inputs ? std::to_string(op.min_inputs)
                       : op.max_inputs < 0           ? "at least " + std::to_string(op.min_inputs)
                                          : std::to_string(op.min_inputs) + " to " + std::to_string(op.max_inputs);
    throw InvalidArgumentError(op.name + " expects " + want + " inputs, got " + std::to_string(n));
  }
  if (!op.infer) throw InternalError("op " + op.name + " has no shape rule");
  std::vector<TensorSpec> out = op.infer(ctx);
  if (op.num_outputs >= 0 && static_cast<int>(out.size()) != op.num_outputs) {
    throw InternalError("shape rule of " + op.name + " returned " + std::to_string(out.size()) + " outputs");
  }
  return out;
}

std::vector<Tensor> run_op(const OpDef& op, std::span<const Tensor> inputs, const Attrs& attrs) {
  std::vector<TensorSpec> specs;
  std::vector<const Tensor*> ptrs;
  specs.reserve(inputs.size());
  ptrs.reserve(inputs.size());
  for (const Tensor& t : inputs) {
    if (!t.defined()) throw InternalError(op.name + " got an undefined input tensor");
    specs.push_back({t.dtype(), t.shape()});
    ptrs.push_back(&t);
  }
  std::vector<TensorSpec> out_specs = infer_outputs(op, specs, attrs, ptrs);
  if (!op.cpu()) throw UnimplementedError("op " + op.name + " has no CPU kernel");
  Kernel kernel = SeededKernelCache::applies(op, attrs) ? seeded_kernels().get(op, specs, out_specs, attrs)
                                                       : op.cpu()(KernelSpec{op.name, specs, out_specs, attrs});
  std::vector<Tensor> outputs(out_specs.size());
  KernelContext ctx{ptrs, outputs};
  kernel(ctx);
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i].defined()) throw InternalError("kernel of " + op.name + " left output " + std::to_string(i) + " unset");
  }
  return outputs;
}

std::vector<Tensor> run_op(OpType op, std::span<const Tensor> inputs, const Attrs& attrs) {
  return run_op(OpRegistry::global().get(op), inputs, attrs);
}

Tensor run_op1(OpType op, std::span<const Tensor> inputs, const Attrs& attrs) {
  std::vector<Tensor> out = run_op(op, inputs, attrs);
  if (out.size() != 1) throw InternalError(std::string(op.name()) + " has " + std::to_string(out.size()) + " outputs, not 1");
  return std::move(out[0]);
}

}  // namespace ag
