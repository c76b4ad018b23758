// Helpers the tf_api_*.cpp files share (not part of the API generated code
// calls): an op applied eagerly or traced, and Python shape/axis arguments as
// tensors. One definition each, so the files also build as one unity TU.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "runtime/graph/tracing.h"
#include "runtime/value/convert.h"
#include "runtime/value/value.h"

namespace ag::tf::common {

/// Op `op` on `in` with node name hint `name`: eager or traced, one output.
inline TensorHandle apply(OpType op, std::vector<TensorHandle> in, std::string_view name, const Attrs& attrs = {}) {
  return apply_op1(op, in, attrs, name);
}

/// An int32 vector constant of `v`'s elements.
inline TensorHandle int32_vector(const std::vector<int64_t>& v) {
  std::vector<int32_t> w(v.begin(), v.end());
  return TensorHandle(Tensor::from_vector<int32_t>({static_cast<int64_t>(w.size())}, w));
}

/// A shape, axis or index argument: a tensor as it is, else ints as an int32 tensor.
inline TensorHandle index_tensor(const Value& v) {
  if (v.is_tensor()) return v.as_tensor();
  return to_tensor(v, DType::Int32);
}

}  // namespace ag::tf::common
