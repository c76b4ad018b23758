#include "runtime/data/element_spec.h"

#include <algorithm>
#include <numeric>
#include <type_traits>

#include "runtime/value/composite_tensor.h"
#include "runtime/value/convert.h"
#include "runtime/value/tensor_spec_value.h"
#include "runtime/value/variable_value.h"

namespace ag::data {
namespace {

/// nest's sorted(dict): keys of one kind in their natural order (str, int).
bool key_less(const Value& a, const Value& b) {
  if (a.is_str() && b.is_str()) return a.as_str() < b.as_str();
  if (a.is_number() && b.is_number()) return a.as_float() < b.as_float();
  if (a.is_str() != b.is_str()) {
    throw TypeError("'<' not supported between instances of '" + a.type_name() + "' and '" + b.type_name() + "'");
  }
  return repr(a) < repr(b);
}

TensorHandle component_handle(const Tensor& t) { return TensorHandle(t); }
TensorHandle component_handle(const TensorHandle& t) { return t; }

template <class T>
void pack_flat(const ElementSpec& spec, std::span<const T> flat, size_t& next, Value& out) {
  switch (spec.kind) {
    case ElementSpec::Kind::Tensor: out = Value(flat[next++]); return;
    case ElementSpec::Kind::Composite: {
      if constexpr (std::is_same_v<T, Value>) {
        // element_spec's leaves: the composite shows its TypeSpec.
        next += spec.children.size();
        out = spec.type_spec;
      } else {
        std::vector<TensorHandle> parts;
        for (size_t i = 0; i < spec.children.size(); ++i) parts.push_back(component_handle(flat[next++]));
        out = type_spec_state(spec.type_spec)->from_components(std::move(parts));
      }
      return;
    }
    case ElementSpec::Kind::Tuple:
    case ElementSpec::Kind::Dict: {
      std::vector<Value> items(spec.children.size());
      for (size_t i : spec.flat_order()) pack_flat(spec.children[i], flat, next, items[i]);
      if (spec.kind == ElementSpec::Kind::Tuple) {
        out = Value::tuple(std::move(items));
        return;
      }
      std::vector<std::pair<Value, Value>> entries;
      for (size_t i = 0; i < items.size(); ++i) entries.emplace_back(spec.keys[i], std::move(items[i]));
      out = Value::dict(std::move(entries));
      return;
    }
  }
}

template <class T>
Value pack_any(const ElementSpec& spec, std::span<const T> flat) {
  if (flat.size() != spec.num_components()) {
    throw InternalError("an element has " + std::to_string(flat.size()) + " components, its spec " +
                        std::to_string(spec.num_components()));
  }
  size_t next = 0;
  Value out;
  pack_flat(spec, flat, next, out);
  return out;
}

}  // namespace

ElementSpec ElementSpec::tensor(TensorSpec s) {
  ElementSpec e;
  e.spec = std::move(s);
  return e;
}

ElementSpec ElementSpec::tuple(std::vector<ElementSpec> items) {
  ElementSpec e;
  e.kind = Kind::Tuple;
  e.children = std::move(items);
  return e;
}

std::vector<size_t> ElementSpec::flat_order() const {
  std::vector<size_t> order(children.size());
  std::iota(order.begin(), order.end(), size_t{0});
  if (kind == Kind::Dict) {
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return key_less(keys[a], keys[b]); });
  }
  return order;
}

std::vector<TensorSpec> ElementSpec::flat_specs() const {
  std::vector<TensorSpec> out;
  ElementSpec copy = *this;
  copy.for_each_spec([&](TensorSpec& s) { out.push_back(s); });
  return out;
}

bool ElementSpec::contains_composite() const {
  if (kind == Kind::Composite) return true;
  for (const ElementSpec& c : children) {
    if (c.contains_composite()) return true;
  }
  return false;
}

size_t ElementSpec::num_components() const {
  if (kind == Kind::Tensor) return 1;
  size_t n = 0;
  for (const ElementSpec& c : children) n += c.num_components();
  return n;
}

std::string ElementSpec::repr() const {
  switch (kind) {
    case Kind::Tensor: return tensor_spec_repr(spec, "");
    case Kind::Composite: return type_spec_repr(*type_spec_state(type_spec));
    case Kind::Tuple: {
      std::string s = "(";
      for (size_t i = 0; i < children.size(); ++i) s += (i ? ", " : "") + children[i].repr();
      return s + (children.size() == 1 ? ",)" : ")");
    }
    case Kind::Dict: {
      std::string s = "{";
      for (size_t i = 0; i < children.size(); ++i) s += (i ? ", " : "") + ag::repr(keys[i]) + ": " + children[i].repr();
      return s + "}";
    }
  }
  return "";
}

bool operator==(const ElementSpec& a, const ElementSpec& b) {
  if (a.kind != b.kind) return false;
  if (a.kind == ElementSpec::Kind::Tensor) return a.spec == b.spec;
  if (a.kind == ElementSpec::Kind::Composite &&
      (!same_spec_kind(*type_spec_state(a.type_spec), *type_spec_state(b.type_spec)) ||
       !(type_spec_state(a.type_spec)->shape() == type_spec_state(b.type_spec)->shape()))) {
    return false;
  }
  if (a.children.size() != b.children.size()) return false;
  for (size_t i = 0; i < a.children.size(); ++i) {
    if (!(a.children[i] == b.children[i])) return false;
    if (a.kind == ElementSpec::Kind::Dict && !py_equal(a.keys[i], b.keys[i])) return false;
  }
  return true;
}

