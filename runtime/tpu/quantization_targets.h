// What post-training quantization rewrites (TPU_EMULATOR.md B39): the float32
// products of a model whose right operand the conversion knows (a Const, a
// saved variable's read, or an identity of either), found by their ops'
// QuantRole (Dot, Conv, Gather), with the bias add and Relu/Relu6 that
// static-range quantization fuses after them; and the quantizable ops that
// stay float, with the reason.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/core/tensor.h"
#include "runtime/core/variable.h"
#include "runtime/ops/op_def.h"

namespace ag::tpu {

/// What the conversion knows of a model's values: for each function, the
/// object-graph node of the variable each resource argument holds, and each
/// saved variable's value by object-graph node.
struct ModelValues {
  std::map<std::string, std::map<int, int>> arguments;
  std::map<int, Tensor> variables;
};

/// `meta`'s variables as saved in `input_dir`, and which one each resource
/// argument holds: a concrete function's captures are its last arguments
/// (its bound_inputs, in order), and a resource a node passes on binds the
/// callee's argument (calls: input i is argument i; If: input i + 1).
ModelValues read_model_values(const tensorflow::MetaGraphDef& meta, const std::string& input_dir);

/// Function `fn`'s resource arguments as variables holding their saved
/// values, in argument order; NotFoundError when one is unknown.
std::vector<std::shared_ptr<Variable>> bound_variables(const tensorflow::FunctionDef& fn, const ModelValues& model);

/// The value `ref` has in every call of `f`, when the conversion knows it:
/// a Const, a saved variable's read, an identity of either, or a fake
/// quantization of known values (a QAT model's weights), run here.
std::optional<Tensor> constant_of(const tensorflow::FunctionDef& f, const std::string& ref, const ModelValues& model);

/// A convolution's window as XlaConvV2 takes it, per spatial dim (2 or 3),
/// the padding made explicit.
struct ConvWindowForm {
  std::vector<int64_t> strides, dilations;
  std::vector<std::array<int64_t, 2>> pads;  // before, after
  int64_t groups = 1;
};

struct Target {
  QuantRole kind = QuantRole::None;  // Dot, Conv (a depthwise one too) or Gather
  std::string function;
  std::string node;
  std::string output;              // where its float result is read: its own, or its last fused op's
  std::vector<std::string> fused;  // the bias and activation nodes fused after it, in order
  Tensor weight;                   // float32: Dot [K, N], Conv HWIO, Gather the table
  Shape depthwise_filter_shape = Shape::unknown_rank();  // a depthwise Conv's own [KH, KW, C, M]
  Tensor bias;                     // float32 [N], or undefined
  QuantRole activation = QuantRole::None;  // Relu or Relu6, when fused
  bool transpose_x = false;        // MatMul's transpose_a
  int activation_rank = 2;         // Dot
  ConvWindowForm window;           // Conv
  std::string id() const { return function + "/" + node; }
};

struct Targets {
  std::vector<Target> quantized;
  std::vector<std::string> left_float;  // "function/node (op): why"
};

/// The targets in `functions`; `fuse` (static range) fuses a constant bias
/// add over the last dim and then a Relu or Relu6 that alone read a product.
/// `input_shapes` gives each node's input shapes where the conversion knows
/// them ("function/node" -> shapes), for convolutions' padding and groups.
Targets find_targets(const tensorflow::MetaGraphDef& meta, const std::set<std::string>& functions,
                     const ModelValues& model, const std::map<std::string, std::vector<Shape>>& input_shapes,
                     bool fuse);

/// True when a function of `functions` fake-quantizes (a QAT model).
bool has_fake_quant(const tensorflow::MetaGraphDef& meta, const std::set<std::string>& functions);

/// The ranges quantization-aware training learned for target `t`: those of
/// the fake quantization its input comes from (through identities) and of
/// the one that alone reads its output, 8-bit, not narrow, known at
/// conversion. The second folds into the requantization: `t` ends at its
/// output. The first stays (another target's folded output, or the model's
/// input on the trained grid, which the quantize step keeps). Nullopt,
/// nothing changed, when either is missing.
struct TrainedRanges {
  std::pair<float, float> input, output;
};
std::optional<TrainedRanges> fold_trained_ranges(const tensorflow::MetaGraphDef& meta, Target& t, const ModelValues& model);

/// The input shapes of every node the quantized signatures' functions hold,
/// inferred from the signatures' arguments ("function/node" -> shapes); a
/// function agc cannot read contributes none.
std::map<std::string, std::vector<Shape>> node_input_shapes(const tensorflow::MetaGraphDef& meta,
                                                            const std::vector<std::string>& signature_functions,
                                                            const ModelValues& model);

}  // namespace ag::tpu
