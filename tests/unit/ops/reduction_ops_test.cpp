// Sweep cases for reduction_ops.cpp: every reduction against a naive loop over
// random shapes (zero-size dims included), axis lists and dtypes; error texts.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "runtime/ops/eager.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("Sum", "Mean", "Prod", "Max", "Min", "Any", "All", "ArgMax", "ArgMin", "Cumsum", "Cumprod");
AG_SWEEP_COVERS("EuclideanNorm");

namespace {

Tensor index_tensor(const std::vector<int64_t>& v, DType t, bool scalar) {
  Shape s = scalar ? Shape{} : Shape{static_cast<int64_t>(v.size())};
  if (t == DType::Int32) {
    std::vector<int32_t> w(v.begin(), v.end());
    return Tensor::from_vector<int32_t>(s, w);
  }
  return Tensor::from_vector<int64_t>(s, v);
}

// Stores a double into element i of t (wrapping integers as the kernels do).
void store(Tensor& t, int64_t i, double v, uint64_t wrapped) {
  dispatch_dtype(t.dtype(), [&]<class T>() {
    if constexpr (std::is_same_v<T, std::string>) {
    } else if constexpr (std::is_same_v<T, bfloat16>) {
      t.data<T>()[i] = bfloat16(static_cast<float>(v));
    } else if constexpr (std::is_same_v<T, bool>) {
      t.data<T>()[i] = v != 0;
    } else if constexpr (std::is_integral_v<T>) {
      t.data<T>()[i] = static_cast<T>(static_cast<std::make_unsigned_t<T>>(wrapped));
    } else {
      t.data<T>()[i] = static_cast<T>(v);
    }
  });
}

// Multi-index helpers over row-major shapes.
std::vector<int64_t> unravel(int64_t i, const Shape& s) {
  std::vector<int64_t> idx(static_cast<size_t>(s.rank()));
  for (int d = s.rank() - 1; d >= 0; --d) {
    idx[static_cast<size_t>(d)] = i % s.dim(d);
    i /= s.dim(d);
  }
  return idx;
}

Tensor reference_reduce(const std::string& op, const Tensor& in, const std::vector<bool>& bitmap, bool keep) {
  const Shape& s = in.shape();
  Shape out_shape, dense;
  for (int d = 0; d < s.rank(); ++d) {
    if (!bitmap[static_cast<size_t>(d)]) {
      out_shape.push_back(s.dim(d));
      dense.push_back(s.dim(d));
    } else if (keep) {
      out_shape.push_back(1);
    }
  }
  int64_t n_out = dense.num_elements();
  bool integer = is_integer(in.dtype());
  double init = op == "Prod" || op == "All" ? 1 : 0;
  if (op == "Max") init = integer ? 0 : -INFINITY;
  if (op == "Min") init = integer ? 0 : INFINITY;
  std::vector<double> acc(static_cast<size_t>(n_out), init);
  std::vector<uint64_t> wacc(static_cast<size_t>(n_out), op == "Prod" ? 1 : 0);
  std::vector<bool> seen(static_cast<size_t>(n_out), false);
  int64_t count = 1;
  for (int d = 0; d < s.rank(); ++d) {
    if (bitmap[static_cast<size_t>(d)]) count *= s.dim(d);
  }
  for (int64_t i = 0; i < in.num_elements(); ++i) {
    std::vector<int64_t> idx = unravel(i, s);
    int64_t o = 0;
    for (int d = 0; d < s.rank(); ++d) {
      if (!bitmap[static_cast<size_t>(d)]) o = o * s.dim(d) + idx[static_cast<size_t>(d)];
    }
    double v = sweep::element(in, i);
    double& a = acc[static_cast<size_t>(o)];
    uint64_t& w = wacc[static_cast<size_t>(o)];
    uint64_t wv = static_cast<uint64_t>(static_cast<int64_t>(v));
    if (op == "Sum" || op == "Mean") { a += v; w += wv; }
    else if (op == "EuclideanNorm") a += v * v;
    else if (op == "Prod") { a *= v; w *= wv; }
    else if (op == "Max") { a = !seen[static_cast<size_t>(o)] || v > a || std::isnan(v) ? (std::isnan(a) ? a : v) : a; }
    else if (op == "Min") { a = !seen[static_cast<size_t>(o)] || v < a || std::isnan(v) ? (std::isnan(a) ? a : v) : a; }
    else if (op == "Any") a = a != 0 || v != 0;
    else if (op == "All") a = a != 0 && v != 0;
    seen[static_cast<size_t>(o)] = true;
    if (op == "Max" || op == "Min") w = static_cast<uint64_t>(static_cast<int64_t>(a));
  }
  Tensor out(in.dtype(), out_shape);
  for (int64_t o = 0; o < n_out; ++o) {
    double a = acc[static_cast<size_t>(o)];
    uint64_t w = wacc[static_cast<size_t>(o)];
    if ((op == "Max" || op == "Min") && !seen[static_cast<size_t>(o)] && integer) {
      // Empty integer max/min: the type's lowest/highest value.
      dispatch_dtype(in.dtype(), [&]<class T>() {
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
          T v = op == "Max" ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
          a = static_cast<double>(v);
          w = static_cast<uint64_t>(static_cast<int64_t>(v));
        }
      });
    }
    if (op == "EuclideanNorm") a = std::sqrt(a);
    if (op == "Mean") {
      if (integer) {
        int64_t sum = static_cast<int64_t>(w);
        w = count == 0 ? 0 : static_cast<uint64_t>(sum / count);
      } else {
        a /= static_cast<double>(count);
      }
    }
    store(out, o, a, w);
  }
  return out;
}

