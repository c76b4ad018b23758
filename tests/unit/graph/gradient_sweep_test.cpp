// The numerical gradient sweep (GRADIENTS.md section 6): every op whose
// gradient is a function is checked against central differences in float64
// (delta 1e-3, max error 1e-4) on random inputs away from kinks: the tape's
// gradient of sum(w · op(inputs)), w random, against
// (f(x + delta) - f(x - delta)) / (2 delta) per input element. Elementwise
// ops are found in the registry and swept on their own; every other op needs
// a case below, and the completeness case fails on one that has none.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <string>

#include "runtime/exec/compile.h"
#include "runtime/graph/gradients.h"
#include "runtime/graph/tape.h"
#include "runtime/graph/tracing.h"
#include "runtime/ops/eager.h"
#include "runtime/ops/registry.h"

using namespace ag;

namespace {

std::mt19937& rng() {
  static std::mt19937 r(20261125);
  return r;
}

Tensor uniform(const Shape& shape, double lo, double hi) {
  Tensor t(DType::Float64, shape);
  std::uniform_real_distribution<double> d(lo, hi);
  for (int64_t i = 0; i < t.num_elements(); ++i) t.data<double>()[i] = d(rng());
  return t;
}

Tensor int32s(std::vector<int32_t> v) { return Tensor::from_vector(Shape{static_cast<int64_t>(v.size())}, v); }

Tensor int32s(std::vector<int32_t> v, Shape shape) { return Tensor::from_vector(shape, v); }

/// Values 0.05 apart in random order: no ties, and no two closer than the
/// step of central differences (MaxPool's argmax stays put).
Tensor spaced_values(const Shape& shape) {
  Tensor t(DType::Float64, shape);
  std::vector<int64_t> order(static_cast<size_t>(t.num_elements()));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng());
  for (int64_t i = 0; i < t.num_elements(); ++i) t.data<double>()[i] = -1.0 + 0.05 * static_cast<double>(order[static_cast<size_t>(i)]);
  return t;
}

Tensor index_scalar(int32_t v) { return Tensor::scalar(v); }

/// Values in [0.1, 1] of random sign: both sides of an activation's kink
/// at 0, never within central differences' step of it.
Tensor away_from_zero(const Shape& shape) {
  Tensor t = uniform(shape, 0.1, 1.0);
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    if (rng()() % 2) t.data<double>()[i] = -t.data<double>()[i];
  }
  return t;
}

Attrs conv_case(std::vector<int64_t> strides, const char* padding, std::vector<int64_t> dilations = {1, 1, 1, 1}) {
  return Attrs{{"strides", strides}, {"padding", std::string(padding)}, {"dilations", dilations},
               {"data_format", std::string("NHWC")}};
}

Attrs pool_case(int64_t k, int64_t stride, const char* padding) {
  return Attrs{{"ksize", std::vector<int64_t>{1, k, k, 1}}, {"strides", std::vector<int64_t>{1, stride, stride, 1}},
               {"padding", std::string(padding)}, {"data_format", std::string("NHWC")}};
}

Attrs slice_masks(int64_t begin, int64_t end, int64_t shrink = 0, int64_t new_axis = 0, int64_t ellipsis = 0) {
  return Attrs{{"begin_mask", begin}, {"end_mask", end}, {"shrink_axis_mask", shrink}, {"new_axis_mask", new_axis},
               {"ellipsis_mask", ellipsis}};
}

Attrs batch_norm_case(bool training, const char* format = "NHWC", double factor = 1.0) {
  return Attrs{{"epsilon", 0.001}, {"is_training", training}, {"exponential_avg_factor", factor},
               {"data_format", std::string(format)}};
}

/// `batch` n × n matrices in [-0.5, 0.5) with 2 added on the diagonal: well
/// conditioned, so inverses and solves are smooth around them.
Tensor well_conditioned(int64_t batch, int64_t n) {
  Tensor u = uniform({batch, n, n}, -0.5, 0.5);
  std::vector<double> v(u.data<double>(), u.data<double>() + u.num_elements());
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>((b * n + i) * n + i)] += 2;
  }
  return Tensor::from_vector(Shape{batch, n, n}, v);
}

/// An op applied to inputs, differentiated with respect to those in `wrt`,
/// the objective summing the outputs in `outputs`.
struct Case {
  std::vector<Tensor> inputs;
  Attrs attrs;
  std::vector<size_t> wrt = {0};
  std::vector<size_t> outputs = {0};
  /// False for a gradient TF builds only from static shapes (Qr's raises
  /// NotImplementedError on unknown dims, and so does agc's).
  bool unknown_dims = true;
};

/// Σ_k sum(w_k · op(inputs)[k]) over the case's outputs, in float64.
double objective(const OpDef& op, const Case& c, const std::vector<Tensor>& inputs, const std::vector<Tensor>& w) {
  std::vector<Tensor> outs = run_op(op, inputs, c.attrs);
  double s = 0;
  for (size_t j = 0; j < c.outputs.size(); ++j) {
    const Tensor& out = outs[c.outputs[j]];
    for (int64_t i = 0; i < out.num_elements(); ++i) s += out.data<double>()[i] * w[j].data<double>()[i];
  }
  return s;
}

/// The gradients of sum_k sum(w_k · op(in)[k]) with respect to in[wrt], by a
/// tape: eager when `in` are values, built in the graph being traced when
/// some are placeholders.
std::vector<std::optional<TensorHandle>> tape_gradients(const OpDef& op, const Case& c, const std::vector<TensorHandle>& in,
                                                        const std::vector<Tensor>& w) {
  Tape tape(false, true);
  for (size_t i : c.wrt) tape.watch(in[i]);
  tape.start();
  std::vector<TensorHandle> ys = apply_op(OpType(op.name), in, c.attrs);
  std::optional<TensorHandle> sum;
  for (size_t j = 0; j < c.outputs.size(); ++j) {
    TensorHandle wy[] = {ys[c.outputs[j]], TensorHandle(w[j])};
    TensorHandle product = apply_op1(op::Mul, wy);
    std::vector<int32_t> all_axes;
    for (int i = 0; i < w[j].rank(); ++i) all_axes.push_back(i);
    TensorHandle part = apply_op1(op::Sum, std::vector<TensorHandle>{product, TensorHandle(int32s(all_axes))},
                                  Attrs{{"keep_dims", false}, {"Tidx", DType::Int32}});
    if (sum) {
      TensorHandle both[] = {*sum, part};
      sum = apply_op1(op::AddV2, both);
    } else {
      sum = part;
    }
  }
  TensorHandle total = *sum;
  tape.stop();

  std::vector<GradientSource> sources;
  for (size_t i : c.wrt) sources.push_back({key_of(in[i]), {DType::Float64, in[i].shape()}});
  TensorHandle targets[] = {total};
  std::optional<TensorHandle> seeds[] = {std::nullopt};
  return compute_gradient(tape.entries(), targets, seeds, sources);
}

