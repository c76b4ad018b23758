#include "runtime/ops/attrs.h"

#include <cstring>
#include <iterator>
#include <type_traits>

namespace ag {

Attrs& Attrs::set(std::string name, AttrValue value) {
  for (auto& [n, v] : items_) {
    if (n == name) {
      v = std::move(value);
      return *this;
    }
  }
  items_.emplace_back(std::move(name), std::move(value));
  return *this;
}

const char* attr_type_name(size_t index) {
  static const char* const kNames[] = {"int",       "float",       "bool",         "string", "type",
                                       "shape",     "list(int)",   "list(float)",  "list(string)", "tensor"};
  static_assert(std::size(kNames) == std::variant_size_v<AttrValue>);
  return index < std::size(kNames) ? kNames[index] : "?";
}

void Attrs::missing(std::string_view name) {
  throw InvalidArgumentError("NodeDef missing attr '" + std::string(name) + "'");
}

void Attrs::wrong_type(std::string_view name, size_t got, size_t want) {
  throw InvalidArgumentError("attr '" + std::string(name) + "' has a value of type '" + attr_type_name(got) + "' where '" +
                             attr_type_name(want) + "' is expected");
}

const AttrValue* Attrs::find(std::string_view name) const {
  for (const auto& [n, v] : items_) {
    if (n == name) return &v;
  }
  return nullptr;
}

bool attr_equal(const AttrValue& a, const AttrValue& b) {
  if (a.index() != b.index()) return false;
  return std::visit(
      [&](const auto& x) {
        using X = std::decay_t<decltype(x)>;
        const X& y = std::get<X>(b);
        if constexpr (std::is_same_v<X, Tensor>) {
          if (x.dtype() != y.dtype() || !(x.shape() == y.shape())) return false;
          if (x.dtype() == DType::String) {
            for (int64_t i = 0; i < x.num_elements(); ++i) {
              if (x.template data<std::string>()[i] != y.template data<std::string>()[i]) return false;
            }
            return true;
          }
          return std::memcmp(x.raw_data(), y.raw_data(), x.byte_size()) == 0;
        } else {
          return x == y;
        }
      },
      a);
}

bool operator==(const Attrs& a, const Attrs& b) {
  if (a.items_.size() != b.items_.size()) return false;
  for (const auto& [name, value] : a.items_) {
    const AttrValue* other = b.find(name);
    if (other == nullptr || !attr_equal(value, *other)) return false;
  }
  return true;
}

}  // namespace ag
