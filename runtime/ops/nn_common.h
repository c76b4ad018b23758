// What the nn ops share (nn_ops.cpp, nn_activation_ops.cpp, nn_grad_ops.cpp,
// nn_loss_ops.cpp): TF's attribute checks for windows (Conv2D, the pools and
// their gradients), the type lists and the compute type of bfloat16.
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/core/tensor.h"
#include "runtime/ops/attrs.h"
#include "runtime/ops/kernels/conv.h"

namespace ag {

class OpRegistry;

// The nn family is split by concept; register_nn_ops() calls these.
void register_nn_activation_ops(OpRegistry& reg);  // nn_activation_ops.cpp: Relu, Elu, Selu, LeakyRelu, ... and their gradient ops
void register_nn_grad_ops(OpRegistry& reg);  // nn_grad_ops.cpp: Conv2DBackpropInput/Filter, MaxPoolGrad(Grad), AvgPoolGrad
void register_nn_loss_ops(OpRegistry& reg);  // nn_loss_ops.cpp: (Sparse)SoftmaxCrossEntropyWithLogits, FusedBatchNormV3

namespace nn {

inline constexpr const char* kRealList = "float, double, int32, uint8, int8, int64, bfloat16";
inline constexpr const char* kFloatList = "bfloat16, float, double";

inline bool float_type(DType t) { return is_floating(t); }
inline bool real_type(DType t) { return is_numeric(t); }

inline void check_attr_type(DType t, bool ok, const char* allowed) {
  if (!ok) {
    throw InvalidArgumentError(std::string("Value for attr 'T' of ") + dtype_tf_string(t) +
                               " is not in the list of allowed values: " + allowed);
  }
}

/// The type math runs in: float for bfloat16, else the element type.
template <class T>
using Compute = std::conditional_t<std::is_same_v<T, bfloat16>, float, T>;

/// Runs `f(a, b, out)` on the buffers of the two tensors `in` and of `out`
/// in the compute type: bfloat16 widened to float and the result rounded
/// once (the convolutions and their gradients).
template <class T, class F>
inline void in_compute_type(std::initializer_list<const Tensor*> in, Tensor& out, F&& f) {
  if constexpr (std::is_same_v<T, bfloat16>) {
    std::vector<std::vector<float>> wide;
    for (const Tensor* t : in) {
      wide.emplace_back(static_cast<size_t>(t->num_elements()));
      for (int64_t i = 0; i < t->num_elements(); ++i) wide.back()[static_cast<size_t>(i)] = static_cast<float>(t->data<T>()[i]);
    }
    std::vector<float> o(static_cast<size_t>(out.num_elements()));
    f(wide[0].data(), wide[1].data(), o.data());
    for (size_t i = 0; i < o.size(); ++i) out.data<T>()[i] = bfloat16(o[i]);
  } else {
    auto it = in.begin();
    const T* a = (*it++)->template data<T>();
    const T* b = (*it)->template data<T>();
    f(a, b, out.data<T>());
  }
}

template <class T>
Compute<T> widen(T v) {
  if constexpr (std::is_same_v<T, bfloat16>) return static_cast<float>(v);
  else return v;
}

// ---- Windows: attributes shared by Conv2D and the pools.

inline kernels::Padding padding_attr(const Attrs& a, bool allow_explicit) {
  const std::string& p = a.get<std::string>("padding");
  if (p == "VALID") return kernels::Padding::Valid;
  if (p == "SAME") return kernels::Padding::Same;
  if (p == "EXPLICIT" && allow_explicit) return kernels::Padding::Explicit;
  throw InvalidArgumentError("Value for attr 'padding' of \"" + p + "\" is not in the list of allowed values: " +
                             (allow_explicit ? "\"SAME\", \"VALID\", \"EXPLICIT\"" : "\"SAME\", \"VALID\""));
}

inline std::vector<int64_t> four(const Attrs& a, const char* name, const char* field, std::vector<int64_t> fallback) {
  std::vector<int64_t> v = a.has(name) ? a.get<std::vector<int64_t>>(name) : std::move(fallback);
  if (v.size() != 4) {
    throw InvalidArgumentError(std::string("Sliding window ") + field + " field must specify 4 dimensions");
  }
  return v;
}

// ---- Conv2D: input: T, filter: T -> T; attrs strides, padding, dilations,
// data_format ("NHWC" only on CPU, as TF), explicit_paddings.

struct ConvAttrs {
  std::vector<int64_t> strides, dilations, explicit_pads;
  kernels::Padding padding;
};

inline ConvAttrs conv_attrs(const Attrs& a) {
  ConvAttrs c;
  c.strides = four(a, "strides", "strides", {});
  c.dilations = four(a, "dilations", "dilations", {1, 1, 1, 1});
  c.padding = padding_attr(a, true);
  const std::string& fmt = a.get_or<std::string>("data_format", "NHWC");
  if (fmt == "NCHW") {
    throw UnimplementedError(
        "The Conv2D op currently only supports the NHWC tensor format on the CPU. The op was given the format: NCHW");
  }
  if (fmt != "NHWC") throw InvalidArgumentError("Invalid data format");
  if (c.strides[0] != 1 || c.strides[3] != 1) {
    throw UnimplementedError("Current implementation does not yet support strides in the batch and depth dimensions.");
  }
  if (c.strides[1] <= 0 || c.strides[2] <= 0) {
    throw InvalidArgumentError("Row and column strides should be larger than 0.");
  }
  if (c.dilations[0] != 1 || c.dilations[3] != 1) {
    throw UnimplementedError(
        "Current implementation does not yet support dilations in the batch and depth dimensions.");
  }
  if (c.dilations[1] <= 0 || c.dilations[2] <= 0) throw InvalidArgumentError("Dilated rates should be larger than 0.");
  if (c.padding == kernels::Padding::Explicit) {
    c.explicit_pads = a.get_or<std::vector<int64_t>>("explicit_paddings", {});
    if (c.explicit_pads.size() != 8) {
      throw InvalidArgumentError("explicit_paddings attribute must contain 8 values, but got: " +
                                 std::to_string(c.explicit_pads.size()));
    }
    for (int64_t p : c.explicit_pads) {
      if (p < 0) throw InvalidArgumentError("All elements of explicit_paddings must be nonnegative");
    }
  }
  return c;
}

inline kernels::WindowDim conv_window(const ConvAttrs& a, int dim, int64_t in, int64_t k) {
  size_t d = static_cast<size_t>(dim);
  int64_t before = a.explicit_pads.empty() ? 0 : a.explicit_pads[2 * d];
  int64_t after = a.explicit_pads.empty() ? 0 : a.explicit_pads[2 * d + 1];
  return kernels::window_dim(in, k, a.strides[d], a.dilations[d], a.padding, before, after);
}

// ---- MaxPool, AvgPool: input: T -> T; attrs ksize, strides, padding, data_format.

struct PoolAttrs {
  std::vector<int64_t> ksize, strides;
  kernels::Padding padding;
};

inline PoolAttrs pool_attrs(const Attrs& a, bool is_max) {
  PoolAttrs p;
  p.ksize = four(a, "ksize", "ksize", {});
  p.strides = four(a, "strides", "stride", {});
  p.padding = padding_attr(a, false);
  if (a.get_or<std::string>("data_format", "NHWC") != "NHWC") {
    throw InvalidArgumentError(std::string("Default ") + (is_max ? "MaxPoolingOp" : "AvgPoolingOp") +
                               " only supports NHWC on device type CPU");
  }
  for (size_t i = 0; i < 4; ++i) {
    if (p.ksize[i] <= 0) {
      throw InvalidArgumentError("Sliding window ksize for dimension " + std::to_string(i) + " was zero.");
    }
    if (p.strides[i] <= 0) throw InvalidArgumentError("Stride must be > 0, but got " + std::to_string(p.strides[i]));
  }
  if (p.ksize[0] != 1 || p.strides[0] != 1) {
    throw UnimplementedError("Pooling is not yet supported on the batch dimension.");
  }
  if (p.ksize[3] != 1 || p.strides[3] != 1) {
    throw UnimplementedError("Pooling is not yet supported on the depth dimension.");
  }
  return p;
}


}  // namespace nn
}  // namespace ag
