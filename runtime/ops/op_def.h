// What the runtime knows about one op, in one definition (STYLE.md 8.4, in
// the spirit of MLIR's ODS): arity; the traits passes query (never its name);
// the dtype/shape rule; for elementwise ops one scalar semantic from which
// every kernel, fused loop step and scalar-program instruction is derived;
// a kernel factory per backend; a gradient decision; its cost and TPU facts.
//
// A kernel is prepared once per node (attributes read, dtype dispatched) and
// then run many times: the executor's hot path calls a prepared Kernel only.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "runtime/ops/tf_op_signature.h"
#include "runtime/core/tensor.h"
#include "runtime/ops/attrs.h"
#include "runtime/ops/op_type.h"

namespace ag {

class Graph;
struct Output;
struct ElementwiseDef;

/// A tensor's static type: dtype and (possibly partial) shape.
struct TensorSpec {
  DType dtype = DType::Float32;
  Shape shape;
  friend bool operator==(const TensorSpec&, const TensorSpec&) = default;
};

/// What a shape rule (or a trait query) sees: input types, attributes, the
/// values of inputs known while building (constants), for ops whose output
/// depends on an input's value (Reshape, Fill, Range, ...), and the node's
/// subgraphs (If: {then, else}; While: {cond, body}; a fused node: its body).
struct InferContext {
  std::string_view op;
  std::span<const TensorSpec> inputs;
  const Attrs& attrs;
  /// One entry per input: its value if known, else nullptr.
  std::span<const Tensor* const> constants;
  std::span<const std::shared_ptr<Graph>> subgraphs = {};
  /// True when the rule runs for a node of the graph being traced (TF's
  /// shape function runs then, and its errors have their own wording:
  /// "Dimensions must be equal, but are 3 and 4"); false for an op run
  /// eagerly (TF's kernel checks: "Matrix size-incompatible: ...") and for
  /// a node a pass adds.
  bool tracing = false;
  /// The inputs whose value the rule asked for (bit i: input i), which a
  /// failing shape function's error lists ("with computed input tensors").
  mutable uint64_t requested = 0;
  /// While tracing, what a shape-valued input (a Fill's dims, a
  /// Reshape's shape) that is no constant is known to hold: TF's partial
  /// shape of a tensor (a Pack of scalars, some of them constants, gives
  /// [1,?,2]); nullopt when nothing is known. Null eagerly. Read it through
  /// array::shape_input.
  const std::function<std::optional<Shape>(size_t input)>* partial_shapes = nullptr;
  /// The inputs the rule read as shapes (array::shape_input), which a
  /// failing shape function's error lists ("computed as partial shapes").
  mutable uint64_t requested_shapes = 0;

