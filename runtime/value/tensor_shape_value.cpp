#include "runtime/value/tensor_shape_value.h"

#include <memory>
#include <string>
#include <vector>

#include "runtime/value/convert.h"
#include "runtime/value/object_model.h"

namespace ag {
namespace {

struct ShapeState : NativeState {
  Shape shape;
};

const Shape& self_shape(const std::vector<Value>& args, const char* method) {
  if (!args.empty()) {
    if (const ShapeState* st = native_state<ShapeState>(args[0])) return st->shape;
  }
  throw TypeError(std::string("descriptor '") + method + "' requires a 'TensorShape' object");
}

void expect_args(const std::vector<Value>& args, size_t n, const char* method) {
  if (args.size() != n) {
    throw TypeError(std::string("TensorShape.") + method + "() takes " + std::to_string(n) +
                    " positional arguments but " + std::to_string(args.size()) + " were given");
  }
}

Value dim_value(int64_t d) { return d < 0 ? Value() : Value(d); }

std::vector<Value> dim_values(const Shape& s) {
  std::vector<Value> dims;
  for (int64_t d : s.dims()) dims.push_back(dim_value(d));
  return dims;
}

/// A method of the class: fn(shape, args after self).
template <class F>
std::pair<std::string, Value> shape_method(const char* name, size_t arity, F fn) {
  return {name, Value::callable(name, [name, arity, fn](std::vector<Value> args, Kwargs kwargs) -> Value {
            if (!kwargs.empty()) throw TypeError(std::string("TensorShape.") + name + "() takes no keyword arguments");
            expect_args(args, arity + 1, name);
            return fn(self_shape(args, name), args);
          })};
}

/// A read-only attribute computed from the shape.
template <class F>
std::pair<std::string, Value> shape_property(const char* name, F fn) {
  return {name, make_property(Value::callable(name, [name, fn](std::vector<Value> args, Kwargs) -> Value {
            return fn(self_shape(args, name));
          }))};
}

std::string repr_of(const Shape& s) {
  if (!s.rank_known()) return "TensorShape(None)";
  std::string out = "TensorShape([";
  for (int i = 0; i < s.rank(); ++i) {
    out += (i ? ", " : "") + (s.dim(i) < 0 ? std::string("None") : std::to_string(s.dim(i)));
  }
  return out + "])";
}

Value make_the_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  attrs.emplace_back("__init__", Value::callable("__init__", [](std::vector<Value> args, Kwargs kwargs) -> Value {
                       if (!kwargs.empty() || args.size() != 2) {
                         throw TypeError("TensorShape.__init__() takes 1 positional argument (dims)");
                       }
                       auto st = std::make_shared<ShapeState>();
                       st->shape = shape_from_value(args[1]);
                       args[0].as_object().native = std::move(st);
                       return Value();
                     }));
  using Args = const std::vector<Value>&;
  attrs.push_back(shape_method("__repr__", 0, [](const Shape& s, Args) { return Value(repr_of(s)); }));
  attrs.push_back(shape_method("__str__", 0, [](const Shape& s, Args) { return Value(s.str()); }));
  attrs.push_back(shape_method("__len__", 0, [](const Shape& s, Args) {
    if (!s.rank_known()) throw ValueError("Cannot take the length of shape with unknown rank.");
    return Value(static_cast<int64_t>(s.rank()));
  }));
  attrs.push_back(shape_method("__bool__", 0, [](const Shape& s, Args) { return Value(s.rank_known()); }));
  attrs.push_back(shape_method("__iter__", 0, [](const Shape& s, Args) {
    if (!s.rank_known()) throw ValueError("Cannot iterate over a shape with unknown rank.");
    return Value::tuple(dim_values(s));
  }));
  attrs.push_back(shape_method("__getitem__", 1, [](const Shape& s, Args a) {
    const Value& key = a[1];
    if (!key.is_int() && !key.is_bool()) {
      throw TypeError("list indices must be integers or slices, not " + key.type_name());
    }
    if (!s.rank_known()) return Value();  // TF: an unknown dim
    int64_t i = key.as_int();
    if (i < 0) i += s.rank();
    if (i < 0 || i >= s.rank()) throw IndexError("list index out of range");
    return dim_value(s.dim(static_cast<int>(i)));
  }));
  attrs.push_back(shape_method("__eq__", 1, [](const Shape& s, Args a) {
    Shape other;
    try {
      other = shape_from_value(a[1]);
    } catch (const TypeError&) {
      return Value(false);  // TF returns NotImplemented: Python then compares identities
    }
    return Value(s.rank_known() == other.rank_known() && (!s.rank_known() || s == other));
  }));
  attrs.push_back(shape_method("as_list", 0, [](const Shape& s, Args) {
    if (!s.rank_known()) throw ValueError("as_list() is not defined on an unknown TensorShape.");
    return Value::list(dim_values(s));
  }));
  attrs.push_back(shape_method("is_fully_defined", 0, [](const Shape& s, Args) { return Value(s.fully_defined()); }));
  attrs.push_back(shape_method("num_elements", 0, [](const Shape& s, Args) {
    return s.fully_defined() ? Value(s.num_elements()) : Value();
  }));
  attrs.push_back(shape_method("concatenate", 1, [](const Shape& s, Args a) {
    Shape other = shape_from_value(a[1]);
    if (!s.rank_known() || !other.rank_known()) return tensor_shape(Shape::unknown_rank());
    Shape out = s;
    for (int64_t d : other.dims()) out.push_back(d);
    return tensor_shape(out);
  }));
  attrs.push_back(shape_method("is_compatible_with", 1, [](const Shape& s, Args a) {
    return Value(s.is_compatible_with(shape_from_value(a[1])));
  }));
  attrs.push_back(shape_method("merge_with", 1, [](const Shape& s, Args a) {
    Shape other = shape_from_value(a[1]);
    if (!s.is_compatible_with(other)) {
      throw ValueError("Shapes " + s.str() + " and " + other.str() + " are not compatible");
    }
    if (!s.rank_known()) return tensor_shape(other);
    Shape out = s;
    for (int i = 0; other.rank_known() && i < out.rank(); ++i) {
      if (out.dim(i) < 0) out.set_dim(i, other.dim(i));
    }
    return tensor_shape(out);
  }));
  auto rank = [](const Shape& s) { return s.rank_known() ? Value(static_cast<int64_t>(s.rank())) : Value(); };
  attrs.push_back(shape_property("rank", rank));
  attrs.push_back(shape_property("ndims", rank));
  attrs.push_back(
      shape_property("dims", [](const Shape& s) { return s.rank_known() ? Value::list(dim_values(s)) : Value(); }));
  return make_class("TensorShape", {}, std::move(attrs));
}

}  // namespace

const Value& tensor_shape_class() {
  static const Value* cls = new Value(make_the_class());  // never destroyed: no exit-order issues
  return *cls;
}

Value tensor_shape(const Shape& s) {
  Value v = Value::object("TensorShape");
  v.as_object().cls = tensor_shape_class();
  auto st = std::make_shared<ShapeState>();
  st->shape = s;
  v.as_object().native = std::move(st);
  return v;
}

Value tensor_shape_dims_for_conversion(const Shape& s) {
  if (!s.fully_defined()) throw ValueError("Cannot convert a partially known TensorShape " + s.str() + " to a Tensor.");
  std::vector<Value> dims;
  for (int64_t d : s.dims()) dims.emplace_back(d);
  return Value::list(std::move(dims));
}

std::optional<Shape> tensor_shape_of(const Value& v) {
  if (const ShapeState* st = native_state<ShapeState>(v)) return st->shape;
  return std::nullopt;
}

}  // namespace ag
