#include "runtime/value/composite_tensor.h"

#include "runtime/value/tensor_shape_value.h"

namespace ag {

const TypeSpecState* type_spec_state(const Value& v) { return native_state<TypeSpecState>(v); }

const CompositeState* composite_state(const Value& v) { return native_state<CompositeState>(v); }

std::string type_spec_repr(const TypeSpecState& s) {
  return s.spec_name() + "(" + repr(tensor_shape(s.shape())) + ", " + s.fields_repr() + ")";
}

bool same_spec_kind(const TypeSpecState& a, const TypeSpecState& b) {
  return a.spec_name() == b.spec_name() && a.fields_repr() == b.fields_repr();
}

bool spec_is_subtype_of(const TypeSpecState& sub, const TypeSpecState& super) {
  return same_spec_kind(sub, super) && super.shape().is_supertype_of(sub.shape());
}

}  // namespace ag
