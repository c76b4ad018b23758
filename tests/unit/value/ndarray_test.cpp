// NumPy values (runtime/value/ndarray*.h, numpy_dtype.h): promotion, the
// discovery of np.asarray, indexing and item assignment, the order of float
// sums, and that .numpy() copies. Expected values come from NumPy 1.24
// (np.promote_types, np.result_type, np.sum printed with float.hex).
#include <doctest/doctest.h>

#include <cmath>

#include "runtime/value/ndarray.h"
#include "runtime/value/ndarray_math.h"
#include "runtime/value/ndarray_reduce.h"
#include "runtime/value/numpy_dtype.h"
#include "tests/unit/error_text.h"

using namespace ag;
using ag::test::error_text;

namespace {

Value arr(std::vector<double> v) {
  return ndarray::array(Tensor::from_vector<double>(Shape{static_cast<int64_t>(v.size())}, v));
}

/// The float32 data NumPy summed: (np.sin(np.arange(n)) * 100).astype(np.float32).
Tensor sines(int64_t rows, int64_t cols) {
  Tensor t(DType::Float32, Shape{rows, cols});
  for (int64_t i = 0; i < rows * cols; ++i) t.data<float>()[i] = static_cast<float>(std::sin(static_cast<double>(i)) * 100);
  return t;
}

double as_double(const Value& v) { return v.as_float(); }

}  // namespace

TEST_CASE("np.promote_types over agc's NumPy dtypes") {
  const DType types[] = {DType::Bool, DType::Int8, DType::UInt8, DType::Int32, DType::Int64, DType::Float32, DType::Float64};
  // NumPy 1.24's table; "" where the result (int16) has no agc dtype.
  const char* table[7][7] = {
      {"bool", "int8", "uint8", "int32", "int64", "float32", "float64"},
      {"int8", "int8", "", "int32", "int64", "float32", "float64"},
      {"uint8", "", "uint8", "int32", "int64", "float32", "float64"},
      {"int32", "int32", "int32", "int32", "int64", "float64", "float64"},
      {"int64", "int64", "int64", "int64", "int64", "float64", "float64"},
      {"float32", "float32", "float32", "float64", "float64", "float32", "float64"},
      {"float64", "float64", "float64", "float64", "float64", "float64", "float64"},
  };
  for (int i = 0; i < 7; ++i) {
    for (int j = 0; j < 7; ++j) {
      CAPTURE(i);
      CAPTURE(j);
      if (*table[i][j] == '\0') {
        CHECK(error_text([&] { numpy::promote_types(types[i], types[j]); }).starts_with(
            "NotImplementedError: agc does not support the NumPy dtype int16"));
      } else {
        CHECK(std::string(numpy::dtype_name(numpy::promote_types(types[i], types[j]))) == table[i][j]);
      }
    }
  }
}

TEST_CASE("NumPy 1.24's value-based result type of an array and a scalar") {
  auto with_scalar = [](DType array, Value scalar) {
    numpy::Operand ops[2] = {{array, false}, numpy::python_operand(scalar)};
    return std::string(numpy::dtype_name(numpy::result_type(ops)));
  };
  CHECK(with_scalar(DType::Int8, Value(100)) == "int8");
  CHECK(error_text([&] { with_scalar(DType::Int8, Value(200)); }).find("int16") != std::string::npos);
  CHECK(with_scalar(DType::Int32, Value(int64_t{1} << 40)) == "int64");
  CHECK(with_scalar(DType::Float32, Value(1e39)) == "float64");
  CHECK(with_scalar(DType::Float32, Value(70000.0)) == "float32");
  CHECK(with_scalar(DType::Float32, Value(std::nan(""))) == "float32");
  CHECK(with_scalar(DType::Int32, Value(1.5)) == "float64");
  CHECK(with_scalar(DType::Bool, Value(1)) == "int64");
  CHECK(with_scalar(DType::Bool, Value(true)) == "bool");
  CHECK(with_scalar(DType::UInt8, Value(1.0)) == "float64");
  // A NumPy scalar operand counts by value too: float32 array * np.float64(2.0) is float32.
  numpy::Operand f64_scalar{DType::Float64, true, 0, 2.0};
  numpy::Operand ops[2] = {{DType::Float32, false}, f64_scalar};
  CHECK(numpy::result_type(ops) == DType::Float32);
  // Only scalars: plain promotion (np.float32(1) + 1.0 is float64).
  numpy::Operand scalars[2] = {{DType::Float32, true, 0, 1.0}, numpy::python_operand(Value(1.0))};
  CHECK(numpy::result_type(scalars) == DType::Float64);
}

