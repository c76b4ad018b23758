// The hand-written parts of the np.* rows (np_functions.def): types, array
// creation, shapes and combinations. The computing is runtime/value's
// ndarray_* functions; here arguments become their inputs as NumPy reads
// them. Math, reductions and comparisons are in np_bindings_math.cpp, random
// numbers in np_random.cpp.
#include <cmath>

#include "runtime/api/tf_call.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/ndarray_shape.h"
#include "runtime/value/numpy_dtype.h"

namespace ag::np::impl {
namespace {

using ndarray::to_array;

Value dtype_result(DType t) { return numpy::dtype_object(t); }

/// A shape argument's dims (NumPy's "negative dimensions are not allowed").
Shape new_shape(const Value& v) {
  std::vector<int64_t> dims = ndarray::shape_argument(v);
  for (int64_t d : dims) {
    if (d < 0) throw ValueError("negative dimensions are not allowed");
  }
  if (dims.size() > static_cast<size_t>(kMaxRank)) throw ValueError("agc's arrays have at most 8 dimensions");
  return Shape(std::span<const int64_t>(dims));
}

/// A tensor of `shape` whose every element is `fill` cast to `dtype`.
Tensor filled_tensor(const Shape& shape, DType dtype, const Value& fill) {
  Tensor one = to_array(fill, dtype);
  if (one.num_elements() != 1) {
    throw NotImplementedError("a fill value that is not a single number is not supported by agc");
  }
  Tensor out(dtype, shape);
  dispatch_dtype(dtype, [&]<class T>() {
    T v = one.data<T>()[0];
    T* p = out.data<T>();
    for (int64_t i = 0; i < out.num_elements(); ++i) p[i] = v;
  });
  return out;
}

std::vector<Tensor> arrays_of(const Value& seq) {
  if (!(seq.is_list() || seq.is_tuple() || seq.is_ndarray())) {
    throw TypeError("expected a sequence of arrays, got '" + seq.type_name() + "'");
  }
  std::vector<Tensor> out;
  for (const Value& v : iterate(seq)) out.push_back(to_array(v));
  return out;
}

/// np.atleast_1d / np.atleast_2d of one array.
Tensor at_least(const Tensor& t, int rank) {
  if (t.rank() >= rank) return t;
  if (rank == 1 || t.rank() == 0) return t.reshaped(rank == 1 ? Shape{1} : Shape{1, 1});
  return t.reshaped(Shape{1, t.shape().dim(0)});
}

}  // namespace

void no_out(const TfCall& c) {
  if (!c["out"].is_none()) throw NotImplementedError("the out= argument of NumPy functions is not supported by agc");
}

Value dtype(const TfCall& c) {
  std::optional<DType> t = numpy::dtype_argument(c["dtype"]);
  return dtype_result(t ? *t : DType::Float64);  // np.dtype(None) is float64
}

Value result_type(const TfCall& c) {
  std::vector<numpy::Operand> ops;
  for (const Value& a : c["arrays_and_dtypes"].items()) {
    if (a.is_str() || a.is_object() || a.is_callable()) {
      std::optional<DType> t = numpy::dtype_argument(a);
      ops.push_back({t ? *t : DType::Float64, false});
    } else if (a.is_bool() || a.is_int() || a.is_float()) {
      ops.push_back(numpy::python_operand(a));
    } else {
      ops.push_back(ndarray::operand_of(to_array(a)));
    }
  }
  if (ops.empty()) throw ValueError("at least one array or dtype is required");
  return dtype_result(numpy::result_type(ops));
}

Value promote_types(const TfCall& c) {
  std::optional<DType> a = numpy::dtype_argument(c["type1"]), b = numpy::dtype_argument(c["type2"]);
  return dtype_result(numpy::promote_types(a ? *a : DType::Float64, b ? *b : DType::Float64));
}

Value array(const TfCall& c) {
  const Value& obj = c["object"];
  Tensor t = to_array(obj, numpy::dtype_argument(c["dtype"]));
  if (truthy(c["copy"]) && obj.is_ndarray() && t.shares_storage_with(ndarray::tensor(obj))) t = t.clone();
  int64_t ndmin = c["ndmin"].as_int();
  if (t.rank() < ndmin) {
    std::vector<int64_t> dims(static_cast<size_t>(ndmin - t.rank()), 1);
    for (int64_t d : t.shape().dims()) dims.push_back(d);
    t = t.reshaped(Shape(std::span<const int64_t>(dims)));
  }
  return ndarray::array(std::move(t));
}

Value asarray(const TfCall& c) {
  const Value& a = c["a"];
  std::optional<DType> dt = numpy::dtype_argument(c["dtype"]);
  // An array of the asked dtype is returned as it is (the same object).
  if (a.is_ndarray() && !ndarray::is_scalar(a) && (!dt || *dt == ndarray::tensor(a).dtype())) return a;
  return ndarray::array(to_array(a, dt));
}

Value filled(const TfCall& c) {
  std::optional<DType> dt = numpy::dtype_argument(c["dtype"]);
  return ndarray::array(filled_tensor(new_shape(c["shape"]), dt ? *dt : DType::Float64,
                                      Value(static_cast<int64_t>(c.data() == "1"))));
}

Value full(const TfCall& c) {
  std::optional<DType> dt = numpy::dtype_argument(c["dtype"]);
  const Value& fill = c["fill_value"];
  return ndarray::array(filled_tensor(new_shape(c["shape"]), dt ? *dt : to_array(fill).dtype(), fill));
}

Value filled_like(const TfCall& c) {
  Tensor a = to_array(c["a"]);
  std::optional<DType> dt = numpy::dtype_argument(c["dtype"]);
  Shape shape = c["shape"].is_none() ? a.shape() : new_shape(c["shape"]);
  return ndarray::array(filled_tensor(shape, dt ? *dt : a.dtype(), Value(static_cast<int64_t>(c.data() == "1"))));
}

Value full_like(const TfCall& c) {
  Tensor a = to_array(c["a"]);
  std::optional<DType> dt = numpy::dtype_argument(c["dtype"]);
  Shape shape = c["shape"].is_none() ? a.shape() : new_shape(c["shape"]);
  return ndarray::array(filled_tensor(shape, dt ? *dt : a.dtype(), c["fill_value"]));
}

Value arange(const TfCall& c) {
  // NumPy's PyArray_ArangeObj: the length from Python arithmetic, the first
  // two values set, the rest filled as start + i * (second - first) in the
  // array's dtype.
  Value start = c["start"], stop = c["stop"], step = c["step"];
  if (stop.is_none()) {
    stop = start;
    start = Value(int64_t{0});
  }
  if (step.is_none()) step = Value(int64_t{1});
  for (Value* v : {&start, &stop, &step}) {
    if (v->is_ndarray()) *v = ndarray::python_number(*v);
    if (!v->is_number()) throw TypeError("unsupported operand type for arange: '" + v->type_name() + "'");
  }
  if (step.as_float() == 0) throw ZeroDivisionError("division by zero");
  std::optional<DType> given = numpy::dtype_argument(c["dtype"]);
  bool any_float = start.is_float() || stop.is_float() || step.is_float();
  DType dt = given ? *given : (any_float ? DType::Float64 : DType::Int64);
  double len_f = std::ceil((stop.as_float() - start.as_float()) / step.as_float());
  if (!std::isfinite(len_f)) throw ValueError("arange: cannot compute length");
  auto len = static_cast<int64_t>(std::max(len_f, 0.0));
  Tensor out(dt, Shape{len});
  dispatch_dtype(dt, [&]<class T>() {
    if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bfloat16>) {
      throw NotImplementedError("np.arange of this dtype is not supported by agc");
    } else {
      // The first two values converted from Python's numbers, the rest filled.
      T* p = out.data<T>();
      if (len == 0) return;
      Tensor two = to_array(Value::list({start, start + step}), dt);
      p[0] = two.data<T>()[0];
      if (len == 1) return;
      p[1] = two.data<T>()[1];
      if constexpr (std::is_same_v<T, bool>) {
        if (len > 2) throw ValueError("no fill-function for data-type.");
      } else if constexpr (std::is_floating_point_v<T>) {
        T delta = p[1] - p[0];
        for (int64_t i = 2; i < len; ++i) p[i] = p[0] + static_cast<T>(i) * delta;
      } else {
        int64_t first = p[0], delta = static_cast<int64_t>(p[1]) - first;
        for (int64_t i = 2; i < len; ++i) p[i] = static_cast<T>(first + i * delta);
      }
    }
  });
  return ndarray::array(std::move(out));
}

