#include "runtime/value/unpack.h"

#include <string>

#include "runtime/value/object_model.h"

namespace ag {

std::vector<Value> unpack(const Value& v, size_t n) {
  // Any iterable: the built-in ones, or an object whose class defines __iter__.
  if (!v.is_list() && !v.is_tuple() && !v.is_str() && !v.is_dict() && !v.is_tensor() &&
      !special_method(v, "__iter__")) {
    throw TypeError("cannot unpack non-iterable " + v.type_name() + " object");
  }
  std::vector<Value> items = iterate(v);
  if (items.size() > n) throw ValueError("too many values to unpack (expected " + std::to_string(n) + ")");
  if (items.size() < n) {
    throw ValueError("not enough values to unpack (expected " + std::to_string(n) + ", got " +
                     std::to_string(items.size()) + ")");
  }
  return items;
}

}  // namespace ag
