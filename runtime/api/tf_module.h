// tf.Module (ag::tf::api::Module() is the class value) and the helpers the
// Keras layers share with it.
#pragma once

#include <string>

#include "runtime/value/value.h"

namespace ag {

/// TF's module-name rule: "Count" -> "count", "MyDense" -> "my_dense", "HTTPServer" -> "http_server".
std::string camel_to_snake(const std::string& name);
/// isinstance(v, tf.Module).
bool is_module(const Value& v);
/// Which of a module's variables: all, or by their `trainable` flag.
enum class VariableKind { All, Trainable, NonTrainable };
/// module.variables / .trainable_variables / .non_trainable_variables: a
/// tuple, each variable once.
Value module_variables(const Value& module, VariableKind kind);

}  // namespace ag