Value linspace(const TfCall& c) {
  if (c["axis"].as_int() != 0) throw NotImplementedError("np.linspace with axis= is not supported by agc");
  int64_t num = c["num"].as_int();
  if (num < 0) throw ValueError("Number of samples, " + std::to_string(num) + ", must be non-negative.");
  Value start_v = c["start"], stop_v = c["stop"];
  for (const Value* v : {&start_v, &stop_v}) {
    if (v->is_ndarray() && ndarray::tensor(*v).rank() != 0) {
      throw NotImplementedError("np.linspace between arrays is not supported by agc (start and stop must be numbers)");
    }
  }
  double start = start_v.as_float(), stop = stop_v.as_float();
  bool endpoint = truthy(c["endpoint"]);
  int64_t div = endpoint ? num - 1 : num;
  double delta = stop - start;
  // NumPy's steps: y = arange(num) * step + start (or / div * delta when the
  // step underflows to 0), the last value set to stop.
  Tensor y(DType::Float64, Shape{num});
  double* p = y.data<double>();
  double step = div > 0 ? delta / static_cast<double>(div) : std::nan("");
  for (int64_t i = 0; i < num; ++i) {
    double v;
    if (div > 0) {
      v = step == 0 ? static_cast<double>(i) / static_cast<double>(div) * delta : static_cast<double>(i) * step;
    } else {
      v = static_cast<double>(i) * delta;
    }
    p[i] = v + start;
  }
  if (endpoint && num > 1) p[num - 1] = stop;
  std::optional<DType> dt = numpy::dtype_argument(c["dtype"]);
  Tensor out = y;
  if (dt && *dt != DType::Float64) {
    if (is_integer(*dt)) {
      for (int64_t i = 0; i < num; ++i) p[i] = std::floor(p[i]);
    }
    out = ndarray::cast(y, *dt);
  }
  Value arr = ndarray::array(std::move(out));
  if (truthy(c["retstep"])) return Value::tuple({arr, Value(step)});
  return arr;
}