std::vector<Tensor> weights(const OpDef& op, const Case& c) {
  std::vector<Tensor> outs = run_op(op, c.inputs, c.attrs);
  std::vector<Tensor> w;
  for (size_t k : c.outputs) w.push_back(uniform(outs[k].shape(), 0.5, 1.5));
  return w;
}

void check_gradient(const OpDef& op, const Case& c) {
  INFO("op ", op.name);
  std::vector<Tensor> w = weights(op, c);
  auto grads = tape_gradients(op, c, std::vector<TensorHandle>(c.inputs.begin(), c.inputs.end()), w);

  constexpr double kDelta = 1e-3;
  for (size_t j = 0; j < c.wrt.size(); ++j) {
    const size_t i = c.wrt[j];
    REQUIRE_MESSAGE(grads[j].has_value(), "no gradient for input ", i);
    const Tensor& g = grads[j]->value();
    REQUIRE(g.shape() == c.inputs[i].shape());
    for (int64_t k = 0; k < c.inputs[i].num_elements(); ++k) {
      std::vector<Tensor> plus = c.inputs, minus = c.inputs;
      plus[i] = Tensor::from_vector(plus[i].shape(), std::vector<double>(plus[i].data<double>(),
                                                                         plus[i].data<double>() + plus[i].num_elements()));
      minus[i] = Tensor::from_vector(minus[i].shape(), std::vector<double>(minus[i].data<double>(),
                                                                           minus[i].data<double>() + minus[i].num_elements()));
      plus[i].data<double>()[k] += kDelta;
      minus[i].data<double>()[k] -= kDelta;
      double numeric = (objective(op, c, plus, w) - objective(op, c, minus, w)) / (2 * kDelta);
      CHECK_MESSAGE(std::abs(g.data<double>()[k] - numeric) < 1e-4,
                    "input ", i, " element ", k, ": tape ", g.data<double>()[k], ", numeric ", numeric);
    }
  }
}

