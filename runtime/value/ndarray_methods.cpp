// The attributes and methods of ndarrays and NumPy scalars (a.shape,
// a.dtype, a.sum(axis=0), a.reshape(2, 3), x.item(), b'..'.decode()), bound
// with Python's argument rules and computed by the ndarray_* functions the
// np module calls too.
#include "runtime/value/ndarray.h"
#include "runtime/value/ndarray_math.h"
#include "runtime/value/ndarray_reduce.h"
#include "runtime/value/ndarray_shape.h"
#include "runtime/value/numpy_dtype.h"
#include "runtime/value/user_function.h"

namespace ag::ndarray {
namespace {

using Fn = std::function<Value(const std::vector<Value>&)>;

/// A method of `self` with Python's binding of `params` ("ndarray.sum()" in errors).
Value method(const std::string& name, std::vector<Param> params, Fn fn) {
  return Value::callable(name, [name, params = std::move(params), fn = std::move(fn)](std::vector<Value> args,
                                                                                      Kwargs kwargs) {
    return fn(bind_arguments(name, params, std::move(args), std::move(kwargs)));
  });
}

/// A method taking its arguments as Python passed them (varargs shapes).
Value raw_method(const std::string& name, CallFn fn) { return Value::callable(name, std::move(fn)); }

Value shape_tuple(const Shape& s) {
  std::vector<Value> dims;
  for (int64_t d : s.dims()) dims.emplace_back(d);
  return Value::tuple(std::move(dims));
}

/// The dims of `a.reshape(2, 3)` / `a.reshape((2, 3))`.
std::vector<int64_t> varargs_shape(const std::vector<Value>& args) {
  if (args.size() == 1) return shape_argument(args[0]);
  std::vector<int64_t> dims;
  for (const Value& a : args) dims.push_back(a.as_int());
  return dims;
}

Value reduction(const Value& self, Reduction r, const std::string& name) {
  bool accumulates = r == Reduction::Sum || r == Reduction::Prod || r == Reduction::Mean || r == Reduction::Var ||
                     r == Reduction::Std;
  std::vector<Param> params{{"axis", Value()}};
  if (accumulates) params.push_back({"dtype", Value()});
  params.push_back({"out", Value()});
  params.push_back({"keepdims", Value(false)});
  if (r == Reduction::Var || r == Reduction::Std) params.push_back({"ddof", Value(int64_t{0})});
  return method(name, std::move(params), [self, r, accumulates](const std::vector<Value>& a) {
    size_t i = 0;
    ReduceOptions o;
    o.axis = a[i++];
    if (accumulates) o.dtype = numpy::dtype_argument(a[i++]);
    if (!a[i++].is_none()) throw NotImplementedError("the out= argument of NumPy reductions is not supported by agc");
    o.keepdims = ag::truthy(a[i++]);
    if (r == Reduction::Var || r == Reduction::Std) o.ddof = a[i++].as_int();
    return reduce(r, self, o);
  });
}

}  // namespace

Value getattr(const Value& self, std::string_view name) {
  const Tensor& t = tensor(self);
  const std::string n(name);
  if (name == "shape") return shape_tuple(t.shape());
  if (name == "dtype") return numpy::dtype_object(t.dtype());
  if (name == "ndim") return Value(static_cast<int64_t>(t.rank()));
  if (name == "size") return Value(t.num_elements());
  if (name == "itemsize") return Value(static_cast<int64_t>(t.dtype() == DType::String ? 8 : dtype_size(t.dtype())));
  if (name == "nbytes") {
    return Value(t.num_elements() * static_cast<int64_t>(t.dtype() == DType::String ? 8 : dtype_size(t.dtype())));
  }
  if (name == "T") return result(transpose(t, Value()));
  if (name == "tolist") return method(n, {}, [t](const std::vector<Value>&) { return tolist(t); });
  if (name == "item") {
    return raw_method(n, [t](std::vector<Value> args, Kwargs kwargs) -> Value {
      if (!kwargs.empty()) throw TypeError("item() takes no keyword arguments");
      if (args.empty()) {
        if (t.num_elements() != 1) throw ValueError("can only convert an array of size 1 to a Python scalar");
        return item(t, 0);
      }
      if (args.size() != 1) throw NotImplementedError("item() with several indices is not supported by agc");
      int64_t i = args[0].as_int(), size = t.num_elements();
      if (i < -size || i >= size) throw IndexError("index " + std::to_string(i) + " is out of bounds for size " + std::to_string(size));
      return item(t, i < 0 ? i + size : i);
    });
  }
  if (name == "astype") {
    return method(n, {{"dtype"}, {"order", Value("K")}, {"casting", Value("unsafe")}, {"subok", Value(true)}, {"copy", Value(true)}},
                  [self](const std::vector<Value>& a) {
                    std::optional<DType> dt = numpy::dtype_argument(a[0]);
                    Tensor c = cast(tensor(self), dt ? *dt : DType::Float64);
                    if (c.shares_storage_with(tensor(self))) c = c.clone();
                    return is_scalar(self) ? scalar(std::move(c)) : array(std::move(c));
                  });
  }
  if (name == "copy") {
    return method(n, {{"order", Value("C")}}, [self](const std::vector<Value>&) {
      return is_scalar(self) ? self : array(tensor(self).clone());
    });
  }
  if (name == "reshape") {
    return raw_method(n, [t](std::vector<Value> args, Kwargs) -> Value {
      if (args.empty()) throw TypeError("reshape() missing required argument 'shape' (pos 1)");
      return array(reshape(t, varargs_shape(args)));
    });
  }
  if (name == "flatten" || name == "ravel") {
    return method(n, {{"order", Value("C")}}, [t](const std::vector<Value>&) {
      return array(t.clone().reshaped(Shape{t.num_elements()}));
    });
  }
  if (name == "transpose") {
    return raw_method(n, [t](std::vector<Value> args, Kwargs) -> Value {
      if (args.empty() || (args.size() == 1 && args[0].is_none())) return result(transpose(t, Value()));
      return result(transpose(t, args.size() == 1 ? args[0] : Value::tuple(args)));
    });
  }
  if (name == "squeeze") {
    return method(n, {{"axis", Value()}}, [t](const std::vector<Value>& a) { return result(squeeze(t, a[0])); });
  }
  if (name == "sum") return reduction(self, Reduction::Sum, n);
  if (name == "prod") return reduction(self, Reduction::Prod, n);
  if (name == "mean") return reduction(self, Reduction::Mean, n);
  if (name == "var") return reduction(self, Reduction::Var, n);
  if (name == "std") return reduction(self, Reduction::Std, n);
  if (name == "max") return reduction(self, Reduction::Max, n);
  if (name == "min") return reduction(self, Reduction::Min, n);
  if (name == "any") return reduction(self, Reduction::Any, n);
  if (name == "all") return reduction(self, Reduction::All, n);
  if (name == "argmax" || name == "argmin") {
    Reduction r = name == "argmax" ? Reduction::ArgMax : Reduction::ArgMin;
    return method(n, {{"axis", Value()}, {"out", Value()}, {"keepdims", Value(false)}}, [self, r](const std::vector<Value>& a) {
      ReduceOptions o;
      o.axis = a[0];
      o.keepdims = ag::truthy(a[2]);
      return reduce(r, self, o);
    });
  }
  if (name == "cumsum" || name == "cumprod") {
    bool product = name == "cumprod";
    return method(n, {{"axis", Value()}, {"dtype", Value()}, {"out", Value()}}, [self, product](const std::vector<Value>& a) {
      return cumulative(product, self, a[0], numpy::dtype_argument(a[1]));
    });
  }
  if (name == "clip") {
    return method(n, {{"min", Value()}, {"max", Value()}}, [self](const std::vector<Value>& a) {
      Value r = self;
      if (!a[0].is_none()) r = apply(Binary::Maximum, r, a[0]);
      if (!a[1].is_none()) r = apply(Binary::Minimum, r, a[1]);
      return r;
    });
  }
  if (name == "round") {
    return method(n, {{"decimals", Value(int64_t{0})}, {"out", Value()}},
                  [self](const std::vector<Value>& a) { return around(self, a[0].as_int()); });
  }
  if (name == "dot") {
    return method(n, {{"b"}, {"out", Value()}}, [self](const std::vector<Value>& a) { return matmul(self, a[0]); });
  }
  throw AttributeError("'" + type_name(self) + "' object has no attribute '" + n + "'");
}

}  // namespace ag::ndarray