TEST_CASE("np.asarray discovers NumPy's dtypes and rejects ragged nesting") {
  CHECK(ndarray::to_array(Value::list({Value(1), Value(2.5)})).dtype() == DType::Float64);
  CHECK(ndarray::to_array(Value::list({Value(true), Value(2)})).dtype() == DType::Int64);
  CHECK(ndarray::to_array(Value::list({})).dtype() == DType::Float64);
  Value f32 = ndarray::scalar(Tensor::scalar<float>(1.0f));
  CHECK(ndarray::to_array(Value::list({f32, f32})).dtype() == DType::Float32);
  CHECK(ndarray::to_array(Value::list({f32, Value(2.0)})).dtype() == DType::Float64);
  CHECK(error_text([] { ndarray::to_array(Value::list({Value::list({Value(1), Value(2)}), Value::list({Value(3)})})); }) ==
        "ValueError: setting an array element with a sequence. The requested array has an inhomogeneous shape "
        "after 1 dimensions. The detected shape was (2,) + inhomogeneous part.");
  CHECK(error_text([] { ndarray::to_array(Value("abc")); }).starts_with("NotImplementedError: NumPy arrays of Python str"));
}

TEST_CASE("indexing reads NumPy's scalars and arrays, and item assignment leaves the tensor .numpy() read alone") {
  Tensor t = Tensor::from_vector<float>(Shape{2, 2}, {1, 2, 3, 4});
  Value a = ndarray::result(t);
  Value row = getitem(a, Value(1));
  CHECK(repr(row) == "array([3., 4.], dtype=float32)");
  Value x = getitem(a, Value::tuple({Value(0), Value(-1)}));
  CHECK(ndarray::is_scalar(x));
  CHECK(repr(x) == "2.0");
  setitem(a, Value::tuple({Value(0), Value(0)}), Value(9));
  CHECK(str(a) == "[[9. 2.]\n [3. 4.]]");
  CHECK(t.data<float>()[0] == 1.0f);
  setitem(a, std::vector<IndexPart>{SliceSpec{}, IndexPart(Value(1))}, Value::list({Value(7), Value(8)}));
  CHECK(str(a) == "[[9. 7.]\n [3. 8.]]");
  CHECK(error_text([&] { setitem(a, std::vector<IndexPart>{SliceSpec{}}, Value::list({Value(1), Value(2), Value(3)})); }) ==
        "ValueError: could not broadcast input array from shape (3,) into shape (2, 2)");
  Value mask = ndarray::apply(ndarray::Binary::Greater, a, Value(5));
  CHECK(str(getitem(a, mask)) == "[9. 7. 8.]");
  CHECK(error_text([&] { getitem(a, Value(2)); }) == "IndexError: index 2 is out of bounds for axis 0 with size 2");
}

TEST_CASE("float sums add as NumPy's do: pairwise within blocks of 8192") {
  // np.sum of the float32 data, and of it as float64, as float.hex printed them.
  struct Row {
    int64_t n;
    double sum32, mean32, sum64;
  };
  const Row rows[] = {
      {7, -0x1.4a698cp+3, -0x1.799d32p+0, -0x1.4a699ap+3},
      {100, 0x1.2f5b1p+5, 0x1.844b9ap-2, 0x1.2f5b1008p+5},
      {1000, -0x1.4a78p+0, -0x1.526666p-10, -0x1.4a79102bp+0},
      {8192, 0x1.c22378p+6, 0x1.c22378p-7, 0x1.c223678524p+6},
      {20000, -0x1.8012p+3, -0x1.3aa162p-11, -0x1.8012d866ep+3},
      {100000, 0x1.6a686ep+7, 0x1.db03ecp-10, 0x1.6a6808f392p+7},
  };
  for (const Row& r : rows) {
    CAPTURE(r.n);
    Value a = ndarray::array(sines(1, r.n).reshaped(Shape{r.n}));
    ndarray::ReduceOptions all;
    CHECK(as_double(ndarray::reduce(ndarray::Reduction::Sum, a, all)) == r.sum32);
    CHECK(as_double(ndarray::reduce(ndarray::Reduction::Mean, a, all)) == r.mean32);
    ndarray::ReduceOptions f64;
    f64.dtype = DType::Float64;
    CHECK(as_double(ndarray::reduce(ndarray::Reduction::Sum, a, f64)) == r.sum64);
  }
  Value m = ndarray::array(sines(3, 5000));
  ndarray::ReduceOptions axis1;
  axis1.axis = Value(1);
  Value s = ndarray::reduce(ndarray::Reduction::Sum, m, axis1);
  CHECK(ndarray::tensor(s).data<float>()[0] == 0x1.fb112p+6f);
  CHECK(ndarray::tensor(s).data<float>()[2] == -0x1.a7f01p+6f);
  ndarray::ReduceOptions axis0;
  axis0.axis = Value(0);
  CHECK(ndarray::tensor(ndarray::reduce(ndarray::Reduction::Sum, m, axis0)).data<float>()[7] == -0x1.50dfc2p+6f);
  CHECK(as_double(ndarray::reduce(ndarray::Reduction::Var, m, {})) == 0x1.387d1ep+12);
  CHECK(ndarray::tensor(ndarray::reduce(ndarray::Reduction::Std, m, axis1)).data<float>()[2] == 0x1.1ad5d8p+6f);
  CHECK(error_text([&] { ndarray::reduce(ndarray::Reduction::Max, arr({}), {}); }) ==
        "ValueError: zero-size array to reduction operation maximum which has no identity");
}