/// The cases of the ops that are not elementwise, by op type.
const std::map<std::string, std::function<std::vector<Case>()>>& shaped_cases() {
  static const std::map<std::string, std::function<std::vector<Case>()>> cases = {
      {"MatMul",
       [] {
         std::vector<Case> out;
         for (bool ta : {false, true}) {
           for (bool tb : {false, true}) {
             out.push_back({{uniform(ta ? Shape{4, 3} : Shape{3, 4}, -1, 1), uniform(tb ? Shape{2, 4} : Shape{4, 2}, -1, 1)},
                            Attrs{{"transpose_a", ta}, {"transpose_b", tb}},
                            {0, 1}});
           }
         }
         return out;
       }},
      {"BatchMatMulV2",
       [] {
         return std::vector<Case>{{{uniform({2, 3, 4}, -1, 1), uniform({4, 2}, -1, 1)},
                                   Attrs{{"adj_x", false}, {"adj_y", false}},
                                   {0, 1}},
                                  {{uniform({1, 4, 3}, -1, 1), uniform({2, 2, 4}, -1, 1)},
                                   Attrs{{"adj_x", true}, {"adj_y", true}},
                                   {0, 1}}};
       }},
      {"Sum",
       [] {
         return std::vector<Case>{{{uniform({2, 3, 4}, -1, 1), int32s({1})}, Attrs{{"keep_dims", false}, {"Tidx", DType::Int32}}},
                                  {{uniform({2, 3}, -1, 1), int32s({0, -1})}, Attrs{{"keep_dims", true}, {"Tidx", DType::Int32}}}};
       }},
      {"Mean",
       [] {
         return std::vector<Case>{{{uniform({2, 3, 4}, -1, 1), int32s({0, 2})}, Attrs{{"keep_dims", false}, {"Tidx", DType::Int32}}}};
       }},
      {"Max",
       [] {
         return std::vector<Case>{{{uniform({3, 4}, -1, 1), int32s({1})}, Attrs{{"keep_dims", false}, {"Tidx", DType::Int32}}}};
       }},
      {"Min",
       [] {
         return std::vector<Case>{{{uniform({3, 4}, -1, 1), int32s({0})}, Attrs{{"keep_dims", true}, {"Tidx", DType::Int32}}}};
       }},
      {"Reshape", [] { return std::vector<Case>{{{uniform({2, 6}, -1, 1), int32s({3, 4})}, {}}}; }},
      {"ExpandDims", [] { return std::vector<Case>{{{uniform({2, 3}, -1, 1), Tensor::scalar(int32_t{1})}, {}}}; }},
      {"Squeeze", [] { return std::vector<Case>{{{uniform({2, 1, 3}, -1, 1)}, Attrs{{"squeeze_dims", std::vector<int64_t>{1}}}}}; }},
      {"Transpose", [] { return std::vector<Case>{{{uniform({2, 3, 4}, -1, 1), int32s({2, 0, 1})}, {}}}; }},
      {"ReverseV2", [] { return std::vector<Case>{{{uniform({2, 3}, -1, 1), int32s({1})}, {}}}; }},
      // The activations' gradient ops take one shape (no broadcasting, as
      // TF's), and their second input on both sides of 0.
      {"EluGrad", [] { return std::vector<Case>{{{uniform({2, 3}, -1, 1), away_from_zero({2, 3})}, {}, {0, 1}}}; }},
      {"SeluGrad", [] { return std::vector<Case>{{{uniform({2, 3}, -1, 1), away_from_zero({2, 3})}, {}, {0, 1}}}; }},
      {"LeakyRelu",
       [] {
         return std::vector<Case>{{{away_from_zero({2, 3})}, Attrs{{"alpha", 0.2}}},
                                  {{away_from_zero({4})}, Attrs{{"alpha", 1.5}}},
                                  {{away_from_zero({3})}, {}}};
       }},
      {"LeakyReluGrad",
       [] { return std::vector<Case>{{{uniform({2, 3}, -1, 1), away_from_zero({2, 3})}, Attrs{{"alpha", 0.3}}, {0, 1}}}; }},
      {"Softmax", [] { return std::vector<Case>{{{uniform({2, 5}, -2, 2)}, {}}}; }},
      {"LogSoftmax", [] { return std::vector<Case>{{{uniform({2, 5}, -2, 2)}, {}}}; }},
      {"BiasAdd", [] { return std::vector<Case>{{{uniform({2, 3, 4}, -1, 1), uniform({4}, -1, 1)}, {}, {0, 1}}}; }},
      {"SelectV2",
       [] {
         Tensor cond = Tensor::from_vector(Shape{3}, std::vector<bool>{true, false, true});
         return std::vector<Case>{{{cond, uniform({2, 3}, -1, 1), uniform({3}, -1, 1)}, {}, {1, 2}}};
       }},
      {"ConcatV2",
       [] {
         return std::vector<Case>{{{uniform({2, 3}, -1, 1), uniform({2, 2}, -1, 1), index_scalar(1)}, {}, {0, 1}},
                                  {{uniform({1, 3}, -1, 1), uniform({2, 3}, -1, 1), uniform({1, 3}, -1, 1), index_scalar(-2)}, {}, {0, 1, 2}}};
       }},
      {"Pack", [] { return std::vector<Case>{{{uniform({2, 3}, -1, 1), uniform({2, 3}, -1, 1)}, Attrs{{"axis", int64_t{1}}}, {0, 1}}}; }},
      {"Unpack", [] { return std::vector<Case>{{{uniform({3, 2}, -1, 1)}, Attrs{{"axis", int64_t{0}}, {"num", int64_t{3}}}, {0}, {0, 2}}}; }},
      {"Split", [] { return std::vector<Case>{{{index_scalar(1), uniform({2, 4}, -1, 1)}, Attrs{{"num_split", int64_t{2}}}, {1}, {0, 1}}}; }},
      {"SplitV",
       [] { return std::vector<Case>{{{uniform({2, 5}, -1, 1), int32s({2, -1}), index_scalar(-1)}, Attrs{{"num_split", int64_t{2}}}, {0}, {0, 1}}}; }},
      {"Tile", [] { return std::vector<Case>{{{uniform({2, 3}, -1, 1), int32s({2, 1})}, {}}, {{uniform({2}, -1, 1), int32s({3})}, {}}}; }},
      {"Pad", [] { return std::vector<Case>{{{uniform({2, 3}, -1, 1), int32s({1, 0, 0, 2}, Shape{2, 2})}, {}}}; }},
      {"PadV2",
       [] { return std::vector<Case>{{{uniform({2, 3}, -1, 1), int32s({0, 1, 2, 1}, Shape{2, 2}), Tensor::scalar(0.5)}, {}}}; }},
      {"Slice",
       [] {
         return std::vector<Case>{{{uniform({3, 4}, -1, 1), int32s({1, 0}), int32s({2, -1})}, {}},
                                  {{uniform({2, 3, 4}, -1, 1), int32s({0, 1, 1}), int32s({1, 2, 2})}, {}}};
       }},
      {"StridedSlice",
       [] {
         return std::vector<Case>{
             // x[1::2, ::-1]
             {{uniform({4, 5}, -1, 1), int32s({1, 0}), int32s({0, 0}), int32s({2, -1})}, slice_masks(2, 3)},
             // x[1, :, None]
             {{uniform({3, 4}, -1, 1), int32s({1, 0, 0}), int32s({2, 0, 0}), int32s({1, 1, 1})}, slice_masks(0, 2, 1, 4)},
             // x[..., 2]
             {{uniform({2, 3, 4}, -1, 1), int32s({0, 2}), int32s({0, 3}), int32s({1, 1})}, slice_masks(0, 0, 2, 0, 1)}};
       }},
      {"StridedSliceGrad",
       [] {
         return std::vector<Case>{
             {{int32s({4, 5}), int32s({1, 0}), int32s({0, 0}), int32s({2, -1}), uniform({2, 5}, -1, 1)}, slice_masks(2, 3), {4}}};
       }},
      {"GatherV2",
       [] {
         Attrs none{{"batch_dims", int64_t{0}}};
         return std::vector<Case>{{{uniform({5, 3}, -1, 1), int32s({0, 2, 2, 4}), index_scalar(0)}, none},
                                  {{uniform({2, 4, 3}, -1, 1), int32s({3, 1, 1, 0}, Shape{2, 2}), index_scalar(1)}, none},
                                  {{uniform({2, 3}, -1, 1), index_scalar(2), index_scalar(-1)}, none},
                                  // batch_dims 1: per batch row, its own indices.
                                  {{uniform({2, 3, 4}, -1, 1), int32s({3, 0, 3, 1, 2, 2}, Shape{2, 3}), index_scalar(2)},
                                   Attrs{{"batch_dims", int64_t{1}}}},
                                  {{uniform({2, 4, 3}, -1, 1), int32s({0, 3, 0, 2}, Shape{2, 2}), index_scalar(1)},
                                   Attrs{{"batch_dims", int64_t{-1}}}}};
       }},
      {"GatherNd", [] { return std::vector<Case>{{{uniform({3, 4}, -1, 1), int32s({0, 1, 2, 3, 0, 1}, Shape{3, 2})}, {}}}; }},
      {"UnsortedSegmentSum", [] { return std::vector<Case>{{{uniform({4, 2}, -1, 1), int32s({0, 2, -1, 0}), index_scalar(3)}, {}}}; }},
      // Every segment non-empty (an empty one's identity, the type's lowest or
      // highest value, overflows the objective); row 2 dropped.
      {"UnsortedSegmentMax",
       [] { return std::vector<Case>{{{spaced_values({5, 2}), int32s({0, 2, -1, 1, 0}), index_scalar(3)}, {}}}; }},
      {"UnsortedSegmentMin",
       [] { return std::vector<Case>{{{spaced_values({5, 2}), int32s({0, 2, -1, 1, 0}), index_scalar(3)}, {}}}; }},
      {"UnsortedSegmentProd",
       [] {
         // Segment 0 is rows 0, 3 and 4: one zero in its column 0, two in its column 1.
         Tensor zeros = uniform({5, 2}, 0.5, 1.5);
         zeros.data<double>()[0] = 0;
         zeros.data<double>()[7] = 0;
         zeros.data<double>()[9] = 0;
         return std::vector<Case>{{{uniform({5, 2}, 0.5, 1.5), int32s({0, 2, -1, 0, 0}), index_scalar(3)}, {}},
                                  {{zeros, int32s({0, 2, -1, 0, 0}), index_scalar(3)}, {}}};
       }},
      {"SegmentSum", [] { return std::vector<Case>{{{uniform({4, 2}, -1, 1), int32s({0, 0, 1, 3})}, {}}}; }},
      {"SegmentMean", [] { return std::vector<Case>{{{uniform({4, 2}, -1, 1), int32s({0, 0, 1, 3})}, {}}}; }},
      {"SegmentMax", [] { return std::vector<Case>{{{spaced_values({5, 2}), int32s({0, 0, 1, 1, 3})}, {}}}; }},
      {"SegmentMin", [] { return std::vector<Case>{{{spaced_values({5, 2}), int32s({0, 0, 1, 1, 3})}, {}}}; }},
      {"EuclideanNorm",
       [] {
         return std::vector<Case>{
             {{uniform({2, 3, 4}, 0.5, 1.5), int32s({1})}, Attrs{{"keep_dims", false}, {"Tidx", DType::Int32}}},
             {{uniform({2, 3}, -1.5, -0.5), int32s({0, -1})}, Attrs{{"keep_dims", true}, {"Tidx", DType::Int32}}}};
       }},
      {"L2Loss", [] { return std::vector<Case>{{{uniform({2, 3}, -1, 1)}, {}}}; }},
      {"MirrorPad",
       [] {
         return std::vector<Case>{{{uniform({3, 4}, -1, 1), int32s({1, 2, 0, 3}, Shape{2, 2})},
                                   Attrs{{"mode", std::string("REFLECT")}}},
                                  {{uniform({3, 4}, -1, 1), int32s({3, 1, 2, 4}, Shape{2, 2})},
                                   Attrs{{"mode", std::string("SYMMETRIC")}}}};
       }},
      {"MirrorPadGrad",
       [] {
         return std::vector<Case>{{{uniform({6, 9}, -1, 1), int32s({1, 2, 3, 2}, Shape{2, 2})},
                                   Attrs{{"mode", std::string("REFLECT")}}}};
       }},
      {"BroadcastTo", [] { return std::vector<Case>{{{uniform({3, 1}, -1, 1), int32s({2, 3, 4})}, {}}}; }},
      {"Roll", [] { return std::vector<Case>{{{uniform({3, 4}, -1, 1), int32s({2, -1}), int32s({0, 1})}, {}}}; }},
      {"TensorScatterUpdate",
       [] {
         return std::vector<Case>{
             {{uniform({4, 2}, -1, 1), int32s({1, 3}, Shape{2, 1}), uniform({2, 2}, -1, 1)}, {}, {0, 2}}};
       }},
      {"TensorScatterAdd",
       [] {
         return std::vector<Case>{
             {{uniform({4, 2}, -1, 1), int32s({1, 1}, Shape{2, 1}), uniform({2, 2}, -1, 1)}, {}, {0, 2}}};
       }},
      {"TensorScatterSub",
       [] {
         return std::vector<Case>{{{uniform({3, 2}, -1, 1), int32s({0, 1, 2, 0}, Shape{2, 2}), uniform({2}, -1, 1)}, {}, {0, 2}}};
       }},
      {"TopKV2", [] { return std::vector<Case>{{{spaced_values({3, 5}), index_scalar(2)}, Attrs{{"sorted", true}}}}; }},
      {"MatrixDiagPartV3",
       [] {
         return std::vector<Case>{{{uniform({2, 3, 4}, -1, 1), int32s({-1, 1}), Tensor::scalar(0.0)},
                                   Attrs{{"align", std::string("RIGHT_LEFT")}}}};
       }},
      {"MatrixDiagV3",
       [] {
         return std::vector<Case>{{{uniform({2, 3}, -1, 1), index_scalar(1), index_scalar(-1), index_scalar(-1),
                                    Tensor::scalar(0.0)},
                                   Attrs{{"align", std::string("RIGHT_LEFT")}}}};
       }},
      {"MatrixSetDiagV3",
       [] {
         return std::vector<Case>{{{uniform({3, 3}, -1, 1), uniform({3}, -1, 1), index_scalar(0)},
                                   Attrs{{"align", std::string("RIGHT_LEFT")}},
                                   {0, 1}}};
       }},
      {"MatrixBandPart",
       [] { return std::vector<Case>{{{uniform({3, 4}, -1, 1), Tensor::scalar(int64_t{1}), Tensor::scalar(int64_t{-1})}, {}}}; }},
      {"MatrixInverse",
       [] {
         Tensor a = well_conditioned(2, 3);
         return std::vector<Case>{{{a}, Attrs{{"adjoint", false}}}, {{a}, Attrs{{"adjoint", true}}}};
       }},
      {"MatrixDeterminant", [] { return std::vector<Case>{{{well_conditioned(2, 3)}, {}}}; }},
      {"MatrixSolve",
       [] {
         Tensor a = well_conditioned(1, 3);
         return std::vector<Case>{{{a, uniform({1, 3, 2}, -1, 1)}, Attrs{{"adjoint", false}}, {0, 1}},
                                  {{a, uniform({1, 3, 2}, -1, 1)}, Attrs{{"adjoint", true}}, {0, 1}}};
       }},
      // Symmetric perturbations only: its own test below.
      {"Cholesky", [] { return std::vector<Case>{}; }},
      {"Qr",
       [] {
         return std::vector<Case>{{{uniform({4, 3}, -1, 1)}, Attrs{{"full_matrices", false}}, {0}, {0, 1}, false},
                                  {{uniform({3, 3}, -1, 1)}, Attrs{{"full_matrices", false}}, {0}, {0, 1}, false},
                                  {{uniform({2, 4}, -1, 1)}, Attrs{{"full_matrices", false}}, {0}, {0, 1}, false}};
       }},
      // An elementwise op whose first input must be a whole number: its own case,
      // with x from 1 (near the pole at 0, psi^(5) is in the thousands and
      // central differences are off by delta^2/6 times that).
      {"Polygamma",
       [] { return std::vector<Case>{{{Tensor::from_vector<double>(Shape{3}, {0, 1, 2}), uniform({2, 3}, 1.0, 2.0)}, {}, {1}}}; }},
      {"ScatterNd",
       [] { return std::vector<Case>{{{int32s({1, 3, 1}, Shape{3, 1}), uniform({3, 2}, -1, 1), int32s({4, 2})}, {}, {1}}}; }},
      {"SparseToDense",
       [] {
         return std::vector<Case>{
             {{int32s({0, 1, 1, 2}, Shape{2, 2}), int32s({2, 3}), uniform({2}, -1, 1), Tensor::scalar(0.7)}, {}, {2, 3}}};
       }},
      {"Fill", [] { return std::vector<Case>{{{int32s({2, 3}), Tensor::scalar(0.7)}, {}, {1}}}; }},
      {"Prod",
       [] {
         Tensor zeros = uniform({2, 3}, 0.5, 1.5);
         zeros.data<double>()[1] = 0;  // one zero in column 1, two in row 1
         zeros.data<double>()[3] = 0;
         zeros.data<double>()[5] = 0;
         return std::vector<Case>{{{uniform({2, 3, 4}, 0.5, 1.5), int32s({0, 2})}, Attrs{{"keep_dims", false}, {"Tidx", DType::Int32}}},
                                  {{uniform({2, 3}, 0.5, 1.5), int32s({-1})}, Attrs{{"keep_dims", true}, {"Tidx", DType::Int32}}},
                                  {{zeros, int32s({0})}, Attrs{{"keep_dims", false}, {"Tidx", DType::Int32}}},
                                  {{zeros, int32s({1})}, Attrs{{"keep_dims", false}, {"Tidx", DType::Int32}}}};
       }},
      {"Cumsum",
       [] {
         std::vector<Case> out;
         for (bool exclusive : {false, true}) {
           for (bool reverse : {false, true}) {
             out.push_back({{uniform({3, 4}, -1, 1), index_scalar(1)}, Attrs{{"exclusive", exclusive}, {"reverse", reverse}}});
           }
         }
         return out;
       }},
      {"Cumprod",
       [] {
         std::vector<Case> out;
         for (bool exclusive : {false, true}) {
           for (bool reverse : {false, true}) {
             out.push_back({{uniform({3, 4}, 0.5, 1.5), index_scalar(0)}, Attrs{{"exclusive", exclusive}, {"reverse", reverse}}});
           }
         }
         return out;
       }},
      {"Conv2D",
       [] {
         Attrs grouped = conv_case({1, 1, 1, 1}, "EXPLICIT");
         grouped.set("explicit_paddings", std::vector<int64_t>{0, 0, 1, 0, 0, 2, 0, 0});
         return std::vector<Case>{{{uniform({2, 5, 5, 3}, -1, 1), uniform({3, 3, 3, 2}, -1, 1)}, conv_case({1, 2, 2, 1}, "SAME"), {0, 1}},
                                  {{uniform({1, 6, 5, 2}, -1, 1), uniform({2, 2, 2, 3}, -1, 1)}, conv_case({1, 1, 2, 1}, "VALID", {1, 2, 1, 1}), {0, 1}},
                                  {{uniform({1, 4, 4, 4}, -1, 1), uniform({2, 2, 2, 4}, -1, 1)}, grouped, {0, 1}}};
       }},
      {"DepthwiseConv2dNative",
       [] {
         Attrs pads = conv_case({1, 1, 1, 1}, "EXPLICIT");
         pads.set("explicit_paddings", std::vector<int64_t>{0, 0, 1, 0, 0, 2, 0, 0});
         return std::vector<Case>{{{uniform({2, 5, 5, 3}, -1, 1), uniform({3, 3, 3, 2}, -1, 1)}, conv_case({1, 2, 2, 1}, "SAME"), {0, 1}},
                                  {{uniform({1, 6, 5, 2}, -1, 1), uniform({2, 2, 2, 1}, -1, 1)}, conv_case({1, 1, 2, 1}, "VALID", {1, 2, 1, 1}), {0, 1}},
                                  {{uniform({1, 4, 4, 4}, -1, 1), uniform({2, 2, 4, 3}, -1, 1)}, pads, {0, 1}}};
       }},
      {"Conv3D",
       [] {
         Attrs same{{"strides", std::vector<int64_t>{1, 1, 2, 1, 1}}, {"padding", std::string("SAME")}};
         Attrs valid{{"strides", std::vector<int64_t>{1, 1, 1, 1, 1}}, {"padding", std::string("VALID")},
                     {"dilations", std::vector<int64_t>{1, 2, 1, 1, 1}}};
         return std::vector<Case>{{{uniform({1, 3, 4, 3, 2}, -1, 1), uniform({2, 2, 2, 2, 3}, -1, 1)}, same, {0, 1}},
                                  {{uniform({1, 4, 3, 3, 2}, -1, 1), uniform({2, 2, 2, 1, 2}, -1, 1)}, valid, {0, 1}}};
       }},
      {"Conv3DBackpropInputV2",
       [] {
         Attrs a{{"strides", std::vector<int64_t>{1, 1, 2, 1, 1}}, {"padding", std::string("SAME")}};
         return std::vector<Case>{{{int32s({1, 3, 4, 3, 2}), uniform({2, 2, 2, 2, 3}, -1, 1), uniform({1, 3, 2, 3, 3}, -1, 1)},
                                   a, {1, 2}}};
       }},
      {"Conv3DBackpropFilterV2",
       [] {
         Attrs a{{"strides", std::vector<int64_t>{1, 1, 2, 1, 1}}, {"padding", std::string("SAME")}};
         return std::vector<Case>{{{uniform({1, 3, 4, 3, 2}, -1, 1), int32s({2, 2, 2, 2, 3}), uniform({1, 3, 2, 3, 3}, -1, 1)},
                                   a, {0, 2}}};
       }},
      {"Conv2DBackpropInput",
       [] {
         return std::vector<Case>{{{int32s({1, 4, 4, 2}), uniform({3, 3, 2, 3}, -1, 1), uniform({1, 2, 2, 3}, -1, 1)},
                                   conv_case({1, 2, 2, 1}, "SAME"), {1, 2}}};
       }},
      {"Conv2DBackpropFilter",
       [] {
         return std::vector<Case>{{{uniform({1, 4, 4, 2}, -1, 1), int32s({3, 3, 2, 3}), uniform({1, 2, 2, 3}, -1, 1)},
                                   conv_case({1, 2, 2, 1}, "SAME"), {0, 2}}};
       }},
      {"MaxPool",
       [] {
         return std::vector<Case>{{{spaced_values({1, 4, 4, 2})}, pool_case(2, 2, "VALID")}, {{spaced_values({2, 5, 5, 1})}, pool_case(3, 2, "SAME")}};
       }},
      {"AvgPool",
       [] { return std::vector<Case>{{{uniform({1, 5, 5, 2}, -1, 1)}, pool_case(3, 2, "SAME")}, {{uniform({1, 4, 4, 1}, -1, 1)}, pool_case(2, 1, "VALID")}}; }},
      {"MaxPoolGrad",
       [] {
         Tensor x = spaced_values({1, 4, 4, 2});
         Tensor y = run_op1(OpType("MaxPool"), std::vector<Tensor>{x}, pool_case(3, 1, "VALID"));
         return std::vector<Case>{{{x, y, uniform({1, 2, 2, 2}, -1, 1)}, pool_case(3, 1, "VALID"), {2}}};
       }},
      {"MaxPoolGradGrad",
       [] {
         Tensor x = spaced_values({1, 5, 5, 1});
         Tensor y = run_op1(OpType("MaxPool"), std::vector<Tensor>{x}, pool_case(2, 2, "SAME"));
         return std::vector<Case>{{{x, y, uniform({1, 5, 5, 1}, -1, 1)}, pool_case(2, 2, "SAME"), {2}}};
       }},
      {"AvgPoolGrad", [] { return std::vector<Case>{{{int32s({1, 5, 5, 2}), uniform({1, 3, 3, 2}, -1, 1)}, pool_case(3, 2, "SAME"), {1}}}; }},
      {"SoftmaxCrossEntropyWithLogits",
       [] {
         // As in TF, the labels' gradient comes from the loss alone (the backprop
         // output's gradient reaches only the logits).
         // Labels are distributions: the backprop output (softmax - labels) is the
         // logits' gradient only when each row sums to 1, as TF assumes.
         Tensor logits = uniform({3, 4}, -2, 2), labels = uniform({3, 4}, 0.1, 1);
         for (int64_t b = 0; b < 3; ++b) {
           double* row = labels.data<double>() + 4 * b;
           const double total = row[0] + row[1] + row[2] + row[3];
           for (int64_t j = 0; j < 4; ++j) row[j] /= total;
         }
         return std::vector<Case>{{{logits, labels}, {}, {0, 1}, {0}}, {{logits, labels}, {}, {0}, {0, 1}}};
       }},
      {"SparseSoftmaxCrossEntropyWithLogits",
       [] { return std::vector<Case>{{{uniform({3, 4}, -2, 2), int32s({1, 0, 3})}, {}, {0}, {0, 1}}}; }},
      {"FusedBatchNormV3",
       [] {
         auto inputs = [](Shape x, int64_t ch) {
           return std::vector<Tensor>{uniform(x, -1, 1), uniform({ch}, 0.5, 1.5), uniform({ch}, -1, 1), uniform({ch}, -0.5, 0.5),
                                      uniform({ch}, 0.5, 1.5)};
         };
         return std::vector<Case>{{inputs({2, 3, 3, 2}, 2), batch_norm_case(true), {0, 1, 2}},
                                  {inputs({2, 2, 3, 2}, 2), batch_norm_case(true, "NCHW", 0.3), {0, 1, 2}},
                                  {inputs({2, 3, 2, 3}, 3), batch_norm_case(false), {0, 1, 2}}};
       }},
      {"Identity", [] { return std::vector<Case>{{{uniform({2, 3}, -1, 1)}, {}}}; }},
      {"Cast", [] { return std::vector<Case>{{{uniform({2, 3}, -1, 1)}, Attrs{{"SrcT", DType::Float64}, {"DstT", DType::Float64}}}}; }},
      // No inputs: its gradient (onto the variable) is checked by the tape tests.
      {"ReadVariableOp", [] { return std::vector<Case>{}; }},
      {"AddN", [] { return std::vector<Case>{{{uniform({2, 3}, -1, 1), uniform({2, 3}, -1, 1), uniform({2, 3}, -1, 1)}, {}, {0, 1, 2}}}; }},
      // Their subgraphs (a called function's too) are built by tracing, and the list ops' values are
      // lists: control_flow_grad_test.cpp checks them.
      {"If", [] { return std::vector<Case>{}; }},
      {"StatelessIf", [] { return std::vector<Case>{}; }},
      {"While", [] { return std::vector<Case>{}; }},
      {"StatelessWhile", [] { return std::vector<Case>{}; }},
      {"PartitionedCall", [] { return std::vector<Case>{}; }},
      {"StatefulPartitionedCall", [] { return std::vector<Case>{}; }},
      {"TensorListFromTensor", [] { return std::vector<Case>{}; }},
      {"TensorListGetItem", [] { return std::vector<Case>{}; }},
      {"TensorListSetItem", [] { return std::vector<Case>{}; }},
      {"TensorListPushBack", [] { return std::vector<Case>{}; }},
      {"TensorListPopBack", [] { return std::vector<Case>{}; }},
      {"TensorListStack", [] { return std::vector<Case>{}; }},
      // tests/e2e/programs/tensor_array_concat_split_scatter checks a split -> scatter -> concat gradient.
      {"TensorListConcatV2", [] { return std::vector<Case>{}; }},
      {"TensorListSplit", [] { return std::vector<Case>{}; }},
      {"TensorListScatterIntoExistingList", [] { return std::vector<Case>{}; }},
  };
  return cases;
}

