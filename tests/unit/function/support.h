// Helpers shared by the tf.function tests: scalar tensor values.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/core/tensor.h"
#include "runtime/value/value.h"

namespace ag::test {

inline Value t_int(int32_t v) { return Value(Tensor::scalar<int32_t>(v)); }
inline Value t_float(float v) { return Value(Tensor::scalar<float>(v)); }
inline Value t_str(const std::string& v) { return Value(Tensor::scalar<std::string>(v)); }

}  // namespace ag::test
