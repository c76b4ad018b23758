// A tf.Variable's state: a named, mutable tensor shared by reference. Graphs
// refer to a variable by id (an attribute of ReadVariableOp/AssignVariableOp,
// as TF refers to a resource handle), and their kernels hold it alive. Reads
// and assignments are atomic, so one plan may run on many threads.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "runtime/core/tensor.h"

namespace ag {

class Variable {
 public:
  /// A variable holding `initial`; its dtype and shape are fixed from then on
  /// (`shape` may relax the shape: unknown dims accept any size on assign).
  static std::shared_ptr<Variable> create(const Tensor& initial, std::string name = "Variable");
  static std::shared_ptr<Variable> create(const Tensor& initial, std::string name, const Shape& shape);
  /// A TF1 graph's variable: no value until its initializer runs (reads
  /// fail with TF's FailedPreconditionError until then).
  static std::shared_ptr<Variable> create_uninitialized(DType dtype, const Shape& shape, std::string name);
  /// The live variable with `id`; NotFoundError once it is gone.
  static std::shared_ptr<Variable> lookup(int64_t id);

  ~Variable();
  Variable(const Variable&) = delete;
  Variable& operator=(const Variable&) = delete;

  int64_t id() const { return id_; }
  const std::string& name() const { return name_; }
  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  /// tf.Variable(trainable=...): whether a tape watches it when read.
  bool trainable() const { return trainable_; }
  void set_trainable(bool t) { trainable_ = t; }

  /// Whether it holds a value (only a TF1 graph's variable may not).
  bool initialized() const;
  /// Made by create_uninitialized: a TF1 graph's variable, read by running
  /// the graph (it prints no value, has no numpy()).
  bool in_graph() const { return in_graph_; }
  /// The current value (shares storage; later assignments do not change it).
  /// FailedPreconditionError when uninitialized.
  Tensor read() const;
  /// Replaces the value; InvalidArgumentError (TF's words) on a dtype or shape mismatch.
  void assign(const Tensor& value);
  /// Runs `f` on the value under the variable's lock, so that an update
  /// (assign_add, assign_sub) may overwrite the storage in place when nothing
  /// else holds it: an optimizer step then neither allocates nor copies. `f`
  /// must leave a value of the variable's dtype and shape, and must not write
  /// before it can no longer fail.
  void update(const std::function<void(Tensor& value)>& f);

 private:
  Variable() = default;

  int64_t id_ = 0;
  std::string name_;
  DType dtype_ = DType::Float32;
  Shape shape_;
  bool trainable_ = true;
  bool in_graph_ = false;
  mutable std::mutex mu_;
  Tensor value_;
};

}  // namespace ag