bool takes_float64(const OpDef& op) {
  try {
    std::vector<TensorSpec> ins(op.min_inputs, TensorSpec{DType::Float64, Shape{2}});
    Attrs none;
    infer_outputs(op, ins, none, std::vector<const Tensor*>(ins.size(), nullptr));
    return true;
  } catch (const Error&) {
    return false;
  }
}

/// The elementwise ops the sweep checks on their own: a gradient function,
/// one or two inputs, float64 accepted, and no case of their own (an op
/// whose inputs need values of its domain, as Polygamma's order).
bool swept_elementwise(const OpDef& op) {
  return op.gradient.kind == GradientDecision::Kind::Function && op.elementwise != nullptr && op.min_inputs >= 1 &&
         op.min_inputs <= 2 && op.min_inputs == op.max_inputs && takes_float64(op) && shaped_cases().count(op.name) == 0;
}

}  // namespace

TEST_CASE("every differentiable elementwise op agrees with central differences in float64") {
  int swept = 0;
  for (const auto& op : OpRegistry::global().ops()) {
    if (!swept_elementwise(*op)) continue;
    // Inputs away from kinks and poles: the first in [0.2, 0.9], a second in
    // [1.1, 1.9] (so x < y: no ties, no integer quotients).
    Case c;
    c.inputs.push_back(uniform({2, 3}, 0.2, 0.9));
    if (op->min_inputs == 2) c.inputs.push_back(uniform({3}, 1.1, 1.9));  // broadcast too
    c.wrt = op->min_inputs == 2 ? std::vector<size_t>{0, 1} : std::vector<size_t>{0};
    check_gradient(*op, c);
    ++swept;
  }
  CHECK(swept >= 30);
}

