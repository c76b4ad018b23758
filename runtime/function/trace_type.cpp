#include "runtime/function/trace_type.h"

#include <functional>

#include "runtime/core/hash_mix.h"
#include "runtime/value/composite_tensor.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/nest.h"
#include "runtime/value/set_value.h"
#include "runtime/value/tensor_spec_value.h"

namespace ag {
namespace {

size_t shape_hash(const Shape& s) {
  size_t h = static_cast<size_t>(s.rank() + 7);
  for (int64_t d : s.dims()) h = hash_mix(h, static_cast<size_t>(d));
  return h;
}

}  // namespace

TraceType TraceType::tensor(const TensorSpec& spec) {
  TraceType t;
  t.kind_ = Kind::Tensor;
  t.spec_ = spec;
  t.finish_hash();
  return t;
}

TraceType TraceType::composite(const Value& type_spec) {
  TraceType t;
  t.kind_ = Kind::Composite;
  t.literal_ = type_spec;
  t.spec_.shape = type_spec_state(type_spec)->shape();
  t.finish_hash();
  return t;
}

TraceType TraceType::of(const Value& v) {
  TraceType t;
  switch (v.kind()) {
    case ag::Kind::Tensor:
      return tensor({v.as_tensor().dtype(), v.as_tensor().shape()});
    case ag::Kind::NDArray:
      // Calls convert NumPy arguments to tensors first (TF's _convert_numpy_inputs).
      return tensor({v.as_ndarray().data.dtype(), v.as_ndarray().data.shape()});
    case ag::Kind::None:
    case ag::Kind::Bool:
    case ag::Kind::Int:
    case ag::Kind::Float:
    case ag::Kind::Str:
      t.kind_ = Kind::Literal;
      t.literal_ = v;
      break;
    case ag::Kind::List:
    case ag::Kind::Tuple:
      t.kind_ = v.is_list() ? Kind::List : Kind::Tuple;
      for (const Value& item : v.items()) t.children_.push_back(of(item));
      break;
    case ag::Kind::Dict:
      // In nest's sorted key order, as TF's trace type compares mappings:
      // {'a': x, 'b': y} and {'b': y, 'a': x} are one trace.
      t.kind_ = Kind::Dict;
      for (size_t i : nest::sorted_entries(v.as_dict())) {
        const auto& [key, item] = v.as_dict().entries[i];
        t.keys_.push_back(key);
        t.children_.push_back(of(item));
      }
      break;
    case ag::Kind::Object:
      if (auto spec = tensor_spec_of(v)) return tensor(*spec);
      // TF traces a composite tensor by its TypeSpec (its __tf_tracing_type__).
      if (const CompositeState* c = composite_state(v)) return composite(c->type_spec());
      if (type_spec_state(v) != nullptr) return composite(v);
      [[fallthrough]];
    case ag::Kind::Callable:
    case ag::Kind::TensorArray:
    case ag::Kind::Variable:
      t.kind_ = Kind::Identity;
      t.literal_ = v;
      break;
    case ag::Kind::Set:
      // Neither kind takes a weak reference, so TF keys them as a Literal,
      // which a set cannot be (it is unhashable): TF 2.15's trace_type text.
      if (!v.as_set().frozen) {
        throw TypeError("Could not generate a generic TraceType for " + repr(v) +
                        ".Please verify that it is immutable/hashable. Otheriwse, consider implementing the Tracing "
                        "Protocol for it.");
      }
      t.kind_ = Kind::Literal;
      t.literal_ = v;
      break;
  }
  t.finish_hash();
  return t;
}

const TraceType& TraceType::child(const Value& key) const {
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (py_equal(keys_[i], key)) return children_[i];
  }
  throw KeyError(repr(key));
}

namespace {

/// What Python's id() tells apart, for the kinds TraceType keys by identity.
const void* identity_address(const Value& v) {
  switch (v.kind()) {
    case ag::Kind::Object: return &v.as_object();
    case ag::Kind::Callable: return &v.as_callable();
    case ag::Kind::TensorArray: return &v.as_tensor_array();
    case ag::Kind::Variable: return v.as_variable().get();
    default: return nullptr;
  }
}

}  // namespace