Value eye(const TfCall& c) {
  int64_t n = c["N"].as_int();
  int64_t m = c["M"].is_none() ? n : c["M"].as_int();
  int64_t k = c["k"].as_int();
  std::optional<DType> dt = numpy::dtype_argument(c["dtype"]);
  Shape shape = new_shape(Value::tuple({Value(n), Value(m)}));
  Tensor out = filled_tensor(shape, dt ? *dt : DType::Float64, Value(int64_t{0}));
  Tensor one = to_array(Value(int64_t{1}), out.dtype());
  dispatch_dtype(out.dtype(), [&]<class T>() {
    T* p = out.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      int64_t j = i + k;
      if (j >= 0 && j < m) p[i * m + j] = one.data<T>()[0];
    }
  });
  return ndarray::array(std::move(out));
}

Value identity(const TfCall& c) {
  int64_t n = c["n"].as_int();
  std::optional<DType> dt = numpy::dtype_argument(c["dtype"]);
  Shape shape = new_shape(Value::tuple({Value(n), Value(n)}));
  Tensor out = filled_tensor(shape, dt ? *dt : DType::Float64, Value(int64_t{0}));
  Tensor one = to_array(Value(int64_t{1}), out.dtype());
  dispatch_dtype(out.dtype(), [&]<class T>() {
    for (int64_t i = 0; i < n; ++i) out.data<T>()[i * n + i] = one.data<T>()[0];
  });
  return ndarray::array(std::move(out));
}

Value copy(const TfCall& c) { return ndarray::array(to_array(c["a"]).clone()); }

// ---- Shapes and combinations.

Value shape(const TfCall& c) {
  std::vector<Value> dims;
  Tensor a = to_array(c["a"]);
  for (int64_t d : a.shape().dims()) dims.emplace_back(d);
  return Value::tuple(std::move(dims));
}

Value ndim(const TfCall& c) { return Value(static_cast<int64_t>(to_array(c["a"]).rank())); }

Value size(const TfCall& c) {
  Tensor a = to_array(c["a"]);
  if (c["axis"].is_none()) return Value(a.num_elements());
  int64_t axis = c["axis"].as_int();
  if (axis < -a.rank() || axis >= a.rank()) {
    throw IndexError("tuple index out of range");
  }
  return Value(a.shape().dim(static_cast<int>(axis < 0 ? axis + a.rank() : axis)));
}

Value reshape(const TfCall& c) {
  if (!c["order"].is_str() || c["order"].as_str() != "C") {
    throw NotImplementedError("np.reshape with an order other than 'C' is not supported by agc");
  }
  return ndarray::array(ndarray::reshape(to_array(c["a"]), ndarray::shape_argument(c["newshape"])));
}

Value ravel(const TfCall& c) {
  Tensor a = to_array(c["a"]);
  return ndarray::array(a.clone().reshaped(Shape{a.num_elements()}));
}

Value transpose(const TfCall& c) { return ndarray::array(ndarray::transpose(to_array(c["a"]), c["axes"])); }

Value squeeze(const TfCall& c) { return ndarray::array(ndarray::squeeze(to_array(c["a"]), c["axis"])); }

Value expand_dims(const TfCall& c) { return ndarray::array(ndarray::expand_dims(to_array(c["a"]), c["axis"])); }

Value concatenate(const TfCall& c) {
  no_out(c);
  Tensor t = ndarray::concatenate(arrays_of(c["arrays"]), c["axis"]);
  if (std::optional<DType> dt = numpy::dtype_argument(c["dtype"])) t = ndarray::cast(t, *dt);
  return ndarray::array(std::move(t));
}

Value stack(const TfCall& c) {
  no_out(c);
  return ndarray::array(ndarray::stack(arrays_of(c["arrays"]), c["axis"].as_int()));
}

Value vstack(const TfCall& c) {
  std::vector<Tensor> arrays = arrays_of(c["tup"]);
  for (Tensor& t : arrays) t = at_least(t, 2);
  return ndarray::array(ndarray::concatenate(arrays, Value(int64_t{0})));
}

Value hstack(const TfCall& c) {
  std::vector<Tensor> arrays = arrays_of(c["tup"]);
  for (Tensor& t : arrays) t = at_least(t, 1);
  int64_t axis = !arrays.empty() && arrays[0].rank() == 1 ? 0 : 1;
  return ndarray::array(ndarray::concatenate(arrays, Value(axis)));
}

}  // namespace ag::np::impl
