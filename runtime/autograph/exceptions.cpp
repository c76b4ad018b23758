#include "runtime/autograph/exceptions.h"

#include <algorithm>

#include "runtime/core/tensor_format.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/convert.h"
#include "runtime/value/exception_value.h"

namespace ag::autograph {

namespace {

/// control_flow_assert._summarize_eager: a scalar as NumPy's str() of its
/// value (b'...' for a string), else its first three elements, comma-separated.
std::string summarize_eager(const Tensor& t) {
  if (t.rank() == 0) return numpy_str(t);
  std::string out;
  int64_t n = t.num_elements(), shown = std::min<int64_t>(n, 3);
  dispatch_dtype(t.dtype(), [&]<class T>() {
    for (int64_t i = 0; i < shown; ++i) out += (i ? ", " : "") + numpy_str(Tensor::scalar<T>(t.data<T>()[i]));
  });
  return shown < n ? out + ", ..." : out;
}

}  // namespace

Value assert_stmt(const Value& expression1, const std::function<Value()>& expression2) {
  if (!expression1.is_tensor()) {
    if (!truthy(expression1)) raise_value(make_exception("AssertionError", {expression2()}));
    return Value();
  }
  TensorHandle condition = expression1.as_tensor();
  TensorHandle data = to_tensor(expression2());
  if (!condition.symbolic()) {
    if (condition.value().dtype() == DType::Bool && condition.value().scalar_value<bool>()) return Value();
    throw InvalidArgumentError("Expected '" + str(expression1) + "' to be true. Summarized data: " +
                               summarize_eager(data.value()));
  }
  TensorHandle inputs[] = {condition, data};
  apply_op(op::Assert, inputs, Attrs{{"summarize", int64_t{3}}}, "Assert");
  return Value();
}

}  // namespace ag::autograph