namespace {

/// Samplers whose gradient is not the derivative of the op's output at a
/// fixed seed: TF's implicit reparameterization gives d sample / d alpha at
/// a fixed CDF value, not along the rejection sampler's own transform, so
/// central differences do not apply; the case below checks them instead.
const std::set<std::string>& implicit_reparameterization_ops() {
  static const std::set<std::string> ops = {"RandomGamma", "StatelessRandomGammaV2"};
  return ops;
}

/// Ops whose gradient is by definition not their derivative (0 almost
/// everywhere): fake quantization's straight-through estimator, checked
/// against TF's rule in tests/unit/ops/fake_quant_ops_test.cpp.
const std::set<std::string>& straight_through_ops() {
  static const std::set<std::string> ops = {"FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxVars"};
  return ops;
}

}  // namespace

TEST_CASE("the gamma samplers' gradient is the sum over samples of RandomGammaGrad (TF's _RandomGammaGrad)") {
  Tensor alpha = uniform({2}, 0.5, 3.0);
  Tensor shape = int32s({3, 2});
  Tensor seed = Tensor::from_vector<int64_t>(Shape{2}, {12, 34});
  Case c{{shape, seed, alpha}, Attrs{}, {2}};
  const OpDef& op = OpRegistry::global().get(OpType("StatelessRandomGammaV2"));
  std::vector<Tensor> w = weights(op, c);
  auto grads = tape_gradients(op, c, std::vector<TensorHandle>(c.inputs.begin(), c.inputs.end()), w);
  REQUIRE(grads[0].has_value());
  Tensor sample = run_op(op, c.inputs, c.attrs)[0];
  std::vector<Tensor> grad_in{alpha, sample};
  Tensor partial = run_op(OpRegistry::global().get(OpType("RandomGammaGrad")), grad_in, Attrs{})[0];
  for (int64_t i = 0; i < 2; ++i) {
    double want = 0;
    for (int64_t j = 0; j < 3; ++j) want += w[0].data<double>()[j * 2 + i] * partial.data<double>()[j * 2 + i];
    CHECK(grads[0]->value().data<double>()[i] == doctest::Approx(want).epsilon(1e-12));
  }
}