std::vector<bool> random_axes(int rank, std::vector<int64_t>& axes) {
  std::vector<bool> bitmap(static_cast<size_t>(rank), false);
  axes.clear();
  for (int d = 0; d < rank; ++d) {
    if (sweep::rng()() % 2) {
      bitmap[static_cast<size_t>(d)] = true;
      axes.push_back(sweep::rng()() % 2 ? d : d - rank);
    }
  }
  // Any order.
  for (size_t i = axes.size(); i > 1; --i) std::swap(axes[i - 1], axes[sweep::rng()() % i]);
  return bitmap;
}

Tensor reduce(const std::string& op, const Tensor& in, const Tensor& axes, bool keep) {
  std::vector<Tensor> args{in, axes};
  return run1(OpType{op}, args, Attrs{{"keep_dims", keep}});
}

const DType kNumeric[] = {DType::Float32, DType::Float64, DType::Int32, DType::Int64,
                          DType::BFloat16, DType::Int8,    DType::UInt8};

}  // namespace

TEST_CASE("Sum, Mean, Prod, Max and Min match a naive loop") {
  for (const char* op : {"Sum", "Mean", "Prod", "Max", "Min"}) {
    for (DType dt : kNumeric) {
      for (int trial = 0; trial < 12; ++trial) {
        Shape s = sweep::random_shape(4, 4);
        bool prod = std::string(op) == "Prod";
        Tensor in = sweep::random_tensor(dt, s, prod ? 0.5 : -5, prod ? 1.5 : 5);
        if (prod && is_integer(dt)) in = sweep::random_tensor(dt, s, dt == DType::UInt8 ? 0 : -2, 2);
        std::vector<int64_t> axes;
        std::vector<bool> bitmap = random_axes(s.rank(), axes);
        bool keep = sweep::rng()() % 2;
        DType it = sweep::rng()() % 2 ? DType::Int32 : DType::Int64;
        bool scalar = axes.size() == 1 && sweep::rng()() % 2;
        Tensor got = reduce(op, in, index_tensor(axes, it, scalar), keep);
        std::string what = std::string(op) + " " + dtype_name(dt) + " " + s.str() + " keep=" + std::to_string(keep);
        double rtol = dt == DType::BFloat16 ? 2e-2 : dt == DType::Float32 ? 1e-5 : 1e-12;
        sweep::expect_close(got, reference_reduce(op, in, bitmap, keep), what, rtol, dt == DType::BFloat16 ? 0.1 : 1e-5);
      }
    }
  }
}

