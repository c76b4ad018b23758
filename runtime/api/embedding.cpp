#include "runtime/api/embedding.h"

namespace ag {

const Tensor& tensor_of(const Value& v) {
  if (!v.is_tensor() || v.as_tensor().symbolic()) {
    throw TypeError("Expected an eager tensor, got " + (v.is_tensor() ? std::string("a symbolic tensor") : v.type_name()));
  }
  return v.as_tensor().value();
}

}  // namespace ag