TEST_CASE("every differentiable op that is not elementwise has a sweep case") {
  const auto& cases = shaped_cases();
  for (const auto& op : OpRegistry::global().ops()) {
    if (op->gradient.kind != GradientDecision::Kind::Function || op->elementwise != nullptr) continue;
    if (implicit_reparameterization_ops().count(op->name) || straight_through_ops().count(op->name)) continue;
    INFO("op ", op->name);
    CHECK_MESSAGE(cases.count(op->name), "add a case for ", op->name, " to shaped_cases()");
  }
}

TEST_CASE("the gradients of shaped ops agree with central differences in float64") {
  // Their inputs must not depend on how many elementwise ops the sweep
  // before drew for (Qr's case is conditioned for this stream).
  rng().seed(20261125);
  for (const auto& [name, make] : shaped_cases()) {
    const OpDef& op = OpRegistry::global().get(OpType(name));
    for (const Case& c : make()) check_gradient(op, c);
  }
}

TEST_CASE("the shaped ops' gradients built in a trace, with the inputs' dims unknown, agree with the eager ones") {
  // The run-time shape paths of the gradient functions: each differentiated
  // input is a placeholder of known rank and unknown dims.
  for (const auto& shaped : shaped_cases()) {
    // Not a structured binding: INFO captures it (Clang 14 cannot).
    const auto& name = shaped.first;
    const auto& make = shaped.second;
    const OpDef& op = OpRegistry::global().get(OpType(name));
    for (const Case& c : make()) {
      if (!c.unknown_dims) continue;
      INFO("op ", name);
      std::vector<Tensor> w = weights(op, c);
      auto eager = tape_gradients(op, c, std::vector<TensorHandle>(c.inputs.begin(), c.inputs.end()), w);
      auto graph = std::make_shared<Graph>("g");
      {
        TraceScope scope(*graph);
        std::vector<TensorHandle> in(c.inputs.begin(), c.inputs.end());
        for (size_t i : c.wrt) in[i] = TensorHandle(graph->placeholder({DType::Float64, Shape::unknown_dims(c.inputs[i].rank())}, "x"));
        auto traced = tape_gradients(op, c, in, w);
        for (const auto& g : traced) {
          REQUIRE(g.has_value());
          graph->outputs().push_back(g->symbolic() ? graph->capture(g->output()) : graph->constant(g->value()));
        }
      }
      Executable exe = compile(*graph);
      std::vector<const Tensor*> args;
      for (size_t i : c.wrt) args.push_back(&c.inputs[i]);
      std::vector<Tensor> out(c.wrt.size());
      exe.plan().run(args, out);
      for (size_t j = 0; j < c.wrt.size(); ++j) {
        REQUIRE(out[j].shape() == eager[j]->value().shape());
        for (int64_t k = 0; k < out[j].num_elements(); ++k) {
          CHECK(out[j].data<double>()[k] == doctest::Approx(eager[j]->value().data<double>()[k]).epsilon(1e-9));
        }
      }
    }
  }
}