TEST_CASE("EuclideanNorm matches a naive loop on floats; an integer norm is truncated") {
  for (DType dt : {DType::Float32, DType::Float64, DType::BFloat16}) {
    for (int trial = 0; trial < 16; ++trial) {
      Shape s = sweep::random_shape(4, 4);
      Tensor in = sweep::random_tensor(dt, s);
      std::vector<int64_t> axes;
      std::vector<bool> bitmap = random_axes(s.rank(), axes);
      bool keep = sweep::rng()() % 2;
      Tensor got = reduce("EuclideanNorm", in, index_tensor(axes, DType::Int32, false), keep);
      std::string what = std::string("EuclideanNorm ") + dtype_name(dt) + " " + s.str();
      double rtol = dt == DType::BFloat16 ? 2e-2 : dt == DType::Float32 ? 1e-5 : 1e-12;
      sweep::expect_close(got, reference_reduce("EuclideanNorm", in, bitmap, keep), what, rtol, 1e-5);
    }
  }
  // TF's docstring example: sqrt(17) as int32 is 4.
  Tensor x = Tensor::from_vector<int32_t>(Shape{2, 3}, {1, 2, 3, 1, 1, 1});
  CHECK(reduce("EuclideanNorm", x, index_tensor({0, 1}, DType::Int32, false), false).scalar_value<int32_t>() == 4);
  // A reduction over a size-1 axis still takes the norm: |x|.
  Tensor col = Tensor::from_vector<float>(Shape{2, 1}, {-3.0f, 4.0f});
  Tensor norm = reduce("EuclideanNorm", col, index_tensor({1}, DType::Int32, false), false);
  CHECK(norm.data<float>()[0] == 3.0f);
  CHECK(norm.data<float>()[1] == 4.0f);
}

TEST_CASE("Any and All match a naive loop") {
  for (const char* op : {"Any", "All"}) {
    for (int trial = 0; trial < 30; ++trial) {
      Shape s = sweep::random_shape(4, 4);
      Tensor in = sweep::random_tensor(DType::Bool, s);
      std::vector<int64_t> axes;
      std::vector<bool> bitmap = random_axes(s.rank(), axes);
      bool keep = sweep::rng()() % 2;
      Tensor got = reduce(op, in, index_tensor(axes, DType::Int32, false), keep);
      sweep::expect_close(got, reference_reduce(op, in, bitmap, keep), std::string(op) + " " + s.str());
    }
  }
}