bool ElementSpec::same_types(const ElementSpec& o) const {
  auto no_shapes = [](const TensorSpec& s) { return TensorSpec{s.dtype, Shape{}}; };
  return map_specs(no_shapes) == o.map_specs(no_shapes);
}

ElementSpec structure_of(const Value& element, std::vector<Tensor>& components, const char* what) {
  if (element.is_tuple() || element.is_dict()) {
    ElementSpec e;
    e.kind = element.is_tuple() ? ElementSpec::Kind::Tuple : ElementSpec::Kind::Dict;
    std::vector<Value> values;
    if (element.is_tuple()) {
      values = element.items();
    } else {
      for (const auto& [k, v] : element.as_dict().entries) {
        e.keys.push_back(k);
        values.push_back(v);
      }
    }
    // Components are taken in flat order, children kept in their own.
    e.children.resize(values.size());
    for (size_t i : e.flat_order()) e.children[i] = structure_of(values[i], components, what);
    return e;
  }
  if (element.is_none()) {
    throw TypeError(std::string(what) + ": None is not a valid dataset component (a tensor, a Python value or a "
                    "tuple or dict of them)");
  }
  TensorHandle h = element.is_variable() ? TensorHandle(variable_value::read(element)) : to_tensor(element);
  if (h.symbolic()) {
    throw NotImplementedError(std::string(what) + " received the symbolic tensor " + h.output().name() +
                              ": agc builds datasets from eager values only; create the dataset outside the "
                              "tf.function and iterate it inside");
  }
  components.push_back(h.value());
  return ElementSpec::tensor({h.dtype(), h.value().shape()});
}

Value pack(const ElementSpec& spec, std::span<const Tensor> components) { return pack_any(spec, components); }

Value pack_handles(const ElementSpec& spec, std::span<const TensorHandle> components) {
  return pack_any(spec, components);
}

Value pack_values(const ElementSpec& spec, std::span<const Value> leaves) { return pack_any(spec, leaves); }

void flatten_to(const ElementSpec& spec, const Value& v, std::vector<TensorHandle>& out) {
  switch (spec.kind) {
    case ElementSpec::Kind::Tensor: {
      TensorHandle h = v.is_variable() ? TensorHandle(variable_value::read(v)) : to_tensor(v, spec.spec.dtype);
      out.push_back(std::move(h));
      return;
    }
    case ElementSpec::Kind::Composite: {
      const CompositeState* c = composite_state(v);
      if (c == nullptr || !same_spec_kind(*type_spec_state(c->type_spec()), *type_spec_state(spec.type_spec))) {
        throw ValueError("The two structures don't have the same nested structure.\n\nFirst structure: " +
                         spec.repr() + "\n\nSecond structure: " + ag::repr(v));
      }
      for (const TensorHandle* t : c->components()) out.push_back(*t);
      return;
    }
    case ElementSpec::Kind::Tuple: {
      if (!(v.is_tuple() || v.is_list()) || v.items().size() != spec.children.size()) {
        throw ValueError("The two structures don't have the same nested structure.\n\nFirst structure: " +
                         spec.repr() + "\n\nSecond structure: " + ag::repr(v));
      }
      for (size_t i : spec.flat_order()) flatten_to(spec.children[i], v.items()[i], out);
      return;
    }
    case ElementSpec::Kind::Dict: {
      if (!v.is_dict() || v.as_dict().size() != spec.children.size()) {
        throw ValueError("The two structures don't have the same nested structure.\n\nFirst structure: " +
                         spec.repr() + "\n\nSecond structure: " + ag::repr(v));
      }
      for (size_t i : spec.flat_order()) flatten_to(spec.children[i], v.as_dict().at(spec.keys[i]), out);
      return;
    }
  }
}

ElementSpec structure_of_result(const Value& result, std::vector<TensorHandle>& components) {
  if (result.is_tuple() || result.is_list() || result.is_dict()) {
    ElementSpec e;
    e.kind = result.is_dict() ? ElementSpec::Kind::Dict : ElementSpec::Kind::Tuple;
    std::vector<Value> values;
    if (result.is_dict()) {
      for (const auto& [k, v] : result.as_dict().entries) {
        e.keys.push_back(k);
        values.push_back(v);
      }
    } else {
      values = result.items();
    }
    e.children.resize(values.size());
    for (size_t i : e.flat_order()) e.children[i] = structure_of_result(values[i], components);
    return e;
  }
  if (const CompositeState* c = composite_state(result)) {
    // A composite's components travel as the element's tensors.
    ElementSpec e;
    e.kind = ElementSpec::Kind::Composite;
    e.type_spec = c->type_spec();
    for (const TensorHandle* t : c->components()) {
      components.push_back(*t);
      e.children.push_back(ElementSpec::tensor({t->dtype(), t->shape()}));
    }
    return e;
  }
  if (result.is_none()) {
    throw TypeError("The function must return a tensor, a Python value convertible to one, or a tuple or dict of "
                    "them; it returned None");
  }
  TensorHandle h = result.is_variable() ? TensorHandle(variable_value::read(result)) : to_tensor(result);
  components.push_back(h);
  return ElementSpec::tensor({h.dtype(), h.shape()});
}

}  // namespace ag::data