TEST_CASE("Elu's and Selu's gradients agree with central differences on both sides of 0") {
  // The elementwise sweep above draws its inputs from [0.2, 0.9].
  for (const char* name : {"Elu", "Selu"}) {
    check_gradient(OpRegistry::global().get(OpType(name)), Case{{away_from_zero({2, 4})}, {}});
  }
}

TEST_CASE("Cholesky's gradient agrees with central differences along symmetric perturbations") {
  // Cholesky reads only the lower triangle, and TF's gradient is the
  // symmetric matrix G with dF = <G, dA> for a symmetric dA: perturbing
  // a_ij and a_ji together moves F by G_ij + G_ji (G_ii on the diagonal).
  const OpDef& op = OpRegistry::global().get(OpType("Cholesky"));
  Case c{{Tensor::from_vector<double>(Shape{3, 3}, {4, 1, 0.5, 1, 3, 0.2, 0.5, 0.2, 2})}, {}};
  std::vector<Tensor> w = weights(op, c);
  auto grads = tape_gradients(op, c, std::vector<TensorHandle>(c.inputs.begin(), c.inputs.end()), w);
  REQUIRE(grads[0].has_value());
  const Tensor& g = grads[0]->value();
  constexpr double kDelta = 1e-3;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j <= i; ++j) {
      std::vector<Tensor> plus{Tensor::from_vector(Shape{3, 3}, std::vector<double>(c.inputs[0].data<double>(), c.inputs[0].data<double>() + 9))};
      std::vector<Tensor> minus{Tensor::from_vector(Shape{3, 3}, std::vector<double>(c.inputs[0].data<double>(), c.inputs[0].data<double>() + 9))};
      for (auto [r, col] : {std::pair{i, j}, std::pair{j, i}}) {
        plus[0].data<double>()[r * 3 + col] += kDelta;
        minus[0].data<double>()[r * 3 + col] -= kDelta;
        if (i == j) break;
      }
      const double numeric = (objective(op, c, plus, w) - objective(op, c, minus, w)) / (2 * kDelta);
      const double tape = i == j ? g.data<double>()[i * 3 + i] : g.data<double>()[i * 3 + j] + g.data<double>()[j * 3 + i];
      CHECK_MESSAGE(std::abs(tape - numeric) < 1e-4, "element (", i, ", ", j, "): tape ", tape, ", numeric ", numeric);
      CHECK(g.data<double>()[i * 3 + j] == doctest::Approx(g.data<double>()[j * 3 + i]));
    }
  }
}

