// What TensorFlow raises where a conversion breaks one of AutoGraph's rules,
// in its words ("TYPE: message"), for `agc explain` to quote: the texts of
// tensorflow/python/autograph/operators/control_flow.py and variables.py,
// which agc's runtime raises alike (runtime/autograph/control_flow.cpp,
// staging.cpp, for_stmt.cpp, undefined.cpp; runtime/value/tensor_dispatch.cpp
// and value_index.cpp for a Tensor used as a Python bool or iterable).
// tests/e2e/explain_test.sh holds them against what running a program raises.
#pragma once

#include <string>

namespace agc::report {

inline std::string undefined_in_branch(const std::string& name, const std::string& branch) {
  return "ValueError: '" + name + "' must also be initialized in the " + branch + " branch";
}
inline std::string missing_return(const std::string& branch) {
  return "ValueError: the " + branch + " branch must also have a return statement.";
}
inline std::string undefined_before_loop(const std::string& name) {
  return "ValueError: '" + name + "' must be defined before the loop";
}
inline std::string used_before_assignment(const std::string& name) {
  return "UnboundLocalError: '" + name + "' is used before assignment";
}
inline std::string loop_dtype(const std::string& name, const std::string& dtype) {
  return "TypeError: '" + name + "' has dtype " + dtype + " before the loop, but dtype <other> after one iteration";
}
inline constexpr const char* kReturnInTfLoop =
    "NotImplementedError: a return statement cannot be placed inside this TensorFlow loop; this may happen if a "
    "return statement depends on a static Python condition such as a hyperparameter";
inline constexpr const char* kPythonForLoopTensorExit =
    "NotImplementedError: break and return statements which depend on a TF condition are not supported in Python "
    "for loops. Did you intend to make it a TF loop?";
inline constexpr const char* kPythonWhileLoopTensorTest =
    "NotImplementedError: The condition of while loop started as non-Tensor, then changed to Tensor. This may happen "
    "either because variables changed type, or when a break or return statement inside the loop depends on a Tensor "
    "condition. In both cases, changing to a TF loop should remove the error.";
// The first sentence of each (the rest suggests resolutions).
inline constexpr const char* kTensorAsBool =
    "OperatorNotAllowedInGraphError: Using a symbolic `tf.Tensor` as a Python `bool` is not allowed.";
inline constexpr const char* kIterateTensor =
    "OperatorNotAllowedInGraphError: Iterating over a symbolic `tf.Tensor` is not allowed.";

}  // namespace agc::report
