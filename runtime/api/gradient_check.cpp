// tf.test.compute_gradient (TF's gradient_checker_v2, GRADIENTS.md section
// 6): for each argument of f, the theoretical Jacobian (one vector-Jacobian
// product per element of y, through the gradient tape) and the numeric one
// (central differences, each argument element moved by delta as NumPy moves
// it), as 2-D NumPy arrays of y.size rows and x.size columns. Returns
// ((theoretical per argument), (numeric per argument)).
#include <cstring>

#include "runtime/api/tf_call.h"
#include "runtime/graph/gradients.h"
#include "runtime/graph/tape.h"
#include "runtime/value/convert.h"
#include "runtime/value/ndarray.h"

namespace ag::tf::impl {
namespace {

// The dtypes TF checks gradients of (float16 and the complex types are not agc's).
bool checkable(DType t) { return t == DType::Float32 || t == DType::Float64 || t == DType::BFloat16; }

/// An element as a double, and a double stored as T (bfloat16 through float).
template <class T>
double to_double(T v) {
  if constexpr (std::is_same_v<T, bfloat16>) return static_cast<float>(v);
  else return static_cast<double>(v);
}
template <class T>
T from_double(double d) {
  if constexpr (std::is_same_v<T, bfloat16>) return bfloat16(static_cast<float>(d));
  else return static_cast<T>(d);
}

/// f called as gradient_checker_v2's _prepare calls it: each argument a tensor.
Value call(const Value& f, const std::vector<TensorHandle>& xs) {
  std::vector<Value> args;
  for (const TensorHandle& x : xs) args.emplace_back(x);
  return f(std::move(args), {});
}

Tensor eager_value(const Value& y) {
  TensorHandle h = to_tensor(y);
  if (h.symbolic()) throw InternalError("compute_gradient: f returned a graph tensor eagerly");
  return h.value();
}

/// The gradient of sum(f(xs) * dy) with respect to xs[param] (None: unconnected).
std::optional<TensorHandle> vjp(const Value& f, const std::vector<Tensor>& xs, size_t param, const Tensor& dy) {
  Tape tape(false, true);
  std::vector<TensorHandle> handles(xs.begin(), xs.end());
  tape.start();
  Value y;
  try {
    tape.watch(handles[param]);
    y = call(f, handles);
  } catch (...) {
    tape.stop();
    throw;
  }
  tape.stop();
  TensorHandle target = to_tensor(y);
  std::optional<TensorHandle> seed = TensorHandle(dy);
  const Tensor& x = xs[param];
  GradientSource source{key_of(handles[param]), {x.dtype(), x.shape()}};
  return compute_gradient(tape.entries(), std::span<const TensorHandle>(&target, 1),
                          std::span<const std::optional<TensorHandle>>(&seed, 1),
                          std::span<const GradientSource>(&source, 1))[0];
}

/// _compute_theoretical_jacobian: row r is the gradient for a one-hot dy at r.
Tensor theoretical(const Value& f, const std::vector<Tensor>& xs, size_t param, const Tensor& y) {
  const Tensor& x = xs[param];
  int64_t y_size = y.num_elements(), x_size = x.num_elements();
  Tensor jacobian = Tensor::zeros(x.dtype(), Shape{y_size, x_size});
  size_t row_bytes = static_cast<size_t>(x_size) * dtype_size(x.dtype());
  for (int64_t row = 0; row < y_size; ++row) {
    Tensor dy = Tensor::zeros(y.dtype(), y.shape());
    dispatch_dtype(y.dtype(), [&]<class T>() {
      if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, bfloat16>) dy.data<T>()[row] = T(1);
    });
    std::optional<TensorHandle> grad = vjp(f, xs, param, dy);
    if (!grad) continue;
    Tensor g = ndarray::cast(grad->value(), x.dtype());
    std::memcpy(static_cast<char*>(jacobian.raw_data()) + static_cast<size_t>(row) * row_bytes, g.raw_data(), row_bytes);
  }
  if (y_size == 0) {
    // An empty output: its gradient must still have x's shape and be zero.
    std::optional<TensorHandle> grad = vjp(f, xs, param, Tensor::zeros(y.dtype(), y.shape()));
    if (grad) {
      const Tensor& g = grad->value();
      if (g.shape() != x.shape()) {
        throw ValueError("Empty gradient has wrong shape: expected " + x.shape().str() + ", got " + g.shape().str());
      }
      Tensor nz = ndarray::cast(g, DType::Bool);
      for (int64_t i = 0; i < nz.num_elements(); ++i) {
        if (nz.data<bool>()[i]) throw ValueError("Empty tensor with nonzero gradients");
      }
    }
  }
  return jacobian;
}

/// _compute_numeric_jacobian: column c is (f(x + delta e_c) - f(x - delta e_c)) / (2 delta),
/// each x element moved as NumPy's `x[c] += delta` does (in float64, stored
/// back in x's dtype) and the difference divided in y's dtype.
Tensor numeric(const Value& f, const std::vector<Tensor>& xs_in, size_t param, const Tensor& y, double delta) {
  std::vector<Tensor> xs;
  for (const Tensor& x : xs_in) xs.push_back(x.clone());
  Tensor& x = xs[param];
  int64_t y_size = y.num_elements(), x_size = x.num_elements();
  Tensor jacobian = Tensor::zeros(x.dtype(), Shape{y_size, x_size});
  auto eval = [&]() {
    std::vector<TensorHandle> handles(xs.begin(), xs.end());
    return ndarray::cast(eager_value(call(f, handles)), y.dtype());
  };
  for (int64_t col = 0; col < x_size; ++col) {
    Tensor y_pos, y_neg;
    dispatch_dtype(x.dtype(), [&]<class T>() {
      if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, bfloat16>) {
        T original = x.data<T>()[col];
        x.data<T>()[col] = from_double<T>(to_double(original) + delta);
        y_pos = eval();
        x.data<T>()[col] = from_double<T>(to_double(original) - delta);
        y_neg = eval();
        x.data<T>()[col] = original;
      }
    });
    Tensor diff = dispatch_dtype(y.dtype(), [&]<class T>() -> Tensor {
      Tensor d(y.dtype(), y.shape());
      if constexpr (std::is_floating_point_v<T>) {
        T scale = static_cast<T>(2 * delta);
        for (int64_t i = 0; i < y_size; ++i) d.data<T>()[i] = (y_pos.data<T>()[i] - y_neg.data<T>()[i]) / scale;
      } else if constexpr (std::is_same_v<T, bfloat16>) {
        float scale = static_cast<float>(bfloat16(static_cast<float>(2 * delta)));
        for (int64_t i = 0; i < y_size; ++i) {
          d.data<T>()[i] = bfloat16((static_cast<float>(y_pos.data<T>()[i]) - static_cast<float>(y_neg.data<T>()[i])) / scale);
        }
      }
      return d;
    });
    Tensor column = ndarray::cast(diff, x.dtype());
    dispatch_dtype(x.dtype(), [&]<class T>() {
      for (int64_t r = 0; r < y_size; ++r) jacobian.data<T>()[r * x_size + col] = column.data<T>()[r];
    });
  }
  return jacobian;
}

}  // namespace

