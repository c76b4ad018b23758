#include "runtime/autograph/slices.h"

#include "runtime/graph/tracing.h"
#include "runtime/value/convert.h"
#include "runtime/value/tensor_array.h"

namespace ag::autograph {

Value set_item(const Value& target, const Value& i, const Value& x) {
  // A graph TensorArray's write returns a new array (a new flow), which the
  // loop carries; an eager one changes in place and returns itself.
  if (target.is_tensor_array()) return tensor_array::write(target, i, x);
  // A Python list written at a graph index (`l[i] = v` in a staged loop):
  // the list keeps its length, so the loop carries it as it is, and each
  // element becomes `v` where `i` is its index, else itself. (TF cannot
  // index a list by a graph tensor; an index out of range writes nothing.)
  if (target.is_list() && i.is_tensor() && i.as_tensor().symbolic()) {
    const TensorHandle& index = i.as_tensor();
    std::vector<Value>& items = target.items();
    for (size_t k = 0; k < items.size(); ++k) {
      TensorHandle old = to_tensor(items[k]);
      TensorHandle at_k = apply_op1(op::Equal, std::vector<TensorHandle>{index, to_tensor(Value(static_cast<int64_t>(k)), index.dtype())},
                                    {}, "Equal");
      items[k] = Value(apply_op1(op::SelectV2, std::vector<TensorHandle>{at_k, to_tensor(x, old.dtype()), old}, {},
                                 "SelectV2"));
    }
    return target;
  }
  // Lists, dicts and objects with __setitem__ as Python assigns; a tensor
  // raises Python's TypeError, as TensorFlow does when AutoGraph's LISTS
  // feature is off (its own set_item would scatter into the tensor).
  setitem(target, i, x);
  return target;
}

}  // namespace ag::autograph
