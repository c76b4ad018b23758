// Fake quantization (TF's fake_quant_ops): quantization-aware training's
// forward rounding of float32 values onto the grid of `num_bits` integers
// over [min, max], nudged so that real 0 is a grid point, and its
// straight-through gradients. FakeQuantWithMinMaxArgs takes the range as
// attrs; FakeQuantWithMinMaxVars as scalar inputs, trainable, with gradients
// for them too. The converter reads a trained model's ranges from these
// (QuantRole::FakeQuant).
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "runtime/ops/families.h"
#include "runtime/ops/grad_context.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

struct FakeQuantBits {
  int quant_min = 0, quant_max = 255;
};

/// num_bits and narrow_range as TF's kernels check them.
FakeQuantBits fake_quant_bits(const Attrs& a) {
  const int64_t bits = a.get_or<int64_t>("num_bits", 8);
  if (bits < 2 || bits > 16) throw InvalidArgumentError("num_bits must be between 2 and 16, inclusive");
  return {a.get_or<bool>("narrow_range", false) ? 1 : 0, static_cast<int>((int64_t{1} << bits) - 1)};
}

/// TF's Nudge: the scale, and the range moved so that 0 is on the grid.
struct Nudged {
  float min, max, scale;
};

Nudged nudge(float min, float max, FakeQuantBits b) {
  const float qmin = static_cast<float>(b.quant_min), qmax = static_cast<float>(b.quant_max);
  const float scale = (max - min) / (qmax - qmin);
  const float zero_point_from_min = qmin - min / scale;
  const float zero_point = zero_point_from_min < qmin   ? qmin
                           : zero_point_from_min > qmax ? qmax
                                                        : std::round(zero_point_from_min);
  return {(qmin - zero_point) * scale, (qmax - zero_point) * scale, scale};
}

void check_float(const InferContext& c, size_t i, const char* what) {
  if (c.inputs[i].dtype != DType::Float32) {
    throw InvalidArgumentError(std::string("Expected float for ") + what + ", got " + dtype_name(c.inputs[i].dtype));
  }
}

void check_scalar(const InferContext& c, size_t i) {
  const Shape& s = c.inputs[i].shape;
  if (s.rank_known() && s.rank() != 0) {
    throw InvalidArgumentError("Shape must be rank 0 but is rank " + std::to_string(s.rank()));
  }
}

/// A float as TF's error messages stream it ("0.5", "-6").
std::string format_float(float v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

/// The Args form's range, checked as its kernel's constructor does.
Nudged args_range(const Attrs& a) {
  const float min = static_cast<float>(a.get_or<double>("min", -6.0));
  const float max = static_cast<float>(a.get_or<double>("max", 6.0));
  const FakeQuantBits bits = fake_quant_bits(a);
  if (!(min < max)) {
    throw InvalidArgumentError("min has to be smaller than max, was: " + format_float(min) + " >= " + format_float(max));
  }
  return nudge(min, max, bits);
}

/// Each x on the nudged grid. `by_inverse`: the Args kernel multiplies by
/// 1/scale where the Vars one divides by scale; the rounding differs.
void fake_quantize(const Tensor& x, Nudged n, bool by_inverse, Tensor& out) {
  const float inv = 1.0f / n.scale;
  const float* in = x.data<float>();
  float* o = out.data<float>();
  for (int64_t i = 0; i < x.num_elements(); ++i) {
    const float shifted = std::max(std::min(in[i], n.max), n.min) - n.min;
    o[i] = std::floor((by_inverse ? shifted * inv : shifted / n.scale) + 0.5f) * n.scale + n.min;
  }
}

float scalar(const Tensor& t, const char* what) {
  if (t.rank() != 0) throw InvalidArgumentError(std::string("`") + what + "` must be rank 0 but is rank " + std::to_string(t.rank()));
  return t.data<float>()[0];
}

std::vector<GradTensor> args_grad(GradContext& c) {
  return {c.apply1(op::FakeQuantWithMinMaxArgsGradient, {c.grad(0), c.input(0)}, c.attrs())};
}

std::vector<GradTensor> vars_grad(GradContext& c) {
  return c.apply(op::FakeQuantWithMinMaxVarsGradient,
                 std::vector<GradTensor>{c.grad(0), c.input(0), c.input(1), c.input(2)}, c.attrs());
}

}  // namespace