TEST_CASE("reductions: identities, NaN, integer mean, big inputs") {
  Tensor empty = Tensor::zeros(DType::Float32, Shape{0, 3});
  Tensor ax0 = index_tensor({0}, DType::Int32, true);
  CHECK(reduce("Sum", empty, ax0, false).data<float>()[2] == 0.0f);
  CHECK(reduce("Prod", empty, ax0, false).data<float>()[0] == 1.0f);
  CHECK(reduce("Max", empty, ax0, false).data<float>()[0] == -INFINITY);
  CHECK(reduce("Min", empty, ax0, false).data<float>()[1] == INFINITY);
  CHECK(std::isnan(reduce("Mean", empty, ax0, false).data<float>()[0]));
  Tensor iempty = Tensor::zeros(DType::Int32, Shape{0, 2});
  CHECK(reduce("Max", iempty, ax0, false).data<int32_t>()[0] == std::numeric_limits<int32_t>::lowest());
  CHECK(reduce("Mean", iempty, ax0, false).data<int32_t>()[0] == 0);
  // Integer mean truncates as C++ (and TF) divide.
  Tensor iv = Tensor::from_vector<int32_t>(Shape{3}, {1, 2, 4});
  CHECK(reduce("Mean", iv, ax0, false).scalar_value<int32_t>() == 2);
  Tensor neg = Tensor::from_vector<int32_t>(Shape{2}, {-1, -2});
  CHECK(reduce("Mean", neg, ax0, false).scalar_value<int32_t>() == -1);
  // int32 sums wrap.
  Tensor big = Tensor::from_vector<int32_t>(Shape{2}, {std::numeric_limits<int32_t>::max(), 1});
  CHECK(reduce("Sum", big, ax0, false).scalar_value<int32_t>() == std::numeric_limits<int32_t>::min());
  // Max propagates NaN.
  Tensor nan = Tensor::from_vector<float>(Shape{3}, {1.0f, NAN, 2.0f});
  CHECK(std::isnan(reduce("Max", nan, ax0, false).scalar_value<float>()));
  CHECK(std::isnan(reduce("Min", nan, ax0, false).scalar_value<float>()));
  // Empty axis list: identity; keep_dims on a scalar input.
  Tensor m = sweep::random_tensor(DType::Float32, Shape{2, 3});
  sweep::expect_close(reduce("Sum", m, index_tensor({}, DType::Int64, false), false), m, "empty axes");
  Tensor sc = Tensor::scalar(3.5f);
  sweep::expect_close(reduce("Mean", sc, index_tensor({}, DType::Int32, false), true), sc, "scalar");
  // A large float sum stays accurate (partial accumulators).
  Tensor ones = Tensor::zeros(DType::Float32, Shape{1 << 20});
  for (int64_t i = 0; i < ones.num_elements(); ++i) ones.data<float>()[i] = 0.1f;
  CHECK(reduce("Sum", ones, ax0, false).scalar_value<float>() == doctest::Approx(104857.6).epsilon(1e-4));
  // Mixed run patterns on a bigger tensor: [K, R, K, R].
  Tensor x = sweep::random_tensor(DType::Float64, Shape{3, 5, 4, 6});
  std::vector<bool> bm{false, true, false, true};
  sweep::expect_close(reduce("Sum", x, index_tensor({1, 3}, DType::Int32, false), false),
                      reference_reduce("Sum", x, bm, false), "K R K R", 1e-12);
}