Value compute_gradient(const TfCall& c) {
  const Value& f = c["f"];
  const Value& x = c["x"];
  if (!x.is_list() && !x.is_tuple()) {
    throw ValueError("`x` must be a list or tuple of values convertible to a Tensor (arguments to `f`), not a "
                     "<class '" + x.type_name() + "'>");
  }
  if (current_graph() != nullptr) {
    throw NotImplementedError("tf.test.compute_gradient runs eagerly; it cannot be called while tracing a tf.function");
  }
  // TF's default: a step exactly representable in binary floating point.
  double delta = c["delta"].is_none() ? 1.0 / 1024 : c["delta"].as_float();
  std::vector<Tensor> xs;
  for (const Value& v : x.items()) xs.push_back(eager_value(Value(to_tensor(v))));
  std::vector<TensorHandle> handles(xs.begin(), xs.end());
  Tensor y = eager_value(call(f, handles));
  std::vector<Value> theoretical_j, numeric_j;
  for (size_t param = 0; param < xs.size(); ++param) {
    if (!checkable(xs[param].dtype())) {
      throw AssertionError(std::string("Cannot compute gradient for unsupported type ") + dtype_name(xs[param].dtype()) +
                           " of argument " + std::to_string(param));
    }
    if (!checkable(y.dtype())) {
      throw AssertionError(std::string("Cannot compute gradient for unsupported type ") + dtype_name(y.dtype()) + " of y");
    }
    theoretical_j.push_back(ndarray::array(theoretical(f, xs, param, y)));
    numeric_j.push_back(ndarray::array(numeric(f, xs, param, y, delta)));
  }
  return Value::tuple({Value::tuple(std::move(theoretical_j)), Value::tuple(std::move(numeric_j))});
}

}  // namespace ag::tf::impl
