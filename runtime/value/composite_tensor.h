// TF's CompositeTensor and TypeSpec protocols, as native states of the
// object model: a composite (tf.RaggedTensor, tf.SparseTensor) is made of
// component tensors and described by its TypeSpec (tf.RaggedTensorSpec,
// tf.SparseTensorSpec), which lists the components' TensorSpecs and rebuilds
// a composite from component tensors. tf.function keys, feeds and returns
// composites through these two interfaces alone (function/trace_type,
// function/structure.h), so it never names a composite class (those live in
// api/, a later layer).
#pragma once

#include <string>
#include <vector>

#include "runtime/ops/op_def.h"
#include "runtime/value/object_model.h"

namespace ag {

/// A TypeSpec object's state (TF's type_spec.TypeSpec).
struct TypeSpecState : NativeState {
  /// The class name TF prints ("RaggedTensorSpec").
  virtual std::string spec_name() const = 0;
  /// The shape the spec describes (ragged dimensions unknown).
  virtual const Shape& shape() const = 0;
  /// The serialized fields after the shape, as repr prints them ("tf.int32, 1, tf.int64").
  virtual std::string fields_repr() const = 0;
  /// The same spec with another shape (reduce_retracing's relaxation).
  virtual Value with_shape(const Shape& shape) const = 0;
  /// TF's _component_specs: one TensorSpec per component tensor, in order.
  virtual std::vector<TensorSpec> component_specs() const = 0;
  /// TF's _from_components: the value these component tensors make.
  virtual Value from_components(std::vector<TensorHandle> components) const = 0;
};

/// A composite tensor's state (TF's composite_tensor.CompositeTensor).
struct CompositeState : NativeState {
  /// TF's _type_spec._to_components(self): the component tensors, in order
  /// (pointers into this state: callers feed them to a plan without copying).
  virtual std::vector<const TensorHandle*> components() const = 0;
  /// TF's _type_spec (type_spec_from_value): a TypeSpec object.
  virtual Value type_spec() const = 0;
};

/// The TypeSpec state of `v`, or nullptr when v is no TypeSpec.
const TypeSpecState* type_spec_state(const Value& v);
/// The composite state of `v`, or nullptr when v is no composite tensor.
const CompositeState* composite_state(const Value& v);

/// TypeSpec.__repr__: the class name and its serialization,
/// "RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)".
std::string type_spec_repr(const TypeSpecState& s);
/// Same class and same fields besides the shape (TF compares _serialize()).
bool same_spec_kind(const TypeSpecState& a, const TypeSpecState& b);
/// TypeSpec.is_subtype_of: the same kind, and `super`'s shape covers `sub`'s.
bool spec_is_subtype_of(const TypeSpecState& sub, const TypeSpecState& super);

/// `composite` rebuilt from its spec with each component replaced by
/// f(component) (a Value holding a tensor), in component order.
template <class F>
Value map_components(const Value& composite, F&& f) {
  const CompositeState* c = composite_state(composite);
  std::vector<TensorHandle> parts;
  for (const TensorHandle* t : c->components()) parts.push_back(f(Value(*t)).as_tensor());
  return type_spec_state(c->type_spec())->from_components(std::move(parts));
}

}  // namespace ag
