// What a C++ app uses around the header `agc emit-cpp --lib` (or `agc build
// --lib`) writes for a model: its typed entry points take TensorViews of the
// app's own buffers, results are read through spans, and every failure is an
// ag::Error.
//
//   float pixels[2 * 784] = {...};
//   ag::Value probs = mnist::model_serve(ag::TensorView<float>(pixels, {2, 784}));
//   std::span<const float> p = ag::elements<float>(probs);   // float32, checked
//
// A TensorView is borrowed for the length of the call, not copied: the
// elements must stay valid and unchanged until the call returns, and nothing
// is kept pointing into them afterwards (runtime/core/borrowed_tensor.h).
#pragma once

#include <cstdint>
#include <new>
#include <span>
#include <string>
#include <utility>

#include "runtime/core/borrowed_tensor.h"
#include "runtime/core/dtype.h"
#include "runtime/core/error.h"
#include "runtime/core/shape.h"
#include "runtime/core/tensor.h"
#include "runtime/value/value.h"

namespace ag {

/// Elements of type T (float for float32, int32_t for int32, ... as
/// dtype_of<T>), row-major, that the app owns, and their shape.
template <class T>
class TensorView {
 public:
  /// shape.num_elements() elements at `data` (not checked: the pointer is
  /// trusted, as memcpy trusts it).
  TensorView(const T* data, Shape shape) : data_(data), shape_(std::move(shape)) {}
  /// All of `elements`, which must be as many as the shape holds
  /// (InvalidArgumentError otherwise, or when a dimension is unknown).
  TensorView(std::span<const T> elements, Shape shape) : data_(elements.data()), shape_(std::move(shape)) {
    if (!shape_.fully_defined() || shape_.num_elements() != static_cast<int64_t>(elements.size())) {
      throw InvalidArgumentError("Expected " +
                                 (shape_.fully_defined() ? std::to_string(shape_.num_elements()) : std::string("?")) +
                                 " values for shape " + shape_.debug_string() + ", got " +
                                 std::to_string(elements.size()));
    }
  }
  const T* data() const { return data_; }
  const Shape& shape() const { return shape_; }

 private:
  const T* data_;
  Shape shape_;
};

/// The tensor a typed entry point passes on for `view`: its elements,
/// borrowed until the returned object ends. InvalidArgumentError when the
/// shape has an unknown or negative dimension.
template <class T>
BorrowedTensor borrow(const TensorView<T>& view) {
  return BorrowedTensor(dtype_of<T>(), view.shape(), view.data());
}

/// The eager tensor `v` holds (a function's result); TypeError when it holds
/// another kind of value (a tuple, a dict, None: pick the element first).
const Tensor& tensor_of(const Value& v);

/// The elements of the tensor `v` holds as T, read-only, valid while `v`
/// (or a copy of it) lives: InvalidArgumentError when T is not the element
/// type of its dtype ("float32 expected, got int32"), TypeError when `v`
/// holds no tensor.
template <class T>
std::span<const T> elements(const Value& v) {
  return tensor_of(v).span<T>();
}

/// Runs `body`, the body of one of a generated library's entry points, so
/// that everything it throws is an ag::Error: one the runtime raised passes
/// as it is (its type_name() TF's or Python's class name, what() the
/// message); std::bad_alloc becomes MemoryError, and any other std::exception
/// (a bug in the runtime) SystemError saying so.
template <class F>
decltype(auto) library_call(F&& body) {
  try {
    return std::forward<F>(body)();
  } catch (const Error&) {
    throw;
  } catch (const std::bad_alloc&) {
    throw MemoryError("");
  } catch (const std::exception& e) {
    throw SystemError(std::string("internal error in the agc runtime: ") + e.what());
  }
}

}  // namespace ag
