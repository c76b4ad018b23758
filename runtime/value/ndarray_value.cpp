#include "runtime/value/ndarray_value.h"

#include "runtime/core/tensor_format.h"
#include "runtime/value/object_model.h"
#include "runtime/value/tensor_shape_value.h"

namespace ag {
namespace {

struct NdarrayState : NativeState {
  Tensor value;
};

const Tensor& held(const Value& self) { return native_state<NdarrayState>(self)->value; }

const Value& ndarray_class() {
  static const Value cls = [] {
    std::vector<std::pair<std::string, Value>> attrs;
    Param self{"self", std::nullopt};
    attrs.push_back(native_method("ndarray.__repr__", "__repr__", {self},
                                  [](const std::vector<Value>& a) { return Value(numpy_repr(held(a[0]))); }));
    attrs.push_back(native_method("ndarray.__str__", "__str__", {self},
                                  [](const std::vector<Value>& a) { return Value(numpy_str(held(a[0]))); }));
    attrs.push_back({"shape", make_property(Value::callable("ndarray.shape", [](std::vector<Value> a, Kwargs) {
                       std::vector<Value> dims;
                       for (int64_t d : held(a.at(0)).shape().dims()) dims.emplace_back(d);
                       return Value::tuple(std::move(dims));
                     }))});
    return make_class("ndarray", {}, std::move(attrs));
  }();
  return cls;
}

}  // namespace

Value ndarray(Tensor t) {
  auto s = std::make_shared<NdarrayState>();
  s->value = std::move(t);
  return native_object(ndarray_class(), std::move(s));
}

std::optional<Tensor> ndarray_tensor(const Value& v) {
  if (auto* s = native_state<NdarrayState>(v)) return s->value;
  return std::nullopt;
}

}  // namespace ag
