// tf.Variable as a Value: creation (with tf.function's rule that variables are
// created only on the first trace), reads, assignments, attributes and repr.
// Eagerly a read or an assignment happens now; while tracing it is a
// ReadVariableOp / Assign*VariableOp node, stateful, so program order holds.
// Operators and tf.* functions read a variable operand first
// (detail::tensor_like, to_tensor), as TF's do.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <memory>
#include <vector>

#include "runtime/core/variable.h"
#include "runtime/value/value.h"

namespace ag::variable_value {

/// TF's texts for variables created where tf.function does not allow them.
inline constexpr const char* kCreatedOnNonFirstTrace =
    "tf.function only supports singleton tf.Variables created on the first call. Make sure the tf.Variable is only "
    "created once or created outside tf.function. See https://www.tensorflow.org/guide/function#creating_tfvariables "
    "for more information.";
inline constexpr const char* kCreatedOnLaterCall =
    "Creating variables on a non-first call to a function decorated with tf.function.";

/// While alive (on this thread), says whether tf.Variable may be created and
/// collects the variables that are. Function opens one around each trace and
/// keeps what it collects alive (TF's function owns the variables it lifted).
class CreationScope {
 public:
  explicit CreationScope(bool allowed);
  ~CreationScope();
  CreationScope(const CreationScope&) = delete;
  CreationScope& operator=(const CreationScope&) = delete;
  std::vector<std::shared_ptr<Variable>>& created() { return created_; }

 private:
  friend Value create(const Value&, std::optional<DType>, const Value&, const Value&, bool);
  bool allowed_;
  std::vector<std::shared_ptr<Variable>> created_;
  CreationScope* previous_;
};

/// tf.Variable(initial_value, dtype=None, name=None, shape=None). The initial
/// value must be known when the variable is made (eager, or a constant while
/// tracing): TF lifts a variable's initializer out of the function.
Value create(const Value& initial_value, std::optional<DType> dtype = std::nullopt, const Value& name = Value(),
             const Value& shape = Value(), bool trainable = true);

/// The variable's value: now when eager, a ReadVariableOp while tracing.
TensorHandle read(const Value& var);

enum class AssignOp { Assign, Add, Sub };
/// v.assign(x) / assign_add / assign_sub: the value after the assignment
/// (eagerly the variable itself, as TF returns it for chaining).
Value assign(const Value& var, const Value& x, AssignOp op);

/// assign/assign_add/assign_sub/read_value/value/numpy bound to `var`, and
/// dtype, shape, name, trainable; AttributeError otherwise.
Value getattr(const Value& var, std::string_view name);

/// `<tf.Variable 'Variable:0' shape=() dtype=int32, numpy=1>` (no numpy= while tracing).
std::string repr(const Value& var);

}  // namespace ag::variable_value