TEST_CASE("reductions: shape rules and errors") {
  Tensor m = sweep::random_tensor(DType::Float32, Shape{2, 3});
  CHECK_THROWS_WITH_AS(reduce("Sum", m, index_tensor({3}, DType::Int32, true), false),
                       "Invalid reduction dimension (3 for input with 2 dimension(s)", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(reduce("Max", m, index_tensor({-3}, DType::Int64, false), false),
                       "Invalid reduction dimension (-3 for input with 2 dimension(s)", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(reduce("Sum", m, index_tensor({1, -1}, DType::Int32, false), false),
                       "Invalid reduction arguments: Axes contains duplicate dimension: 1", InvalidArgumentError);
  Tensor b = sweep::random_tensor(DType::Bool, Shape{2});
  CHECK_THROWS_WITH_AS(reduce("Sum", b, index_tensor({0}, DType::Int32, true), false),
                       "Value for attr 'T' of bool is not in the list of allowed values: float, double, int32, "
                       "uint8, int8, int64, bfloat16",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(reduce("Any", m, index_tensor({0}, DType::Int32, true), false),
                       "Value for attr 'T' of float is not in the list of allowed values: bool", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(reduce("Sum", m, Tensor::scalar(0.0f), false),
                       "Value for attr 'Tidx' of float is not in the list of allowed values: int32, int64",
                       InvalidArgumentError);
  // Shape rule without a constant axis.
  const OpDef& sum = OpRegistry::global().get(op::Sum);
  TensorSpec specs[2] = {{DType::Float32, Shape{2, -1, 4}}, {DType::Int32, Shape{1}}};
  const Tensor* none[2] = {nullptr, nullptr};
  CHECK(infer_outputs(sum, specs, Attrs{{"keep_dims", true}}, none)[0].shape.str() == "(None, None, None)");
  CHECK(!infer_outputs(sum, specs, Attrs{}, none)[0].shape.rank_known());
  Tensor ax = index_tensor({-1}, DType::Int32, false);
  const Tensor* known[2] = {nullptr, &ax};
  CHECK(infer_outputs(sum, specs, Attrs{}, known)[0].shape.str() == "(2, None)");
}

TEST_CASE("ArgMax and ArgMin match a naive loop") {
  const DType types[] = {DType::Float32, DType::Float64, DType::Int32, DType::Int64,
                         DType::BFloat16, DType::Int8,    DType::UInt8, DType::Bool};
  for (bool is_max : {true, false}) {
    for (DType dt : types) {
      for (int trial = 0; trial < 8; ++trial) {
        Shape s = sweep::random_shape(4, 4, false);
        if (s.rank() == 0) s = Shape{3};
        Tensor in = sweep::random_tensor(dt, s, -3, 3);  // small range: ties happen
        int axis = static_cast<int>(sweep::rng()() % static_cast<unsigned>(s.rank()));
        int64_t given = sweep::rng()() % 2 ? axis : axis - s.rank();
        DType ot = sweep::rng()() % 2 ? DType::Int32 : DType::Int64;
        std::vector<Tensor> args{in, index_tensor({given}, DType::Int32, true)};
        Attrs attrs;
        if (ot == DType::Int32) attrs.set("output_type", DType::Int32);
        Tensor got = run1(is_max ? op::ArgMax : op::ArgMin, args, attrs);
        Shape os;
        for (int d = 0; d < s.rank(); ++d) {
          if (d != axis) os.push_back(s.dim(d));
        }
        Tensor want(ot, os);
        int64_t len = s.dim(axis), inner = 1;
        for (int d = axis + 1; d < s.rank(); ++d) inner *= s.dim(d);
        for (int64_t o = 0; o < want.num_elements(); ++o) {
          int64_t outer = o / inner, in_i = o % inner, best = 0;
          for (int64_t l = 1; l < len; ++l) {
            double v = sweep::element(in, (outer * len + l) * inner + in_i);
            double b = sweep::element(in, (outer * len + best) * inner + in_i);
            if (is_max ? v > b : v < b) best = l;
          }
          if (ot == DType::Int32) want.data<int32_t>()[o] = static_cast<int32_t>(best);
          else want.data<int64_t>()[o] = best;
        }
        sweep::expect_close(got, want, std::string(is_max ? "ArgMax " : "ArgMin ") + dtype_name(dt) + " " + s.str());
      }
    }
  }
  Tensor e = Tensor::zeros(DType::Float32, Shape{0});
  std::vector<Tensor> args{e, index_tensor({0}, DType::Int32, true)};
  CHECK_THROWS_WITH_AS(run1(op::ArgMax, args), "Reduction axis 0 is empty in shape [0]", InvalidArgumentError);
  Tensor m = sweep::random_tensor(DType::Float32, Shape{2, 3});
  std::vector<Tensor> bad{m, index_tensor({2}, DType::Int64, true)};
  CHECK_THROWS_WITH_AS(run1(op::ArgMin, bad), "Expected dimension in the range [-2, 2), but got 2",
                       InvalidArgumentError);
  std::vector<Tensor> vec{m, index_tensor({0}, DType::Int32, false)};
  CHECK_THROWS_WITH_AS(run1(op::ArgMax, vec), "dim must be a scalar, but received tensor of shape: [1]",
                       InvalidArgumentError);
  // Output of an empty non-axis dim is empty, not an error.
  Tensor ez = Tensor::zeros(DType::Float32, Shape{0, 3});
  std::vector<Tensor> ok{ez, index_tensor({1}, DType::Int32, true)};
  CHECK(run1(op::ArgMax, ok).shape().str() == "(0,)");
}

TEST_CASE("Cumprod matches a naive loop") {
  for (DType dt : {DType::Float32, DType::Float64, DType::Int32, DType::Int64}) {
    for (int trial = 0; trial < 8; ++trial) {
      Shape s = sweep::random_shape(3, 4, false);
      if (s.rank() == 0) s = Shape{4};
      Tensor in = sweep::random_tensor(dt, s, -2, 2);
      int axis = static_cast<int>(sweep::rng()() % static_cast<unsigned>(s.rank()));
      bool exclusive = sweep::rng()() % 2, reverse = sweep::rng()() % 2;
      std::vector<Tensor> args{in, index_tensor({axis}, DType::Int32, true)};
      Tensor got = run1(op::Cumprod, args, Attrs{{"exclusive", exclusive}, {"reverse", reverse}});
      Tensor want(dt, s);
      int64_t len = s.dim(axis), inner = 1;
      for (int d = axis + 1; d < s.rank(); ++d) inner *= s.dim(d);
      for (int64_t i = 0; i < in.num_elements(); ++i) {
        int64_t l = (i / inner) % len, base = i - l * inner;
        double acc = 1;
        for (int64_t j = 0; j < len; ++j) {
          bool take = reverse ? (exclusive ? j > l : j >= l) : (exclusive ? j < l : j <= l);
          if (take) acc *= sweep::element(in, base + j * inner);
        }
        store(want, i, acc, static_cast<uint64_t>(static_cast<int64_t>(acc)));
      }
      sweep::expect_close(got, want, std::string("Cumprod ") + dtype_name(dt) + " " + s.str(), 1e-5, 1e-5);
    }
  }
}

TEST_CASE("Cumsum matches a naive loop") {
  for (DType dt : kNumeric) {
    for (int trial = 0; trial < 12; ++trial) {
      Shape s = sweep::random_shape(4, 4);
      if (s.rank() == 0) s = Shape{4};
      Tensor in = sweep::random_tensor(dt, s);
      int axis = static_cast<int>(sweep::rng()() % static_cast<unsigned>(s.rank()));
      bool exclusive = sweep::rng()() % 2, reverse = sweep::rng()() % 2;
      std::vector<Tensor> args{in, index_tensor({sweep::rng()() % 2 ? axis : axis - s.rank()}, DType::Int32, true)};
      Tensor got = run1(op::Cumsum, args, Attrs{{"exclusive", exclusive}, {"reverse", reverse}});
      Tensor want(dt, s);
      int64_t len = s.dim(axis), inner = 1;
      for (int d = axis + 1; d < s.rank(); ++d) inner *= s.dim(d);
      for (int64_t i = 0; i < in.num_elements(); ++i) {
        int64_t l = (i / inner) % len, base = i - l * inner;
        double acc = 0;
        for (int64_t j = 0; j < len; ++j) {
          bool take = reverse ? (exclusive ? j > l : j >= l) : (exclusive ? j < l : j <= l);
          if (take) acc += sweep::element(in, base + j * inner);
        }
        store(want, i, acc, static_cast<uint64_t>(static_cast<int64_t>(acc)));
      }
      std::string what = std::string("Cumsum ") + dtype_name(dt) + " " + s.str() + " axis " + std::to_string(axis) +
                         (exclusive ? " exclusive" : "") + (reverse ? " reverse" : "");
      sweep::expect_close(got, want, what, dt == DType::BFloat16 ? 2e-2 : 1e-5, dt == DType::BFloat16 ? 0.1 : 1e-5);
    }
  }
  Tensor m = sweep::random_tensor(DType::Float32, Shape{2, 3});
  std::vector<Tensor> bad{m, index_tensor({2}, DType::Int32, true)};
  CHECK_THROWS_WITH_AS(run1(op::Cumsum, bad), "ScanOp: Expected scan axis in the range [-2, 2), but got 2",
                       InvalidArgumentError);
  std::vector<Tensor> vec{m, index_tensor({0}, DType::Int32, false)};
  CHECK_THROWS_WITH_AS(run1(op::Cumsum, vec), "ScanOp: axis must be a scalar, not [1]", InvalidArgumentError);
}