void register_fake_quant_ops(OpRegistry& reg) {
  // FakeQuantWithMinMaxArgs(inputs: float) -> outputs: float; attrs min (-6),
  // max (6), num_bits (8), narrow_range (false).
  reg.op("FakeQuantWithMinMaxArgs")
      .tf_signature("inputs: float -> outputs: float")
      .inputs(1)
      .infer([](const InferContext& c) {
        check_float(c, 0, "inputs");
        (void)args_range(c.attrs);
        return std::vector<TensorSpec>{c.inputs[0]};
      })
      .cpu([](const KernelSpec& s) {
        const Nudged n = args_range(s.attrs);
        return Kernel([n](KernelContext& k) {
          Tensor& out = k.allocate_output(0, DType::Float32, k.input(0).shape());
          fake_quantize(k.input(0), n, true, out);
        });
      })
      .cost(CostKind::Elementwise)
      .tpu()
      .quantization(QuantRole::FakeQuant)
      .grad(args_grad);
  // FakeQuantWithMinMaxArgsGradient(gradients, inputs) -> backprops: the
  // gradient where the input is inside the nudged range, else 0.
  reg.op("FakeQuantWithMinMaxArgsGradient")
      .tf_signature("gradients: float, inputs: float -> backprops: float")
      .inputs(2)
      .infer([](const InferContext& c) {
        check_float(c, 0, "gradients");
        check_float(c, 1, "inputs");
        (void)args_range(c.attrs);
        return std::vector<TensorSpec>{c.inputs[1]};
      })
      .cpu([](const KernelSpec& s) {
        const Nudged n = args_range(s.attrs);
        return Kernel([n](KernelContext& k) {
          const Tensor& g = k.input(0);
          const Tensor& x = k.input(1);
          if (g.shape() != x.shape()) throw InvalidArgumentError("gradients and inputs must be the same size");
          Tensor& out = k.allocate_output(0, DType::Float32, x.shape());
          for (int64_t i = 0; i < x.num_elements(); ++i) {
            const float v = x.data<float>()[i];
            out.data<float>()[i] = v >= n.min && v <= n.max ? g.data<float>()[i] : 0.0f;
          }
        });
      })
      .cost(CostKind::Elementwise)
      .tpu()
      .not_differentiable();
  // FakeQuantWithMinMaxVars(inputs, min, max: float scalars) -> outputs; attrs
  // num_bits, narrow_range. min == max == 0 gives zeros, as TF's kernel.
  reg.op("FakeQuantWithMinMaxVars")
      .tf_signature("inputs: float, min: float, max: float -> outputs: float")
      .inputs(3)
      .infer([](const InferContext& c) {
        check_float(c, 0, "inputs");
        check_float(c, 1, "min");
        check_float(c, 2, "max");
        check_scalar(c, 1);
        check_scalar(c, 2);
        (void)fake_quant_bits(c.attrs);
        return std::vector<TensorSpec>{c.inputs[0]};
      })
      .cpu([](const KernelSpec& s) {
        const FakeQuantBits bits = fake_quant_bits(s.attrs);
        return Kernel([bits](KernelContext& k) {
          const float min = scalar(k.input(1), "min"), max = scalar(k.input(2), "max");
          Tensor& out = k.allocate_output(0, DType::Float32, k.input(0).shape());
          if (min == 0.0f && max == 0.0f) {
            std::fill(out.data<float>(), out.data<float>() + out.num_elements(), 0.0f);
            return;
          }
          fake_quantize(k.input(0), nudge(min, max, bits), false, out);
        });
      })
      .cost(CostKind::Elementwise)
      .tpu()
      .quantization(QuantRole::FakeQuant)
      .grad(vars_grad);
  // FakeQuantWithMinMaxVarsGradient(gradients, inputs, min, max) ->
  // (backprops_wrt_input, backprop_wrt_min, backprop_wrt_max): the gradient
  // inside the nudged range to the input, the sums below and above it to
  // min and max.
  reg.op("FakeQuantWithMinMaxVarsGradient")
      .tf_signature("gradients: float, inputs: float, min: float, max: float -> backprops_wrt_input: float, "
                    "backprop_wrt_min: float, backprop_wrt_max: float")
      .inputs(4)
      .outputs(3)
      .infer([](const InferContext& c) {
        for (size_t i = 0; i < 4; ++i) check_float(c, i, i == 0 ? "gradients" : i == 1 ? "inputs" : i == 2 ? "min" : "max");
        check_scalar(c, 2);
        check_scalar(c, 3);
        (void)fake_quant_bits(c.attrs);
        return std::vector<TensorSpec>{c.inputs[1], {DType::Float32, Shape{}}, {DType::Float32, Shape{}}};
      })
      .cpu([](const KernelSpec& s) {
        const FakeQuantBits bits = fake_quant_bits(s.attrs);
        return Kernel([bits](KernelContext& k) {
          const Tensor& g = k.input(0);
          const Tensor& x = k.input(1);
          if (g.shape() != x.shape()) throw InvalidArgumentError("gradients and inputs must be the same size");
          const float min = scalar(k.input(2), "min"), max = scalar(k.input(3), "max");
          Tensor& dx = k.allocate_output(0, DType::Float32, x.shape());
          float below = 0, above = 0;
          if (min == 0.0f && max == 0.0f) {
            std::copy_n(g.data<float>(), g.num_elements(), dx.data<float>());
          } else {
            const Nudged n = nudge(min, max, bits);
            for (int64_t i = 0; i < x.num_elements(); ++i) {
              const float v = x.data<float>()[i], gi = g.data<float>()[i];
              dx.data<float>()[i] = v >= n.min && v <= n.max ? gi : 0.0f;
              if (v < n.min) below += gi;
              if (v > n.max) above += gi;
            }
          }
          k.set_output(1, Tensor::scalar<float>(below));
          k.set_output(2, Tensor::scalar<float>(above));
        });
      })
      .cost(CostKind::Elementwise)
      .tpu()
      .not_differentiable();
}

}  // namespace ag
