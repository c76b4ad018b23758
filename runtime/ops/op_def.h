// What the runtime knows about one op, all in one registration (STYLE.md 8.4):
// arity, statefulness, the dtype/shape rule and the CPU kernel. Gradient and
// TPU cost slots are filled by later issues.
//
// A kernel is prepared once per node (attributes read, dtype dispatched) and
// then run many times: the executor's hot path calls a prepared Kernel only.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "runtime/core/tensor.h"
#include "runtime/ops/attrs.h"

namespace ag {

/// A tensor's static type: dtype and (possibly partial) shape.
struct TensorSpec {
  DType dtype = DType::Float32;
  Shape shape;
  friend bool operator==(const TensorSpec&, const TensorSpec&) = default;
};

/// What a shape rule sees: input types, attributes, and the values of inputs
/// known while building (constants), for ops whose output shape depends on
/// an input's value (Reshape, Fill, Range, ...).
struct InferContext {
  std::string_view op;
  std::span<const TensorSpec> inputs;
  const Attrs& attrs;
  /// One entry per input: its value if known, else nullptr.
  std::span<const Tensor* const> constants;

  const Tensor* constant(size_t i) const { return i < constants.size() ? constants[i] : nullptr; }
};
using InferFn = std::function<std::vector<TensorSpec>(const InferContext&)>;

/// What a kernel is prepared for: the node's input and output types and
/// attributes, and, in a compiled plan, the values of inputs that are graph
/// constants (axes, shapes), which a kernel may specialize on; eager kernels
/// are cached per type, so they get none.
struct KernelSpec {
  std::string_view op;
  std::span<const TensorSpec> inputs;
  std::span<const TensorSpec> outputs;
  const Attrs& attrs;
  std::span<const Tensor* const> constants = {};

  const Tensor* constant(size_t i) const { return i < constants.size() ? constants[i] : nullptr; }
};

/// One execution: inputs are read-only; outputs hold what the slot held last
/// time (possibly a buffer to reuse) and get the results.
struct KernelContext {
  std::span<const Tensor* const> inputs;
  std::span<Tensor> outputs;

  const Tensor& input(size_t i) const { return *inputs[i]; }
  /// Output i as a tensor of `dtype` and `shape`: the slot's old storage when it
  /// matches and nothing else holds it (no allocation), else a new tensor.
  Tensor& allocate_output(size_t i, DType dtype, const Shape& shape) {
    Tensor& t = outputs[i];
    if (!(t.defined() && t.dtype() == dtype && t.shape() == shape && t.owns_storage_uniquely())) {
      t = Tensor(dtype, shape);
    }
    return t;
  }
  void set_output(size_t i, Tensor t) { outputs[i] = std::move(t); }
};

using Kernel = std::function<void(KernelContext&)>;
using KernelFactory = std::function<Kernel(const KernelSpec&)>;

struct OpDef {
  std::string name;  // TF's op type: "AddV2", "MatMul", ...
  int min_inputs = 0;
  int max_inputs = 0;  // -1: any number
  int num_outputs = 1;  // -1: decided by the shape rule
  /// Stateful ops (print, random, variable reads and writes) keep program
  /// order and are never folded, merged or pruned.
  bool stateful = false;
  InferFn infer;
  KernelFactory cpu;
  int id = -1;  // index in the registry
};

}  // namespace ag
