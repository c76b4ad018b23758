#include "runtime/autograph/slices.h"

#include "runtime/value/tensor_array.h"

namespace ag::autograph {

Value set_item(const Value& target, const Value& i, const Value& x) {
  // A graph TensorArray's write returns a new array (a new flow), which the
  // loop carries; an eager one changes in place and returns itself.
  if (target.is_tensor_array()) return tensor_array::write(target, i, x);
  // Lists, dicts and objects with __setitem__ as Python assigns; a tensor
  // raises Python's TypeError, as TensorFlow does when AutoGraph's LISTS
  // feature is off (its own set_item would scatter into the tensor).
  setitem(target, i, x);
  return target;
}

}  // namespace ag::autograph
