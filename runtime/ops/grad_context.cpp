#include "runtime/ops/grad_context.h"

#include <string>
#include <type_traits>

#include "runtime/core/error.h"

namespace ag {
namespace {

Tensor int32_vector(const std::vector<int64_t>& values) {
  Tensor t(DType::Int32, Shape{static_cast<int64_t>(values.size())});
  for (size_t i = 0; i < values.size(); ++i) t.data<int32_t>()[i] = static_cast<int32_t>(values[i]);
  return t;
}

}  // namespace

GradTensor GradContext::apply1(OpType op, std::initializer_list<GradTensor> inputs, const Attrs& attrs) {
  std::vector<GradTensor> out = apply(op, std::span<const GradTensor>(inputs.begin(), inputs.size()), attrs);
  if (out.size() != 1) throw InternalError(std::string(op.name()) + " has " + std::to_string(out.size()) + " outputs, not 1");
  return out[0];
}

GradTensor GradContext::scalar_like(GradTensor t, double v) {
  return constant(dispatch_dtype(dtype(t), [&]<class T>() -> Tensor {
    if constexpr (std::is_same_v<T, std::string>) {
      throw InternalError("a gradient asked for a numeric scalar of a string tensor");
    } else if constexpr (std::is_same_v<T, bfloat16>) {
      return Tensor::scalar(bfloat16(static_cast<float>(v)));
    } else {
      return Tensor::scalar(static_cast<T>(v));
    }
  }));
}
GradTensor GradContext::ints(const std::vector<int64_t>& values) { return constant(int32_vector(values)); }
GradTensor GradContext::add(GradTensor a, GradTensor b) { return apply1(op::AddV2, {a, b}); }
GradTensor GradContext::sub(GradTensor a, GradTensor b) { return apply1(op::Sub, {a, b}); }
GradTensor GradContext::mul(GradTensor a, GradTensor b) { return apply1(op::Mul, {a, b}); }
GradTensor GradContext::div(GradTensor a, GradTensor b) { return apply1(op::RealDiv, {a, b}); }
GradTensor GradContext::neg(GradTensor a) { return apply1(op::Neg, {a}); }
namespace {

/// zeros_like/ones_like as TF's graph mode builds them: of a static shape, a
/// Fill that does not read `a`, so a gradient built from it does not keep `a`
/// alive (a While's gradient would save it at every iteration).
GradTensor filled_like(GradContext& c, GradTensor a, OpType like, double v) {
  const TensorSpec& s = c.spec(a);
  if (!s.shape.fully_defined() || s.dtype == DType::Variant) return c.apply1(like, {a});
  return c.apply1(op::Fill, {c.shape_of(a), c.scalar_like(a, v)});
}

}  // namespace

GradTensor GradContext::zeros_like(GradTensor a) { return filled_like(*this, a, op::ZerosLike, 0.0); }
GradTensor GradContext::ones_like(GradTensor a) { return filled_like(*this, a, op::OnesLike, 1.0); }
GradTensor GradContext::select(GradTensor c, GradTensor a, GradTensor b) { return apply1(op::SelectV2, {c, a, b}); }
GradTensor GradContext::reshape(GradTensor a, GradTensor shape) { return apply1(op::Reshape, {a, shape}); }

GradTensor GradContext::cast(GradTensor a, DType to) {
  if (dtype(a) == to) return a;
  return apply1(op::Cast, {a}, Attrs{{"SrcT", dtype(a)}, {"DstT", to}, {"Truncate", false}});
}

GradTensor GradContext::shape_of(GradTensor a) {
  const Shape& s = spec(a).shape;
  if (s.fully_defined()) return constant(int32_vector({s.dims().begin(), s.dims().end()}));
  return apply1(op::Shape, {a}, Attrs{{"out_type", DType::Int32}});
}

GradTensor GradContext::sum(GradTensor a, GradTensor axes) {
  return apply1(op::Sum, {a, axes}, Attrs{{"keep_dims", false}, {"Tidx", DType::Int32}});
}

GradTensor GradContext::matmul(GradTensor a, GradTensor b, bool transpose_a, bool transpose_b) {
  return apply1(op::MatMul, {a, b}, Attrs{{"transpose_a", transpose_a}, {"transpose_b", transpose_b}});
}

GradTensor GradContext::unbroadcast(GradTensor g, GradTensor x) {
  const Shape& gs = spec(g).shape;
  const Shape& xs = spec(x).shape;
  if (gs.fully_defined() && xs.fully_defined()) {
    if (gs == xs) return g;
    // Align from the right: g's leading axes x lacks, and the axes where x
    // has 1 and g does not, were broadcast.
    std::vector<int64_t> axes;
    const int lead = gs.rank() - xs.rank();
    for (int i = 0; i < gs.rank(); ++i) {
      if (i < lead || (xs.dim(i - lead) == 1 && gs.dim(i) != 1)) axes.push_back(i);
    }
    GradTensor summed = axes.empty() ? g : sum(g, constant(int32_vector(axes)));
    return reshape(summed, constant(int32_vector({xs.dims().begin(), xs.dims().end()})));
  }
  GradTensor x_shape = shape_of(x);
  std::vector<GradTensor> r = apply(op::BroadcastGradientArgs, std::vector<GradTensor>{x_shape, shape_of(g)},
                                    Attrs{{"T", DType::Int32}});
  return reshape(sum(g, r[0]), x_shape);
}

}  // namespace ag