TEST_CASE("FusedBatchNormV3's gradient for bfloat16 x computes in float32, the statistics' type") {
  std::mt19937 r(7);
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> xs(2 * 2 * 2 * 3);
  for (float& v : xs) v = static_cast<float>(bfloat16(d(r)));  // exactly representable in both
  Tensor x32 = Tensor::from_vector(Shape{2, 2, 2, 3}, xs);
  Tensor x16(DType::BFloat16, x32.shape());
  for (size_t i = 0; i < xs.size(); ++i) x16.data<bfloat16>()[i] = bfloat16(xs[i]);
  Tensor scale = Tensor::from_vector<float>(Shape{3}, {1.0f, 0.5f, 2.0f});
  Tensor offset = Tensor::from_vector<float>(Shape{3}, {0.0f, 0.1f, -0.2f});
  Attrs a{{"epsilon", 0.001}, {"is_training", true}};
  auto dx = [&](const Tensor& x) {
    Tape tape(false, true);
    TensorHandle in[] = {TensorHandle(x), TensorHandle(scale), TensorHandle(offset), TensorHandle(scale), TensorHandle(scale)};
    tape.watch(in[0]);
    tape.start();
    TensorHandle y = apply_op(OpType("FusedBatchNormV3"), in, a)[0];
    Tensor w(x.dtype(), x.shape());
    for (int64_t i = 0; i < w.num_elements(); ++i) {
      const float v = 0.5f + 0.125f * static_cast<float>(i % 9);  // exact in bfloat16
      if (x.dtype() == DType::BFloat16) w.data<bfloat16>()[i] = bfloat16(v);
      else w.data<float>()[i] = v;
    }
    TensorHandle wy[] = {y, TensorHandle(w)};
    TensorHandle y2 = apply_op1(op::Mul, wy);
    TensorHandle total = apply_op1(op::Sum, std::vector<TensorHandle>{y2, TensorHandle(int32s({0, 1, 2, 3}))},
                                   Attrs{{"keep_dims", false}, {"Tidx", DType::Int32}});
    tape.stop();
    GradientSource source{key_of(in[0]), {x.dtype(), x.shape()}};
    TensorHandle targets[] = {total};
    std::optional<TensorHandle> seeds[] = {std::nullopt};
    auto g = compute_gradient(tape.entries(), targets, seeds, std::span(&source, 1));
    REQUIRE(g[0].has_value());
    return g[0]->value();
  };
  Tensor g32 = dx(x32), g16 = dx(x16);
  REQUIRE(g16.dtype() == DType::BFloat16);
  for (int64_t i = 0; i < g32.num_elements(); ++i) {
    CHECK(static_cast<float>(g16.data<bfloat16>()[i]) == doctest::Approx(g32.data<float>()[i]).epsilon(0.02).scale(1.0));
  }
}

namespace {

Tensor cast_to(const Tensor& t, DType to) {
  return run_op1(OpType("Cast"), std::vector<Tensor>{t}, Attrs{{"SrcT", t.dtype()}, {"DstT", to}});
}

/// The tape's gradients of sum(op(inputs)) with respect to every input.
std::vector<Tensor> tape_gradients(const OpDef& op, const std::vector<Tensor>& inputs) {
  Tape tape(false, true);
  std::vector<TensorHandle> in(inputs.begin(), inputs.end());
  for (const TensorHandle& h : in) tape.watch(h);
  tape.start();
  TensorHandle y = apply_op(OpType(op.name), in, {})[0];
  std::vector<int32_t> axes;
  for (int i = 0; i < y.value().rank(); ++i) axes.push_back(i);
  TensorHandle total = apply_op1(op::Sum, std::vector<TensorHandle>{y, TensorHandle(int32s(axes))},
                                 Attrs{{"keep_dims", false}, {"Tidx", DType::Int32}});
  tape.stop();
  std::vector<GradientSource> sources;
  for (const TensorHandle& h : in) sources.push_back({key_of(h), {h.dtype(), h.shape()}});
  TensorHandle targets[] = {total};
  std::optional<TensorHandle> seeds[] = {std::nullopt};
  std::vector<Tensor> out;
  for (auto& g : compute_gradient(tape.entries(), targets, seeds, sources)) {
    REQUIRE(g.has_value());
    out.push_back(g->value());
  }
  return out;
}

}  // namespace

// GRADIENTS.md section 6's float32 pass: each elementwise gradient computed
// in float32 agrees with the float64 one (itself checked against central
// differences above) within 2e-3, relative to the gradient's size.
TEST_CASE("every differentiable elementwise op's float32 gradient agrees with its float64 one") {
  int swept = 0;
  for (const auto& op : OpRegistry::global().ops()) {
    if (!swept_elementwise(*op)) continue;
    INFO("op ", op->name);
    std::vector<Tensor> f64{uniform({2, 3}, 0.2, 0.9)};
    if (op->min_inputs == 2) f64.push_back(uniform({3}, 1.1, 1.9));
    std::vector<Tensor> f32;
    for (const Tensor& t : f64) f32.push_back(cast_to(t, DType::Float32));
    std::vector<Tensor> want = tape_gradients(*op, f64), got = tape_gradients(*op, f32);
    for (size_t i = 0; i < want.size(); ++i) {
      REQUIRE(got[i].dtype() == DType::Float32);
      for (int64_t k = 0; k < want[i].num_elements(); ++k) {
        double w = want[i].data<double>()[k], g = got[i].data<float>()[k];
        CHECK_MESSAGE(std::abs(g - w) <= 2e-3 * std::max(1.0, std::abs(w)), "input ", i, " element ", k, ": float32 ",
                      g, ", float64 ", w);
      }
    }
    ++swept;
  }
  CHECK(swept >= 30);
}