void TraceType::finish_hash() {
  size_t h = static_cast<size_t>(kind_);
  switch (kind_) {
    case Kind::Tensor:
      h = hash_mix(h, static_cast<size_t>(spec_.dtype));
      h = hash_mix(h, shape_hash(spec_.shape));
      break;
    case Kind::Literal:
      h = hash_mix(h, ag::hash(literal_));
      break;
    case Kind::Identity:
      h = hash_mix(h, std::hash<const void*>()(identity_address(literal_)));
      break;
    case Kind::Composite: {
      const TypeSpecState& s = *type_spec_state(literal_);
      h = hash_mix(h, std::hash<std::string>()(s.spec_name() + s.fields_repr()));
      h = hash_mix(h, shape_hash(spec_.shape));
      break;
    }
    case Kind::Dict:
      for (const Value& k : keys_) h = hash_mix(h, ag::hash(k));
      [[fallthrough]];
    case Kind::List:
    case Kind::Tuple:
      for (const TraceType& c : children_) h = hash_mix(h, c.hash_);
      break;
  }
  hash_ = h;
}

bool operator==(const TraceType& a, const TraceType& b) {
  if (a.kind_ != b.kind_ || a.hash_ != b.hash_) return false;
  switch (a.kind_) {
    case TraceType::Kind::Tensor: return a.spec_ == b.spec_;
    case TraceType::Kind::Literal: return py_equal(a.literal_, b.literal_);
    case TraceType::Kind::Identity: return a.literal_.is(b.literal_);
    case TraceType::Kind::Composite:
      return a.spec_.shape == b.spec_.shape && same_spec_kind(*type_spec_state(a.literal_), *type_spec_state(b.literal_));
    default: break;
  }
  if (a.children_.size() != b.children_.size()) return false;
  for (size_t i = 0; i < a.keys_.size(); ++i) {
    if (!py_equal(a.keys_[i], b.keys_[i])) return false;
  }
  for (size_t i = 0; i < a.children_.size(); ++i) {
    if (!(a.children_[i] == b.children_[i])) return false;
  }
  return true;
}

bool TraceType::is_subtype_of(const TraceType& super) const {
  if (kind_ != super.kind_) return false;
  switch (kind_) {
    case Kind::Tensor: return spec_.dtype == super.spec_.dtype && super.spec_.shape.is_supertype_of(spec_.shape);
    case Kind::Literal:
    case Kind::Identity: return *this == super;
    case Kind::Composite: return spec_is_subtype_of(*type_spec_state(literal_), *type_spec_state(super.literal_));
    default: break;
  }
  if (children_.size() != super.children_.size()) return false;
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (!py_equal(keys_[i], super.keys_[i])) return false;
  }
  for (size_t i = 0; i < children_.size(); ++i) {
    if (!children_[i].is_subtype_of(super.children_[i])) return false;
  }
  return true;
}

std::optional<TraceType> TraceType::common_supertype(const TraceType& o) const {
  if (kind_ != o.kind_) return std::nullopt;
  switch (kind_) {
    case Kind::Tensor:
      if (spec_.dtype != o.spec_.dtype) return std::nullopt;
      return tensor({spec_.dtype, spec_.shape.most_specific_common_supertype(o.spec_.shape)});
    case Kind::Literal:
    case Kind::Identity:
      if (*this == o) return *this;
      return std::nullopt;
    case Kind::Composite: {
      const TypeSpecState& a = *type_spec_state(literal_);
      if (!same_spec_kind(a, *type_spec_state(o.literal_))) return std::nullopt;
      return composite(a.with_shape(spec_.shape.most_specific_common_supertype(o.spec_.shape)));
    }
    default: break;
  }
  if (children_.size() != o.children_.size()) return std::nullopt;
  for (size_t i = 0; i < keys_.size(); ++i) {
    if (!py_equal(keys_[i], o.keys_[i])) return std::nullopt;
  }
  TraceType t = *this;
  for (size_t i = 0; i < children_.size(); ++i) {
    auto c = children_[i].common_supertype(o.children_[i]);
    if (!c) return std::nullopt;
    t.children_[i] = *c;
  }
  t.finish_hash();
  return t;
}

}  // namespace ag
