// The ops post-training quantization puts in a model (see families.h):
// XlaDotV2, the int8 × int8 → int32 product of TF's XLA op set, and
// CustomAggregator, the identity TF's calibration threads an activation
// through to see its values. CustomAggregator hands what it sees to a
// process-wide observer (the converter's calibration, tpu/quantization);
// without one it only forwards its input.
#pragma once

#include <functional>
#include <string>

#include "runtime/core/tensor.h"

namespace ag {

/// Called with a CustomAggregator's id attr and the float32 tensor it passed.
using CalibrationObserver = std::function<void(const std::string& id, const Tensor& values)>;

/// Installs `observer` (or none, when empty) and returns the previous one.
CalibrationObserver set_calibration_observer(CalibrationObserver observer);

}  // namespace ag
