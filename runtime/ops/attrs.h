// Node attributes (TF's AttrValue): an op's non-tensor parameters such as
// `axis`, `transpose_a` or `dtype`. Read once when a kernel is prepared, never
// per execution.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "runtime/core/dtype.h"
#include "runtime/core/error.h"
#include "runtime/core/shape.h"
#include "runtime/core/tensor.h"

namespace ag {

using AttrValue = std::variant<int64_t, double, bool, std::string, DType, Shape, std::vector<int64_t>,
                               std::vector<double>, std::vector<std::string>, Tensor>;

class Attrs {
 public:
  Attrs() = default;
  Attrs(std::initializer_list<std::pair<std::string, AttrValue>> init) : items_(init) {}

  /// Sets (or replaces) `name`.
  Attrs& set(std::string name, AttrValue value);
  bool has(std::string_view name) const { return find(name) != nullptr; }

  /// The attribute as T; InvalidArgumentError if it is missing ("NodeDef
  /// missing attr 'axis'") or of another type. Our own builders set every
  /// attribute an op reads, but a graph read from a file (a SavedModel's
  /// NodeDefs, graph/function_def) may lack one or give it another type.
  template <class T>
  const T& get(std::string_view name) const {
    const AttrValue* v = find(name);
    if (v == nullptr) missing(name);
    const T* p = std::get_if<T>(v);
    if (p == nullptr) wrong_type(name, v->index(), AttrValue(std::in_place_type<T>).index());
    return *p;
  }
  template <class T>
  T get_or(std::string_view name, T fallback) const {
    const AttrValue* v = find(name);
    if (v == nullptr) return fallback;
    const T* p = std::get_if<T>(v);
    return p ? *p : fallback;
  }

  const std::vector<std::pair<std::string, AttrValue>>& items() const { return items_; }

  friend bool operator==(const Attrs& a, const Attrs& b);

 private:
  const AttrValue* find(std::string_view name) const;
  [[noreturn]] static void missing(std::string_view name);
  /// `got` and `want` are AttrValue alternatives (their index).
  [[noreturn]] static void wrong_type(std::string_view name, size_t got, size_t want);
  std::vector<std::pair<std::string, AttrValue>> items_;
};

/// TF's name of an attribute value's type ("int", "list(int)", "tensor", ...),
/// by AttrValue alternative.
const char* attr_type_name(size_t index);

/// Equality for attribute values (tensors compare by dtype, shape and bytes).
bool attr_equal(const AttrValue& a, const AttrValue& b);

}  // namespace ag
