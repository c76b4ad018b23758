// Small ops for the executor tests, in a registry of their own so the tests do
// not wait for the op families: float32 TAdd/TMul (same shapes or a scalar
// operand), TTanh, TSum (to a scalar), TGreater (scalar > scalar → bool),
// TLog (stateful: appends "tag:value" to a log, returns its input) and
// TAllocCount (returns a fresh tensor; counts its allocations).
#pragma once

#include <atomic>
#include <cmath>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/graph/graph.h"
#include "runtime/ops/registry.h"

namespace ag::test {

inline std::mutex& log_mu() {
  static std::mutex mu;
  return mu;
}
inline std::vector<std::string>& op_log() {
  static std::vector<std::string> log;
  return log;
}

inline TensorSpec same_or_scalar(const InferContext& c) {
  const TensorSpec& a = c.inputs[0];
  const TensorSpec& b = c.inputs[1];
  if (a.dtype != DType::Float32 || b.dtype != DType::Float32) throw InvalidArgumentError("float32 only");
  if (a.shape.rank() == 0) return b;
  if (b.shape.rank() == 0 || a.shape == b.shape) return a;
  throw InvalidArgumentError("Incompatible shapes: " + a.shape.debug_string() + " vs. " + b.shape.debug_string());
}

template <class F>
Kernel binary_kernel(F f) {
  return [f](KernelContext& k) {
    const Tensor& a = k.input(0);
    const Tensor& b = k.input(1);
    const Shape& s = a.rank() == 0 ? b.shape() : a.shape();
    Tensor& o = k.allocate_output(0, DType::Float32, s);
    const float* x = a.data<float>();
    const float* y = b.data<float>();
    float* d = o.data<float>();
    const int64_t sx = a.rank() == 0 ? 0 : 1, sy = b.rank() == 0 ? 0 : 1;
    for (int64_t i = 0; i < o.num_elements(); ++i) d[i] = f(x[i * sx], y[i * sy]);
  };
}

/// Output data pointers TTanhRec allocated (slot reuse tests).
inline std::vector<const void*>& recorded_buffers() {
  static std::vector<const void*> v;
  return v;
}

inline const OpRegistry& test_ops() {
  static const OpRegistry* reg = [] {
    auto* r = new OpRegistry();
    r->op("TAdd").inputs(2).infer([](const InferContext& c) { return std::vector<TensorSpec>{same_or_scalar(c)}; })
        .cpu([](const KernelSpec&) { return binary_kernel([](float a, float b) { return a + b; }); });
    r->op("TMul").inputs(2).infer([](const InferContext& c) { return std::vector<TensorSpec>{same_or_scalar(c)}; })
        .cpu([](const KernelSpec&) { return binary_kernel([](float a, float b) { return a * b; }); });
    r->op("TTanh").inputs(1).infer([](const InferContext& c) { return std::vector<TensorSpec>{c.inputs[0]}; })
        .cpu([](const KernelSpec&) {
          return Kernel([](KernelContext& k) {
            const Tensor& a = k.input(0);
            Tensor& o = k.allocate_output(0, DType::Float32, a.shape());
            for (int64_t i = 0; i < a.num_elements(); ++i) o.data<float>()[i] = std::tanh(a.data<float>()[i]);
          });
        });
    r->op("TTanhRec").inputs(1).infer([](const InferContext& c) { return std::vector<TensorSpec>{c.inputs[0]}; })
        .cpu([](const KernelSpec&) {
          return Kernel([](KernelContext& k) {
            const Tensor& a = k.input(0);
            Tensor& o = k.allocate_output(0, DType::Float32, a.shape());
            for (int64_t i = 0; i < a.num_elements(); ++i) o.data<float>()[i] = std::tanh(a.data<float>()[i]);
            std::lock_guard<std::mutex> lock(log_mu());
            recorded_buffers().push_back(o.raw_data());
          });
        });
    r->op("TSum").inputs(1).infer([](const InferContext&) { return std::vector<TensorSpec>{{DType::Float32, Shape{}}}; })
        .cpu([](const KernelSpec&) {
          return Kernel([](KernelContext& k) {
            const Tensor& a = k.input(0);
            float s = 0;
            for (int64_t i = 0; i < a.num_elements(); ++i) s += a.data<float>()[i];
            *k.allocate_output(0, DType::Float32, Shape{}).data<float>() = s;
          });
        });
    r->op("TGreater").inputs(2).infer([](const InferContext&) { return std::vector<TensorSpec>{{DType::Bool, Shape{}}}; })
        .cpu([](const KernelSpec&) {
          return Kernel([](KernelContext& k) {
            *k.allocate_output(0, DType::Bool, Shape{}).data<bool>() =
                k.input(0).scalar_value<float>() > k.input(1).scalar_value<float>();
          });
        });
    r->op("TLog").inputs(1).stateful()
        .infer([](const InferContext& c) { return std::vector<TensorSpec>{c.inputs[0]}; })
        .cpu([](const KernelSpec& s) {
          std::string tag = s.attrs.get_or<std::string>("tag", "");
          return Kernel([tag](KernelContext& k) {
            {
              std::lock_guard<std::mutex> lock(log_mu());
              const Tensor& t = k.input(0);
              std::string v = t.dtype() == DType::Float32 && t.num_elements() > 0 ? std::to_string(t.data<float>()[0]) : "?";
              op_log().push_back(tag + ":" + v.substr(0, v.find('.')));
            }
            k.set_output(0, k.input(0));
          });
        });
    return r;
  }();
  return *reg;
}

/// Adds test op `op` (from test_ops()) to `g`.
inline Output add(Graph& g, std::string_view op, std::vector<Output> in, Attrs attrs = {}, std::string_view name = {}) {
  return g.add_node(test_ops().get(OpType{op}), std::move(in), std::move(attrs), name)->output(0);
}

/// True when every op in `names` is in the global registry (tests of real ops
/// skip until their family has landed).
inline bool have_ops(std::initializer_list<const char*> names) {
  for (const char* n : names) {
    if (OpRegistry::global().find(n) == nullptr) return false;
  }
  return true;
}

inline Tensor vec(std::vector<float> v) { return Tensor::from_vector<float>(Shape{static_cast<int64_t>(v.size())}, v); }

}  // namespace ag::test
