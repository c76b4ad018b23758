// TF's ragged dispatch for tf.* functions given a RaggedTensor
// (api/ragged_dispatch.cpp). Each returns nullopt when no argument is ragged,
// so the caller goes on with its dense path. Internal to runtime/api.
#pragma once

#include <functional>
#include <optional>
#include <string_view>

#include "runtime/ops/op_type.h"
#include "runtime/value/value.h"

namespace ag {

/// An elementwise unary op: the op over the flat values.
std::optional<Value> ragged_unary(OpType op, const Value& x, std::string_view name);
/// tf.cast: the flat values cast.
std::optional<Value> ragged_cast(const Value& x, DType dtype, std::string_view name);
/// reduce_sum/mean/prod/max/min: over all values (axis=None), each row
/// (axis=1), each column (axis=0) or a uniform inner axis; `dense(v, axis)`
/// is the same reduction of a tensor.
std::optional<Value> ragged_reduce(OpType op, const Value& x, const Value& axis, bool keepdims,
                                   const std::function<Value(const Value&, const Value&)>& dense);
/// tf.concat with a RaggedTensor among `values`: along rows (0) or in each row (1).
std::optional<Value> ragged_concat(const Value& values, const Value& axis, std::string_view name);

}  // namespace ag