  const Tensor* constant(size_t i) const {
    if (i < 64) requested |= uint64_t{1} << i;
    return i < constants.size() ? constants[i] : nullptr;
  }
};
using InferFn = std::function<std::vector<TensorSpec>(const InferContext&)>;

/// The kernel backends an op may provide a factory for. The CPU one is
/// Eigen's; a target picks the backend its kernels come from.
enum class Backend : uint8_t { Cpu, TpuEmu };
inline constexpr size_t kNumBackends = 2;

/// What a kernel is prepared for: the node's input and output types,
/// attributes and subgraphs, the backend it is compiled for (nested plans use
/// the same), and, in a compiled plan, the values of inputs that are graph
/// constants (axes, shapes), which a kernel may specialize on; eager kernels
/// are cached per type, so they get none.
struct KernelSpec {
  std::string_view op;
  std::span<const TensorSpec> inputs;
  std::span<const TensorSpec> outputs;
  const Attrs& attrs;
  std::span<const Tensor* const> constants = {};
  std::span<const std::shared_ptr<Graph>> subgraphs = {};
  Backend backend = Backend::Cpu;

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

/// The op's structural role in the graph IR, which passes and the compiler ask.
enum class OpRole : uint8_t {
  Compute,   // an ordinary op
  Constant,  // its output is attrs "value" (Const)
  Argument,  // bound by the caller of the graph (Placeholder)
  Identity,  // output 0 is input 0, unchanged
  If,        // runs subgraph 0 or 1 on a scalar bool predicate (input 0)
  While,     // subgraph 0 (cond) and 1 (body) over loop variables
  Call,      // runs subgraph 0 (a traced function's graph) on its inputs
  DeviceCall,  // runs subgraph 0 on another device (TPUPartitionedCall): its
               // inputs, then a device ordinal last; never inlined
  Batched,     // runs subgraph 0 on batches that gather its inputs from
               // concurrent calls (BatchFunction); never inlined
  Fused,     // runs subgraph 0 as one kernel (made by fusion, never traced)
};

/// What an op computes, for the passes that reason about arithmetic (loop
/// trip counts, epilogues fused into a product). None for most ops.
enum class OpSemantic : uint8_t {
  None,
  Add,     // x + y, NumPy broadcasting
  Sub,     // x - y
  Mul,     // x * y
  Less,    // x < y
  MatMul,  // op(a)·op(b) of 2-D a, b, with bool attrs transpose_a, transpose_b
  Cast,    // x converted to another dtype (the conversion report counts it free)
};

/// A node-level question an op answers from its node's types, attributes and
/// constant inputs (InferContext), e.g. "does this node select one row?".
using NodeQuery = bool (*)(const InferContext&);

/// Facts passes query instead of op names.
struct OpTraits {
  OpRole role = OpRole::Compute;
  OpSemantic semantic = OpSemantic::None;
  /// Has an effect or state (print, random, variables): keeps program order,
  /// never folded, merged or pruned.
  bool stateful = false;
  /// f(a, b) == f(b, a).
  bool commutative = false;
  /// For inputs of statically known (fully defined) shapes it can neither fail
  /// nor have an effect, except on the dtypes in `fails_on`; so running it on
  /// a path not taken (If-conversion) is unobservable.
  bool speculatable = false;
  /// Dtypes on which some input values make it fail (integer division by
  /// zero, negative integer powers).
  TypeMask fails_on = 0;
  /// The input whose values decide those failures (a divisor), or -1.
  int failing_input = -1;
  /// For a node of this op: "it takes one slice of input 0 along axis 0,
  /// dropping that axis, at an index given by its other inputs; the same node
  /// over another tensor of the same leading dimension takes the same slice"
  /// (x[i] as getitem traces it). Null: never.
  NodeQuery selects_row = nullptr;
  /// Reads the variable named by attr "var" (ReadVariableOp): a tape treats
  /// that variable as its input, so gradients reach the variable.
  bool reads_variable = false;
};

/// What a node's output, read as a shape, is known to hold while tracing
/// when it is no constant (TF's ConstantPartialShape): a Pack of scalars
/// gives the values of the constant ones and unknown dims for the others;
/// Shape gives its input's static shape. `value(j)` is input j's value when
/// it can be computed while tracing.
struct ShapeValueQuery {
  const InferContext& node;
  std::function<std::optional<Tensor>(size_t input)> value;
  /// What input `input`, read as a shape, is known to hold (its own
  /// ShapeValueFn's answer, recursively: a ConcatV2 of a Shape's slices).
  std::function<std::optional<Shape>(size_t input)> shape;
};
using ShapeValueFn = std::optional<Shape> (*)(const ShapeValueQuery&);

/// The same node as a simpler op (BiasAdd NHWC is AddV2): the canonicalize
/// pass swaps the node's op and attributes. Types must not change.
struct CanonicalForm {
  OpType op;
  Attrs attrs;
};
using CanonicalizeFn = std::optional<CanonicalForm> (*)(const InferContext&);

/// Differentiation (GRADIENTS.md section 0): every op holds a decision.
/// A GradFn (ops/grad_context.h) builds, from the forward op and the
/// gradients of its outputs, one gradient per forward input (None where it
/// has none), eagerly or in a graph alike.
class GradContext;
struct GradTensor;
using GradFn = std::function<std::vector<GradTensor>(GradContext&)>;
struct GradientDecision {
  enum class Kind : uint8_t {
    Unset,              // no decision yet: the completeness test fails
    Function,           // `fn` builds the gradient from other ops
    NotDifferentiable,  // None for every input, silently (comparisons, shapes, ...)
    Unimplemented,      // LookupError "No gradient defined for operation ..." until one is written
  };
  Kind kind = Kind::Unset;
  GradFn fn;
};

/// How an op's cost is estimated (TPU_EMULATOR.md section 8) and whether the
/// TPU can run it.
enum class CostKind : uint8_t {
  Unset,         // no decision yet: the completeness test fails
  Free,          // no work: reshape, identity, constant, argument
  Elementwise,   // one pass over its largest array (reductions too)
  DataMovement,  // bytes moved only: transpose, concat, slice, gather, pad
  Contraction,   // a product: 2·b·M·K·N multiply-adds (see `contraction`)
  ControlFlow,   // the cost of the subgraphs it runs
  Host,          // host-side work: strings, printing, variables' bookkeeping
};
/// A contraction's dimensions: b batches of [M, K]·[K, N].
struct ContractionDims {
  double b = 1, m = 0, k = 0, n = 0;
};
using ContractionFn = ContractionDims (*)(const InferContext& node, std::span<const TensorSpec> outputs);
struct CostFacts {
  CostKind kind = CostKind::Unset;
  ContractionFn contraction = nullptr;  // for CostKind::Contraction
};
/// What post-training quantization makes of a node of the op
/// (TPU_EMULATOR.md B39): a product whose right operand, known at conversion,
/// becomes int8 weights (Dot: x[..., K] · w[K, N]; Conv: an NHWC input over
/// an HWIO filter; DepthwiseConv: an NHWC input over an [H, W, C, M] filter,
/// each channel by its own M), a table read in int8 rows (Gather), an op
/// fused after a product (Bias: + b[N] on the last dim; Relu, Relu6), or a
/// fake quantization whose range quantization-aware training learned
/// (FakeQuant: input 0 through [min, max], as inputs 1, 2 or attrs min, max).
enum class QuantRole : uint8_t { None, Dot, Conv, DepthwiseConv, Gather, Bias, Relu, Relu6, FakeQuant };

struct TpuFacts {
  enum class Kind : uint8_t { Unset, Supported, Unsupported };
  Kind kind = Kind::Unset;
  std::string reason;  // why not, for the conversion report
  /// Inputs XLA needs as compile-time constants (a Reshape's shape, a
  /// reduction's axes; TPU_EMULATOR.md B12), by index.
  std::vector<int> constant_inputs;
  QuantRole quantization = QuantRole::None;
};

struct OpDef {
  std::string name;  // TF's op type: "AddV2", "MatMul", ...
  int min_inputs = 0;
  int max_inputs = 0;   // -1: any number
  int num_outputs = 1;  // -1: decided by the shape rule
  OpTraits traits;
  InferFn infer;
  /// For elementwise ops, the scalar semantic every kernel derives from.
  const ElementwiseDef* elementwise = nullptr;
  CanonicalizeFn canonicalize = nullptr;
  ShapeValueFn shape_value = nullptr;
  /// TF's type attributes and the input each is read from ({"T", 0} for
  /// AddV2; StridedSlice also {"Index", 1}): a node's summary in errors
  /// lists them as TF's NodeDef does ("MatMul[T=DT_FLOAT, ...]").
  std::vector<std::pair<std::string, int>> type_attrs;
  /// TF's argument lists (ops/tf_op_signature.h), for GraphDefs and
  /// FunctionDefs; empty when agc has not declared them.
  std::optional<TfSignature> tf_signature;
  std::array<KernelFactory, kNumBackends> kernels;
  GradientDecision gradient;
  CostFacts cost;
  TpuFacts tpu;
  int id = -1;  // index in the registry

  bool stateful() const { return traits.stateful; }
  OpRole role() const { return traits.role; }
  const KernelFactory& kernel(Backend b) const { return kernels[static_cast<size_t>(b)]; }
  const KernelFactory& cpu() const { return kernel(Backend::Cpu); }
};

}  // namespace ag
