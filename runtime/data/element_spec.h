// The structure of a dataset element (TF's element_spec): a TensorSpec, or a
// tuple or dict of nested structures. An element travels through a pipeline
// as its flat components (TF's nest.flatten order: tuple items in order, dict
// entries by sorted key) and is packed back into tuples and dicts only when
// Python code receives it; dicts keep their insertion order then, as nest's
// pack_sequence_as does. A composite tensor (a RaggedTensor a map returns)
// is a node of its own: its TypeSpec, and its components as tensor children
// (TF's nest with expand_composites=True).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "runtime/core/tensor.h"
#include "runtime/ops/op_def.h"
#include "runtime/value/value.h"

namespace ag::data {

struct ElementSpec {
  enum class Kind { Tensor, Tuple, Dict, Composite };
  Kind kind = Kind::Tensor;
  TensorSpec spec;                    // Tensor
  std::vector<ElementSpec> children;  // Tuple items; Dict values in insertion order; Composite components
  std::vector<Value> keys;            // Dict keys in insertion order
  Value type_spec;                    // Composite: its TypeSpec object (value/composite_tensor.h)

  static ElementSpec tensor(TensorSpec s);
  static ElementSpec tuple(std::vector<ElementSpec> items);

  /// The component specs in flat order.
  std::vector<TensorSpec> flat_specs() const;
  /// Some node is a composite tensor (batching such elements is not supported).
  bool contains_composite() const;
  size_t num_components() const;
  /// The same structure with each component spec replaced by f(spec) (flat order).
  template <class F>
  ElementSpec map_specs(F&& f) const {
    ElementSpec out = *this;
    out.for_each_spec([&](TensorSpec& s) { s = f(s); });
    return out;
  }
  /// Python's repr of the structure: `(TensorSpec(shape=(), dtype=tf.int32, name=None), {'a': ...})`.
  std::string repr() const;

  friend bool operator==(const ElementSpec&, const ElementSpec&);
  /// The same nesting and component dtypes (shapes may differ).
  bool same_types(const ElementSpec& o) const;
  /// The order children are flattened in: their own for tuples, sorted by key for dicts.
  std::vector<size_t> flat_order() const;

 private:
  /// Visits the component specs in flat order.
  template <class F>
  void for_each_spec(F&& f) {
    if (kind == Kind::Tensor) {
      f(spec);
      return;
    }
    for (size_t i : flat_order()) children[i].for_each_spec(f);
  }
};

/// The structure of `element` as TF's structure.type_spec_from_value sees a
/// dataset input: tuples and dicts nest, anything else (a tensor, a Python
/// number, a list) is one component converted as tf.convert_to_tensor does.
/// `components` receives the converted tensors in flat order (eager values:
/// datasets hold data, never symbolic tensors; a symbolic one is a clear
/// error naming `what`).
ElementSpec structure_of(const Value& element, std::vector<Tensor>& components, const char* what);

/// The Python value of an element: tensors packed into the structure's tuples and dicts.
Value pack(const ElementSpec& spec, std::span<const Tensor> components);
/// The same for the values traced functions see (symbolic or eager handles).
Value pack_handles(const ElementSpec& spec, std::span<const TensorHandle> components);
/// The same with any values at the leaves (element_spec's TensorSpecs).
Value pack_values(const ElementSpec& spec, std::span<const Value> leaves);

/// The tensor handles of `v`, which must have `spec`'s structure, in flat order.
/// ValueError/TypeError in TF's words when the structure differs.
void flatten_to(const ElementSpec& spec, const Value& v, std::vector<TensorHandle>& out);

/// The structure and components of a value a traced function returned
/// (TF's StructuredFunctionWrapper: a list becomes a tuple, Python values
/// become tensors; None is an error).
ElementSpec structure_of_result(const Value& result, std::vector<TensorHandle>& components);

}  // namespace ag::data
