#include "runtime/value/bytes_value.h"
#include "runtime/value/value.h"

#include "runtime/value/convert.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/object_model.h"
#include "runtime/value/set_value.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/tensor_array.h"
#include "runtime/value/tensor_shape_value.h"
#include "runtime/value/user_function.h"
#include "runtime/value/v1_graph_attrs.h"
#include "runtime/value/variable_value.h"

namespace ag {

Value::Value(const Value& other) = default;
Value::Value(Value&& other) noexcept = default;
Value& Value::operator=(const Value& other) = default;
Value& Value::operator=(Value&& other) noexcept = default;
Value::~Value() = default;

WeakValue::WeakValue(const Value& v) {
  if (v.is_object()) {
    object_ = std::get<std::shared_ptr<ObjectObj>>(v.v_);
  } else if (v.is_callable()) {
    callable_ = std::get<std::shared_ptr<CallableObj>>(v.v_);
  } else {
    other_ = v;
  }
}

Value WeakValue::lock() const {
  Value v;
  if (std::shared_ptr<ObjectObj> o = object_.lock()) {
    v.v_ = std::move(o);
  } else if (std::shared_ptr<CallableObj> c = callable_.lock()) {
    v.v_ = std::move(c);
  } else {
    v = other_;
  }
  return v;
}

bool WeakValue::expired() const { return other_.is_none() && object_.expired() && callable_.expired(); }

Value Value::list(std::vector<Value> items) {
  Value v;
  v.v_ = std::make_shared<ListObj>(ListObj{std::move(items)});
  return v;
}

Value Value::tuple(std::vector<Value> items) {
  Value v;
  v.v_ = std::make_shared<TupleObj>(TupleObj{std::move(items)});
  return v;
}

Value Value::dict(std::vector<std::pair<Value, Value>> items) {
  auto d = std::make_shared<DictObj>();
  for (auto& [k, x] : items) d->set(k, std::move(x));
  Value v;
  v.v_ = std::move(d);
  return v;
}

Value Value::callable(std::string name, CallFn fn, std::shared_ptr<UserFunction> user) {
  Value v;
  v.v_ = std::make_shared<CallableObj>(CallableObj{std::move(name), std::move(fn), std::move(user)});
  return v;
}

Value Value::builtin(std::string name, CallFn fn, bool is_type) {
  Value v;
  v.v_ = std::make_shared<CallableObj>(CallableObj{std::move(name), std::move(fn), nullptr,
                                                   is_type ? CallableObj::Printed::BuiltinType
                                                           : CallableObj::Printed::BuiltinFunction});
  return v;
}

Value Value::object(std::string class_name) {
  Value v;
  v.v_ = std::make_shared<ObjectObj>(ObjectObj{std::move(class_name), {}, Value(), nullptr});
  return v;
}

Value Value::ellipsis() {
  static const Value* e = new Value(object("ellipsis"));  // never destroyed: no exit-order issues
  return *e;
}

bool Value::is_ellipsis() const { return is_object() && &as_object() == &ellipsis().as_object(); }

Value Value::tensor_array(std::shared_ptr<TensorArrayObj> ta) {
  Value v;
  v.v_ = std::move(ta);
  return v;
}

Value Value::variable(std::shared_ptr<Variable> var) {
  Value v;
  v.v_ = std::move(var);
  return v;
}

Value Value::ndarray(std::shared_ptr<NDArrayObj> a) {
  Value v;
  v.v_ = std::move(a);
  return v;
}

Value Value::set(std::shared_ptr<SetObj> s) {
  Value v;
  v.v_ = std::move(s);
  return v;
}

namespace {

[[noreturn]] void wrong_kind(const Value& v, const char* want) {
  throw TypeError("expected " + std::string(want) + ", got '" + v.type_name() + "' object");
}

}  // namespace

bool Value::as_bool() const {
  if (const bool* b = std::get_if<bool>(&v_)) return *b;
  wrong_kind(*this, "bool");
}

namespace {

/// The Python number a NumPy scalar converts to, when it is one of `want`'s.
std::optional<Value> numpy_number(const Value& v, bool integers_only) {
  if (!v.is_ndarray() || !ndarray::is_scalar(v)) return std::nullopt;
  DType t = ndarray::tensor(v).dtype();
  if (integers_only ? !(is_integer(t) || t == DType::Bool) : !(is_numeric(t) || t == DType::Bool)) return std::nullopt;
  return ndarray::item(ndarray::tensor(v), 0);
}

}  // namespace

bool Value::is_index() const {
  if (is_int() || is_bool()) return true;
  return is_ndarray() && ndarray::is_scalar(*this) && is_integer(ndarray::tensor(*this).dtype());
}

int64_t Value::as_int() const {
  if (const int64_t* i = std::get_if<int64_t>(&v_)) return *i;
  if (const bool* b = std::get_if<bool>(&v_)) return *b ? 1 : 0;
  if (std::optional<Value> n = numpy_number(*this, true)) return n->as_int();
  wrong_kind(*this, "int");
}

double Value::as_float() const {
  if (const double* d = std::get_if<double>(&v_)) return *d;
  if (const int64_t* i = std::get_if<int64_t>(&v_)) return static_cast<double>(*i);
  if (const bool* b = std::get_if<bool>(&v_)) return *b ? 1.0 : 0.0;
  if (std::optional<Value> n = numpy_number(*this, false)) return n->as_float();
  wrong_kind(*this, "float");
}

const std::string& Value::as_str() const {
  if (auto* s = std::get_if<std::shared_ptr<const std::string>>(&v_)) return **s;
  wrong_kind(*this, "str");
}

const TensorHandle& Value::as_tensor() const {
  if (const TensorHandle* t = std::get_if<TensorHandle>(&v_)) return *t;
  wrong_kind(*this, "Tensor");
}

std::vector<Value>& Value::items() const {
  if (auto* l = std::get_if<std::shared_ptr<ListObj>>(&v_)) return (*l)->items;
  if (auto* t = std::get_if<std::shared_ptr<TupleObj>>(&v_)) return (*t)->items;
  wrong_kind(*this, "list or tuple");
}

DictObj& Value::as_dict() const {
  if (auto* d = std::get_if<std::shared_ptr<DictObj>>(&v_)) return **d;
  wrong_kind(*this, "dict");
}

const CallableObj& Value::as_callable() const {
  if (auto* c = std::get_if<std::shared_ptr<CallableObj>>(&v_)) return **c;
  throw TypeError("'" + type_name() + "' object is not callable");
}

ObjectObj& Value::as_object() const {
  if (auto* o = std::get_if<std::shared_ptr<ObjectObj>>(&v_)) return **o;
  wrong_kind(*this, "object");
}

TensorArrayObj& Value::as_tensor_array() const {
  if (auto* o = std::get_if<std::shared_ptr<TensorArrayObj>>(&v_)) return **o;
  wrong_kind(*this, "TensorArray");
}

const std::shared_ptr<Variable>& Value::as_variable() const {
  if (auto* o = std::get_if<std::shared_ptr<Variable>>(&v_)) return *o;
  wrong_kind(*this, "Variable");
}

NDArrayObj& Value::as_ndarray() const {
  if (auto* o = std::get_if<std::shared_ptr<NDArrayObj>>(&v_)) return **o;
  wrong_kind(*this, "numpy.ndarray");
}

SetObj& Value::as_set() const {
  if (auto* o = std::get_if<std::shared_ptr<SetObj>>(&v_)) return **o;
  wrong_kind(*this, "set");
}

std::string Value::type_name() const {
  switch (kind()) {
    case Kind::None: return "NoneType";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Float: return "float";
    case Kind::Str: return "str";
    case Kind::Tensor: return as_tensor().symbolic() ? "SymbolicTensor" : "EagerTensor";
    case Kind::List: return "list";
    case Kind::Tuple: return "tuple";
    case Kind::Dict: {
      static const char* const kNames[] = {"dict", "defaultdict", "OrderedDict", "Counter"};
      return kNames[static_cast<int>(as_dict().flavor)];
    }
    case Kind::Callable: return "function";
    case Kind::Object: return as_object().class_name;
    case Kind::TensorArray: return "TensorArray";
    case Kind::Variable: return "ResourceVariable";
    case Kind::NDArray: return ndarray::type_name(*this);
    case Kind::Set: return as_set().frozen ? "frozenset" : "set";
  }
  return "object";
}

bool Value::is(const Value& o) const {
  if (kind() != o.kind()) return false;
  switch (kind()) {
    case Kind::None: return true;
    case Kind::Bool: return as_bool() == o.as_bool();
    case Kind::Int: return as_int() == o.as_int();
    case Kind::Float: return as_float() == o.as_float();
    case Kind::Str: return as_str() == o.as_str();
    case Kind::Tensor: {
      const TensorHandle& a = as_tensor();
      const TensorHandle& b = o.as_tensor();
      if (a.symbolic() != b.symbolic()) return false;
      if (a.symbolic()) return a.output() == b.output();
      return a.id() == b.id();
    }
    case Kind::List: return &items() == &o.items();
    case Kind::Tuple: return &items() == &o.items();
    case Kind::Dict: return &as_dict() == &o.as_dict();
    case Kind::Callable: return &as_callable() == &o.as_callable();
    case Kind::Object: return &as_object() == &o.as_object();
    case Kind::TensorArray: return &as_tensor_array() == &o.as_tensor_array();
    case Kind::Variable: return as_variable() == o.as_variable();
    case Kind::NDArray: return &as_ndarray() == &o.as_ndarray();
    case Kind::Set: return &as_set() == &o.as_set();
  }
  return false;
}

Value Value::getattr(std::string_view name) const {
  if (is_object()) {
    if (std::optional<Value> v = object_getattr(*this, name)) return *v;
  }
  if (is_tensor_array()) return tensor_array::getattr(*this, name);
  if (is_variable()) return variable_value::getattr(*this, name);
  if (bytes_value::is_bytes(*this)) {
    if (std::optional<Value> m = bytes_value::method(*this, name)) return *m;
    throw AttributeError("'bytes' object has no attribute '" + std::string(name) + "'");
  }
  if (is_ndarray()) return ndarray::getattr(*this, name);
  if (std::optional<Value> m = builtin_method(*this, name)) return *m;
  // A function's (or a builtin type's, `type(s).__name__`) names.
  if (is_callable() && name == "__name__") return Value(as_callable().name);
  if (is_callable() && name == "__qualname__") {
    return Value(as_callable().user ? as_callable().user->qualname : as_callable().name);
  }
  if (is_tensor()) {
    const TensorHandle& t = as_tensor();
    if (t.symbolic() && t.output().node->graph->v1()) {
      if (std::optional<Value> a = v1_attr(*this, name)) return *a;
    }
    if (name == "dtype") return dtype_value(t.dtype());
    if (name == "name" && t.symbolic()) return Value(t.output().name());
    Shape s = t.shape();
    if (name == "ndim" && s.rank_known()) return Value(static_cast<int64_t>(s.rank()));
    if (name == "shape") return tensor_shape(s);
    if (name == "numpy" && !t.symbolic()) {
      // EagerTensor.numpy(): the value as NumPy holds it (a graph tensor has
      // no such attribute: the AttributeError below).
      return Value::callable("numpy", [t](std::vector<Value> args, Kwargs kwargs) -> Value {
        if (!args.empty() || !kwargs.empty()) throw TypeError("numpy() takes no arguments");
        return ndarray::result(t.value());
      });
    }
    if (name == "get_shape") {
      return Value::callable("get_shape", [s](std::vector<Value> args, Kwargs kwargs) -> Value {
        if (!args.empty() || !kwargs.empty()) throw TypeError("get_shape() takes no arguments");
        return tensor_shape(s);
      });
    }
  }
  throw AttributeError("'" + type_name() + "' object has no attribute '" + std::string(name) + "'");
}

void Value::setattr(std::string_view name, Value v) const {
  if (!is_object()) {
    throw AttributeError("'" + type_name() + "' object has no attribute '" + std::string(name) + "'");
  }
  if (set_property(*this, name, v)) return;
  for (auto& [k, x] : as_object().attrs) {
    if (k == name) {
      x = std::move(v);
      return;
    }
  }
  as_object().attrs.emplace_back(std::string(name), std::move(v));
}

bool Value::hasattr(std::string_view name) const {
  if (!is_object()) return false;
  return object_hasattr(*this, name);
}

Value Value::operator()(std::vector<Value> args, Kwargs kwargs) const {
  if (is_object()) return object_call(*this, std::move(args), std::move(kwargs));
  const CallableObj& c = as_callable();
  return c.fn(std::move(args), std::move(kwargs));
}

}  // namespace ag
