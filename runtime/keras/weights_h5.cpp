// What both HDF5 weight layouts share: a variable's value to store, and the
// assignment of a loaded one with TF's checks; see weights_h5.h.
#include "runtime/keras/weights_h5.h"

#include <span>

#include "runtime/core/error.h"
#include "runtime/core/variable.h"
#include "runtime/keras/layer.h"
#include "runtime/ops/eager.h"

namespace ag::keras {

Tensor weight_value(const Value& var) { return var.as_variable()->read(); }

std::string weight_name(const Value& var) { return var.as_variable()->name() + ":0"; }

void assign_weight(const Value& var, const Tensor& value) {
  Variable& v = *var.as_variable();
  // Keras's batch_set_value: np.asarray(value, dtype=variable's dtype);
  // run now, even inside a trace (loading is eager work).
  Tensor cast = value.dtype() == v.dtype()
                    ? value
                    : run_op1(op::Cast, std::span<const Tensor>(&value, 1), Attrs{{"SrcT", value.dtype()}, {"DstT", v.dtype()}});
  if (!v.shape().is_compatible_with(cast.shape())) {
    throw ValueError("Cannot assign value to variable ' " + weight_name(var) + "': Shape mismatch.The variable shape " +
                     shape_text(v.shape()) + ", and the assigned value shape " + shape_text(cast.shape()) +
                     " are incompatible.");
  }
  v.assign(cast);
}

}  // namespace ag::keras
