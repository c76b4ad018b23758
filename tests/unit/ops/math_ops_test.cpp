// Sweep cases for the math family: every op against a naive reference loop
// (own broadcasting, __int128 integer math wrapped to the type, double float
// math) on random shapes incl. broadcasting pairs and zero-size dims, every
// supported dtype, both the prepared (static-shape) and the dynamic-shape
// kernel; plus TF's error texts and the edge semantics (NaN, signs, rounding).
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "runtime/ops/eager.h"
#include "tests/unit/ops/references.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("AddV2", "Sub", "Mul", "RealDiv", "FloorDiv", "FloorMod", "Pow", "Maximum", "Minimum",
                "SquaredDifference", "DivNoNan");
AG_SWEEP_COVERS("Neg", "Abs", "Sign", "Square", "Sqrt", "Rsqrt", "Exp", "Log", "Log1p", "Tanh", "Sigmoid", "Sin",
                "Cos", "Round", "Floor", "Ceil", "Reciprocal");
AG_SWEEP_COVERS("Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual", "LogicalAnd", "LogicalOr",
                "LogicalNot", "Cast", "SelectV2", "Where");
AG_SWEEP_COVERS("BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert", "LeftShift", "RightShift");
AG_SWEEP_COVERS("TruncateDiv", "TruncateMod");
AG_SWEEP_COVERS("Atan2");
AG_SWEEP_COVERS("IsFinite");
AG_SWEEP_COVERS("IsInf");
AG_SWEEP_COVERS("IsNan");
AG_SWEEP_COVERS("Asinh");
AG_SWEEP_COVERS("Expm1");
AG_SWEEP_COVERS("Erf");

namespace {

/// Runs `op` with a kernel prepared for unknown shapes (the executor's case
/// for partially known nodes), twice through one output slot.
Tensor run_dynamic(const char* op, const std::vector<Tensor>& in, const Attrs& attrs = {}) {
  const OpDef& def = OpRegistry::global().get(OpType{op});
  std::vector<TensorSpec> specs;
  std::vector<const Tensor*> ptrs;
  for (const Tensor& t : in) {
    specs.push_back({t.dtype(), Shape::unknown_rank()});
    ptrs.push_back(&t);
  }
  std::vector<const Tensor*> no_consts(in.size(), nullptr);
  std::vector<TensorSpec> outs = infer_outputs(def, specs, attrs, no_consts);
  Kernel k = def.cpu()(KernelSpec{def.name, specs, outs, attrs});
  std::vector<Tensor> slots(1);
  KernelContext ctx{ptrs, slots};
  k(ctx);
  k(ctx);  // reuses the slot's buffer
  return slots[0];
}

/// Random operand shapes: equal, scalar on either side, or broadcasting.
void random_pair(int mode, Shape& a, Shape& b) {
  Shape out = sweep::random_shape(4, 4);
  auto derive = [&]() {
    Shape s;
    int drop = static_cast<int>(sweep::rng()() % static_cast<unsigned>(out.rank() + 1));
    for (int d = drop; d < out.rank(); ++d) s.push_back(sweep::rng()() % 3 == 0 ? 1 : out.dim(d));
    return s;
  };
  switch (mode % 4) {
    case 0: a = b = out; break;
    case 1: a = sweep::rng()() % 2 ? Shape{} : Shape{1}; b = out; break;
    case 2: a = out; b = Shape{}; break;
    default: a = derive(); b = derive(); break;
  }
}

/// Sweeps a binary row of the reference table over its dtypes.
void sweep_binary(const Reference& r) {
  const char* op = r.op;
  for (DType dt : r.dtypes) {
    for (int trial = 0; trial < 24; ++trial) {
      Shape sa, sb;
      random_pair(trial, sa, sb);
      Tensor a = sweep::random_tensor(dt, sa, r.lo, r.hi);
      Tensor b = sweep::random_tensor(dt, sb, r.rhs_lo, r.hi);
      if (r.nonzero_rhs) {
        for (int64_t i = 0; i < b.num_elements(); ++i) {
          if (sweep::element(b, i) == 0) {
            dispatch_dtype(dt, [&]<class T>() {
              if constexpr (std::is_arithmetic_v<T>) b.data<T>()[i] = T(1);
            });
          }
        }
      }
      std::vector<Tensor> in{a, b};
      Tensor want = reference_result(r, in);
      std::string what = std::string(op) + " " + dtype_name(dt) + " " + sa.str() + " vs " + sb.str();
      sweep::expect_close(run1(OpType{op}, in), want, what, tolerance(dt), tolerance(dt));
      sweep::expect_close(run_dynamic(op, in), want, what + " (dynamic)", tolerance(dt), tolerance(dt));
    }
  }
}

/// Sweeps a unary row of the reference table over its dtypes.
void sweep_unary(const Reference& r) {
  for (DType dt : r.dtypes) {
    for (int trial = 0; trial < 12; ++trial) {
      Shape s = sweep::random_shape(4, 5);
      std::vector<Tensor> in{sweep::random_tensor(dt, s, r.lo, r.hi)};
      Tensor want = reference_result(r, in);
      std::string what = std::string(r.op) + " " + dtype_name(dt) + " " + s.str();
      sweep::expect_close(run1(OpType{r.op}, in), want, what, tolerance(dt), tolerance(dt));
      sweep::expect_close(run_dynamic(r.op, in), want, what + " (dynamic)", tolerance(dt), tolerance(dt));
    }
  }
}

/// Sweeps every row of the reference table (references.cpp) for `ops`.
void sweep_references(std::initializer_list<const char*> ops) {
  for (const char* op : ops) {
    const std::vector<const Reference*> rows = references_for(op);
    REQUIRE_MESSAGE(!rows.empty(), op);
    for (const Reference* r : rows) r->arity == 1 ? sweep_unary(*r) : sweep_binary(*r);
  }
}

}  // namespace

TEST_CASE("binary arithmetic matches the reference on every dtype, with broadcasting") {
  // Overflowing integers wrap (two's complement), never UB.
  sweep_references({"AddV2", "Sub", "Mul", "RealDiv", "FloorDiv", "FloorMod", "TruncateDiv", "TruncateMod", "Pow",
                    "Maximum", "Minimum", "SquaredDifference", "DivNoNan"});
}

TEST_CASE("comparison and logical ops match the reference") {
  sweep_references({"Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual", "LogicalAnd", "LogicalOr"});
}

TEST_CASE("strings: AddV2 concatenates, Equal and NotEqual compare, with broadcasting") {
  for (int trial = 0; trial < 16; ++trial) {
    Shape sa, sb;
    random_pair(trial, sa, sb);
    Tensor a = sweep::random_tensor(DType::String, sa), b = sweep::random_tensor(DType::String, sb);
    Shape out = naive_broadcast(sa, sb);
    Tensor cat(DType::String, out), eq(DType::Bool, out), ne(DType::Bool, out);
    for (int64_t i = 0; i < cat.num_elements(); ++i) {
      const std::string& x = a.data<std::string>()[source_index(out, sa, i)];
      const std::string& y = b.data<std::string>()[source_index(out, sb, i)];
      cat.data<std::string>()[i] = x + y;
      eq.data<bool>()[i] = x == y;
      ne.data<bool>()[i] = x != y;
    }
    std::vector<Tensor> in{a, b};
    sweep::expect_close(run1(op::AddV2, in), cat, "AddV2 string " + sa.str() + " " + sb.str());
    sweep::expect_close(run_dynamic("AddV2", in), cat, "AddV2 string dynamic");
    sweep::expect_close(run1(op::Equal, in), eq, "Equal string");
    sweep::expect_close(run1(op::NotEqual, in), ne, "NotEqual string");
  }
}

TEST_CASE("unary ops match the reference on every supported dtype") {
  sweep_references({"Neg", "Abs", "Sign", "Square", "Round", "Reciprocal", "Sqrt", "Rsqrt", "Exp", "Log", "Log1p",
                    "Tanh", "Sigmoid", "Sin", "Cos", "Floor", "Ceil", "LogicalNot"});
}

TEST_CASE("Cast matches the reference between every pair of non-string dtypes") {
  for (int si = 0; si < kNumDTypes; ++si) {
    for (int di = 0; di < kNumDTypes; ++di) {
      DType src = static_cast<DType>(si), dst = static_cast<DType>(di);
      if (src == DType::String || dst == DType::String) continue;
      for (int trial = 0; trial < 4; ++trial) {
        Shape s = sweep::random_shape(3, 5);
        Tensor x = sweep::random_tensor(src, s, -300, 300);
        Tensor want(dst, s);
        for (int64_t i = 0; i < x.num_elements(); ++i) {
          if (is_floating(dst) || dst == DType::Bool) {
            store(want, i, sweep::element(x, i), 0, false);
          } else {
            store(want, i, 0, is_floating(src) ? static_cast<I128>(std::trunc(sweep::element(x, i))) : int_value(x, i),
                  true);
          }
        }
        std::vector<Tensor> in{x};
        Attrs attrs{{"DstT", dst}};
        std::string what = std::string("Cast ") + dtype_name(src) + " -> " + dtype_name(dst);
        sweep::expect_close(run1(op::Cast, in, attrs), want, what, 0, 0);
        sweep::expect_close(run_dynamic("Cast", in, attrs), want, what + " (dynamic)", 0, 0);
      }
    }
  }
}

TEST_CASE("Cast edge cases: truncation, out of range, NaN, bool, bfloat16 ties to even, strings") {
  auto cast = [](const Tensor& x, DType dst) {
    std::vector<Tensor> in{x};
    return run1(op::Cast, in, Attrs{{"DstT", dst}});
  };
  float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor f = Tensor::from_vector<float>(Shape{6}, {-1.9f, 2.9f, 300.7f, 1e10f, nan, 0.0f});
  Tensor i32 = cast(f, DType::Int32);
  int32_t kMin = std::numeric_limits<int32_t>::min();
  std::vector<int32_t> want_i32{-1, 2, 300, kMin, kMin, 0};
  for (int i = 0; i < 6; ++i) CHECK(i32.data<int32_t>()[i] == want_i32[static_cast<size_t>(i)]);
  Tensor u8 = cast(f, DType::UInt8);
  CHECK(u8.data<uint8_t>()[2] == 44);  // 300 wraps
  Tensor b = cast(f, DType::Bool);
  std::vector<bool> want_b{true, true, true, true, true, false};
  for (int i = 0; i < 6; ++i) CHECK(b.data<bool>()[i] == want_b[static_cast<size_t>(i)]);
  Tensor ties = Tensor::from_vector<float>(Shape{2}, {1.00390625f, 1.01171875f});
  Tensor bf = cast(ties, DType::BFloat16);
  CHECK(static_cast<float>(bf.data<bfloat16>()[0]) == 1.0f);
  CHECK(static_cast<float>(bf.data<bfloat16>()[1]) == 1.015625f);
  Tensor s = Tensor::from_vector<std::string>(Shape{1}, {"1"});
  CHECK_THROWS_WITH_AS(cast(s, DType::Float32), "Cast string to float is not supported", UnimplementedError);
  CHECK_THROWS_WITH_AS(cast(f, DType::String), "Cast float to string is not supported", UnimplementedError);
  CHECK(cast(s, DType::String).shares_storage_with(s));
}

TEST_CASE("SelectV2 matches the reference with broadcasting among condition, then and else") {
  for (DType dt : {DType::Float32, DType::Int32, DType::String, DType::Bool, DType::BFloat16, DType::UInt8}) {
    for (int trial = 0; trial < 16; ++trial) {
      Shape out = sweep::random_shape(4, 4);
      auto derive = [&](int mode) {
        if (mode == 0) return out;
        if (mode == 1) return Shape{};
        Shape s;
        int drop = static_cast<int>(sweep::rng()() % static_cast<unsigned>(out.rank() + 1));
        for (int d = drop; d < out.rank(); ++d) s.push_back(sweep::rng()() % 3 == 0 ? 1 : out.dim(d));
        return s;
      };
      Shape sc = derive(trial % 3), st = derive((trial / 3) % 3), se = derive(trial % 2 ? 0 : 2);
      Tensor c = sweep::random_tensor(DType::Bool, sc), t = sweep::random_tensor(dt, st),
             e = sweep::random_tensor(dt, se);
      Shape full = naive_broadcast(naive_broadcast(sc, st), se);
      Tensor want(dt, full);
      dispatch_dtype(dt, [&]<class T>() {
        for (int64_t i = 0; i < want.num_elements(); ++i) {
          bool cond = c.data<bool>()[source_index(full, sc, i)];
          want.data<T>()[i] = cond ? t.data<T>()[source_index(full, st, i)] : e.data<T>()[source_index(full, se, i)];
        }
      });
      std::vector<Tensor> in{c, t, e};
      std::string what = std::string("SelectV2 ") + dtype_name(dt) + " " + sc.str() + " " + st.str() + " " + se.str();
      sweep::expect_close(run1(op::SelectV2, in), want, what, 0, 0);
      sweep::expect_close(run_dynamic("SelectV2", in), want, what + " (dynamic)", 0, 0);
    }
  }
}

TEST_CASE("Where returns the row-major coordinates of true and non-zero elements") {
  for (DType dt : {DType::Bool, DType::Float32, DType::Int32, DType::Int8, DType::UInt8, DType::BFloat16, DType::Int64,
                   DType::Float64}) {
    for (int trial = 0; trial < 10; ++trial) {
      Shape s = sweep::random_shape(4, 4);
      Tensor x = sweep::random_tensor(dt, s, -1, 1);
      std::vector<int64_t> coords;
      for (int64_t i = 0; i < x.num_elements(); ++i) {
        if (sweep::element(x, i) == 0) continue;
        std::vector<int64_t> c(static_cast<size_t>(s.rank()));
        int64_t r = i;
        for (int d = s.rank() - 1; d >= 0; --d) {
          c[static_cast<size_t>(d)] = r % s.dim(d);
          r /= s.dim(d);
        }
        coords.insert(coords.end(), c.begin(), c.end());
      }
      int64_t count = s.rank() == 0 ? (sweep::element(x, 0) != 0 ? 1 : 0)
                                    : static_cast<int64_t>(coords.size()) / s.rank();
      Tensor want = Tensor::from_vector<int64_t>(Shape{count, s.rank()}, coords);
      std::vector<Tensor> in{x};
      std::string what = std::string("Where ") + dtype_name(dt) + " " + s.str();
      sweep::expect_close(run1(op::Where, in), want, what);
      sweep::expect_close(run_dynamic("Where", in), want, what + " (dynamic)");
    }
  }
}

namespace {

template <class T>
Tensor vec(std::vector<T> v) {
  return Tensor::from_vector<T>(Shape{static_cast<int64_t>(v.size())}, v);
}
Tensor run2(const char* op, const Tensor& a, const Tensor& b) {
  std::vector<Tensor> in{a, b};
  return run1(OpType{op}, in);
}
template <class T>
std::vector<T> values(const Tensor& t) {
  return std::vector<T>(t.data<T>(), t.data<T>() + t.num_elements());
}

}  // namespace

TEST_CASE("TF's error texts") {
  Tensor f = vec<float>({1, 2}), i = vec<int32_t>({1, 2}), i3 = vec<int32_t>({1, 2, 3});
  CHECK_THROWS_WITH_AS(run2("AddV2", f, i),
                       "cannot compute AddV2 as input #1(zero-based) was expected to be a float tensor but is a int32 "
                       "tensor",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run2("Mul", i, i3), "Incompatible shapes: [2] vs. [3]", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run_dynamic("Sub", {i, i3}), "Incompatible shapes: [2] vs. [3]", InvalidArgumentError);
  Tensor zero = vec<int32_t>({1, 0});
  for (const char* op : {"FloorDiv", "FloorMod", "RealDiv"}) {
    CHECK_THROWS_WITH_AS(run2(op, i, zero), "Integer division by zero", InvalidArgumentError);
    CHECK_THROWS_WITH_AS(run_dynamic(op, {i, zero}), "Integer division by zero", InvalidArgumentError);
    // Nothing is divided when the output is empty.
    CHECK(run2(op, Tensor(DType::Int32, Shape{0}), Tensor::scalar<int32_t>(0)).num_elements() == 0);
  }
  CHECK_THROWS_WITH_AS(run1("Reciprocal", {zero}), "Integer division by zero", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run2("Pow", i, vec<int32_t>({2, -1})), "Integers to negative integer powers are not allowed",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Sqrt", {i}),
                       "Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, half, float, "
                       "double, complex64, complex128\n\t; NodeDef: {{node Sqrt}}",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Neg", {vec<uint8_t>({1})}),
                       "Value for attr 'T' of uint8 is not in the list of allowed values: bfloat16, half, float, "
                       "double, int8, int16, int32, int64, complex64, complex128\n\t; NodeDef: {{node Neg}}",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run2("AddV2", vec<bool>({true}), vec<bool>({true})),
                       "Value for attr 'T' of bool is not in the list of allowed values: bfloat16, half, float, "
                       "double, uint8, uint16, uint32, uint64, int8, int16, int32, int64, complex64, complex128\n\t; "
                       "NodeDef: {{node AddV2}}",
                       InvalidArgumentError);
  CHECK_THROWS_AS(run2("Sub", vec<std::string>({"a"}), vec<std::string>({"b"})), InvalidArgumentError);
  CHECK_THROWS_AS(run2("Less", vec<bool>({true}), vec<bool>({false})), InvalidArgumentError);
  CHECK_THROWS_AS(run1("Where", {vec<std::string>({"a"})}), InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run2("LogicalAnd", f, f),
                       "cannot compute LogicalAnd as input #0(zero-based) was expected to be a bool tensor but is a "
                       "float tensor",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("LogicalNot", {i}),
                       "cannot compute LogicalNot as input #0(zero-based) was expected to be a bool tensor but is a "
                       "int32 tensor",
                       InvalidArgumentError);
  Tensor c = vec<bool>({true, false});
  std::vector<Tensor> bad_types{c, f, i};
  CHECK_THROWS_WITH_AS(run1(op::SelectV2, bad_types),
                       "cannot compute SelectV2 as input #2(zero-based) was expected to be a float tensor but is a "
                       "int32 tensor",
                       InvalidArgumentError);
  std::vector<Tensor> bad_cond{f, f, f};
  CHECK_THROWS_WITH_AS(run1(op::SelectV2, bad_cond),
                       "cannot compute SelectV2 as input #0(zero-based) was expected to be a bool tensor but is a "
                       "float tensor",
                       InvalidArgumentError);
  std::vector<Tensor> bad_te{c, i, i3};
  CHECK_THROWS_WITH_AS(run1(op::SelectV2, bad_te), "then [2] and else [3] must be broadcastable", InvalidArgumentError);
  std::vector<Tensor> bad_c{vec<bool>({true, false, true}), i, i};
  CHECK_THROWS_WITH_AS(run1(op::SelectV2, bad_c), "condition [3], then [2], and else [2] must be broadcastable",
                       InvalidArgumentError);
}

TEST_CASE("Equal and NotEqual with incompatible_shape_error=false give a scalar") {
  Tensor a = vec<int32_t>({1, 2}), b = vec<int32_t>({1, 2, 3});
  std::vector<Tensor> in{a, b};
  Attrs lenient{{"incompatible_shape_error", false}};
  Tensor eq = run1(op::Equal, in, lenient), ne = run1(op::NotEqual, in, lenient);
  CHECK(eq.rank() == 0);
  CHECK(eq.scalar_value<bool>() == false);
  CHECK(ne.scalar_value<bool>() == true);
  CHECK(run_dynamic("Equal", in, lenient).scalar_value<bool>() == false);
  std::vector<Tensor> ok{a, a};
  CHECK(values<bool>(run_dynamic("Equal", ok, lenient)) == std::vector<bool>{true, true});
}

TEST_CASE("semantics: Python floordiv/floormod signs, NaN in Maximum/Minimum, rounding, integer wrap") {
  Tensor a = vec<int32_t>({7, 7, -7, -7}), b = vec<int32_t>({2, -2, 2, -2});
  CHECK(values<int32_t>(run2("FloorDiv", a, b)) == std::vector<int32_t>{3, -4, -4, 3});
  CHECK(values<int32_t>(run2("FloorMod", a, b)) == std::vector<int32_t>{1, -1, 1, -1});
  CHECK(values<int32_t>(run2("RealDiv", a, b)) == std::vector<int32_t>{3, -3, -3, 3});
  Tensor a8 = vec<int8_t>({7, 7, -7, -7}), b8 = vec<int8_t>({2, -2, 2, -2});
  CHECK(values<int8_t>(run2("FloorMod", a8, b8)) == std::vector<int8_t>{1, -1, 1, -1});
  Tensor fa = vec<float>({7.5f, 7.5f, -7.5f, -7.5f}), fb = vec<float>({2, -2, 2, -2});
  CHECK(values<float>(run2("FloorMod", fa, fb)) == std::vector<float>{1.5f, -0.5f, 0.5f, -1.5f});
  CHECK(values<float>(run2("FloorDiv", fa, fb)) == std::vector<float>{3, -4, -4, 3});
  int32_t kMin = std::numeric_limits<int32_t>::min();
  Tensor m = vec<int32_t>({kMin}), neg1 = vec<int32_t>({-1});
  CHECK(values<int32_t>(run2("FloorDiv", m, neg1)) == std::vector<int32_t>{kMin});
  CHECK(values<int32_t>(run2("RealDiv", m, neg1)) == std::vector<int32_t>{kMin});
  CHECK(values<int32_t>(run2("FloorMod", m, neg1)) == std::vector<int32_t>{0});
  CHECK(values<int32_t>(run1("Neg", {m})) == std::vector<int32_t>{kMin});
  CHECK(values<int32_t>(run1("Abs", {m})) == std::vector<int32_t>{kMin});
  CHECK(values<int32_t>(run2("Pow", vec<int32_t>({2, -3, 0}), vec<int32_t>({31, 3, 0}))) ==
        std::vector<int32_t>{kMin, -27, 1});
  CHECK(values<int32_t>(run1("Reciprocal", {vec<int32_t>({1, 2, -1})})) == std::vector<int32_t>{1, 0, -1});

  float nan = std::numeric_limits<float>::quiet_NaN();
  Tensor x = vec<float>({nan, 1, 2}), y = vec<float>({1, nan, 1});
  for (const char* op : {"Maximum", "Minimum"}) {
    std::vector<float> r = values<float>(run2(op, x, y));
    CHECK(std::isnan(r[0]));
    CHECK(std::isnan(r[1]));
  }
  CHECK(values<float>(run2("Maximum", x, y))[2] == 2);
  CHECK(values<float>(run2("Minimum", x, y))[2] == 1);
  CHECK(std::isnan(values<float>(run1("Sign", {vec<float>({nan})}))[0]));
  CHECK(values<float>(run2("DivNoNan", vec<float>({1, 0, 3}), vec<float>({0, 0, 2}))) == std::vector<float>{0, 0, 1.5f});

  Tensor halves = vec<float>({0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f});
  CHECK(values<float>(run1("Round", {halves})) == std::vector<float>{0, 2, 2, -0.0f, -2, -2});
  Tensor bh = run1("Round", {run1(op::Cast, std::vector<Tensor>{halves}, Attrs{{"DstT", DType::BFloat16}})});
  CHECK(static_cast<float>(bh.data<bfloat16>()[2]) == 2.0f);
  CHECK(values<double>(run1("Round", {vec<double>({2.5, 3.5})})) == std::vector<double>{2, 4});
}

TEST_CASE("large tensors: vectorized paths agree with scalar references") {
  // Sizes past the bfloat16 block, with a ragged tail, and past the 2-thread split.
  for (int64_t n : {int64_t{1000}, int64_t{4099}, int64_t{200003}}) {
    Tensor x = sweep::random_tensor(DType::Float32, Shape{n}, -3, 3);
    Tensor bx = sweep::random_tensor(DType::BFloat16, Shape{n}, -3, 3);
    Tensor t = run1("Tanh", {x}), bt = run1("Tanh", {bx});
    Tensor s = run2("AddV2", x, Tensor::scalar<float>(1.5f));
    Tensor d = run2("Sub", x, x);
    Tensor ci = run1(op::Cast, std::vector<Tensor>{x}, Attrs{{"DstT", DType::Int32}});
    Tensor pos = run2("Greater", x, Tensor::scalar<float>(0.0f));
    Tensor sel = run1(op::SelectV2, std::vector<Tensor>{pos, x, s});
    int64_t bad = 0;  // mismatches, counted so the loop stays cheap
    for (int64_t i = 0; i < n; ++i) {
      float v = x.data<float>()[i];
      float bv = static_cast<float>(bx.data<bfloat16>()[i]);
      bad += d.data<float>()[i] != 0.0f;
      bad += ci.data<int32_t>()[i] != static_cast<int32_t>(v);
      bad += sel.data<float>()[i] != (v > 0 ? v : v + 1.5f);
      bad += std::fabs(t.data<float>()[i] - std::tanh(v)) > 1e-5f;
      bad += s.data<float>()[i] != v + 1.5f;
      bad += std::fabs(static_cast<float>(bt.data<bfloat16>()[i]) - std::tanh(bv)) > 1e-2f;
    }
    INFO("n = " << n);
    CHECK(bad == 0);
  }
}

TEST_CASE("a prepared 5-element float32 kernel reuses its output slot") {
  // Its speed is measured in bench/, never asserted here.
  for (const char* op : {"AddV2", "Tanh"}) {
    const OpDef& def = OpRegistry::global().get(OpType{op});
    Tensor a = vec<float>({1, 2, 3, 4, 5}), b = vec<float>({5, 4, 3, 2, 1});
    std::vector<const Tensor*> ptrs{&a, &b};
    size_t arity = def.min_inputs == 1 ? 1 : 2;
    ptrs.resize(arity);
    std::vector<TensorSpec> specs(arity, TensorSpec{DType::Float32, Shape{5}});
    std::vector<TensorSpec> outs{{DType::Float32, Shape{5}}};
    Kernel k = def.cpu()(KernelSpec{def.name, specs, outs, {}});
    std::vector<Tensor> slots(1);
    KernelContext ctx{ptrs, slots};
    k(ctx);
    const void* first = slots[0].raw_data();
    for (int it = 0; it < 100; ++it) k(ctx);
    CHECK(slots[0].raw_data() == first);  // no reallocation
  }
}

TEST_CASE("bitwise ops match two's complement arithmetic on every integer dtype, and refuse floats") {
  // Shifts clamp the amount to [0, bits - 1] (TF's bitwise_ops.h); bits
  // shifted out of the type are lost (the result wraps to it).
  sweep_references({"BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert", "LeftShift", "RightShift"});
  CHECK(error_of("BitwiseAnd", {Tensor::scalar<float>(1), Tensor::scalar<float>(2)}) ==
        "Value for attr 'T' of float is not in the list of allowed values: int8, int16, int32, int64, uint8, uint16, "
        "uint32, uint64\n\t; NodeDef: {{node BitwiseAnd}}");
  CHECK(error_of("Invert", {Tensor::scalar<bool>(true)}) ==
        "Value for attr 'T' of bool is not in the list of allowed values: int8, int16, int32, int64, uint8, uint16, "
        "uint32, uint64\n\t; NodeDef: {{node Invert}}");
}

TEST_CASE("Erf matches erf on every float dtype") {
  sweep_references({"Erf"});
}

AG_SWEEP_COVERS("Erfc", "Erfinv", "Lgamma", "Digamma", "Polygamma");

TEST_CASE("Erfc, Erfinv, Lgamma and Digamma match their references on every float dtype") {
  sweep_references({"Erfc", "Erfinv", "Lgamma", "Digamma"});
  // TF's erfinv: ±inf at ±1, NaN past them.
  std::vector<Tensor> edges{Tensor::from_vector<float>(Shape{3}, {1.0f, -1.0f, 1.5f})};
  Tensor e = run1(OpType{"Erfinv"}, edges);
  CHECK(e.data<float>()[0] == INFINITY);
  CHECK(e.data<float>()[1] == -INFINITY);
  CHECK(std::isnan(e.data<float>()[2]));
}

TEST_CASE("Polygamma(n, x) is digamma for n = 0, trigamma for n = 1, NaN for a fractional n") {
  auto fl = {DType::Float32, DType::Float64};
  for (DType dt : fl) {
    reference_dtype() = dt;
    Tensor n = Tensor::from_vector<double>(Shape{4}, {0, 1, 0.5, -1});
    Tensor x = Tensor::from_vector<double>(Shape{4}, {2.5, 2.5, 2.5, 2.5});
    auto as = [&](const Tensor& t) {
      return run1(op::Cast, std::vector<Tensor>{t}, Attrs{{"SrcT", DType::Float64}, {"DstT", dt}});
    };
    Tensor got = run1(op::Polygamma, std::vector<Tensor>{as(n), as(x)});
    CHECK(sweep::element(got, 0) == doctest::Approx(digamma_ref(2.5)).epsilon(1e-6));
    CHECK(sweep::element(got, 1) == doctest::Approx(trigamma_ref(2.5)).epsilon(1e-6));
    CHECK(std::isnan(sweep::element(got, 2)));
    CHECK(std::isnan(sweep::element(got, 3)));
  }
}

TEST_CASE("Polygamma of a huge order at a pole is +inf, as Eigen gives it on x86, without undefined behaviour") {
  // Found by ops_fuzz (UBSan): Eigen's zeta cast n + 1 = 1e300 to long.
  Tensor n = Tensor::from_vector<double>(Shape{3}, {1e300, 1e300, 0x1p62});
  Tensor x = Tensor::from_vector<double>(Shape{3}, {-2.0, 0.0, -7.0});
  Tensor got = run1(op::Polygamma, std::vector<Tensor>{n, x});
  for (int i = 0; i < 3; ++i) CHECK(got.data<double>()[i] == INFINITY);
  Tensor nf = Tensor::from_vector<float>(Shape{1}, {3e38f});
  Tensor xf = Tensor::from_vector<float>(Shape{1}, {-1.0f});
  CHECK(run1(op::Polygamma, std::vector<Tensor>{nf, xf}).data<float>()[0] == INFINITY);
}

AG_SWEEP_COVERS("BesselI0", "BesselI1", "BesselI0e", "BesselI1e", "Xlogy", "Xlog1py", "Xdivy");

TEST_CASE("BesselI0, BesselI1 and their scaled forms match the power series on every float dtype") {
  sweep_references({"BesselI0", "BesselI1", "BesselI0e", "BesselI1e"});
}

TEST_CASE("Xlogy, Xlog1py and Xdivy are 0 where x is 0, whatever y is, and broadcast") {
  sweep_references({"Xlogy", "Xlog1py", "Xdivy"});
  Tensor x = Tensor::from_vector<float>(Shape{5}, {0, 0, 0, 1, 2});
  Tensor y = Tensor::from_vector<float>(Shape{5}, {0, NAN, -1, 0, -1});
  Tensor l = run1(op::Xlogy, std::vector<Tensor>{x, y});
  CHECK(l.data<float>()[0] == 0);
  CHECK(l.data<float>()[1] == 0);
  CHECK(l.data<float>()[2] == 0);
  CHECK(l.data<float>()[3] == -INFINITY);
  CHECK(std::isnan(l.data<float>()[4]));
  Tensor d = run1(op::Xdivy, std::vector<Tensor>{x, y});
  CHECK(d.data<float>()[0] == 0);
  CHECK(d.data<float>()[1] == 0);
  CHECK(d.data<float>()[3] == INFINITY);
  CHECK(d.data<float>()[4] == -2);
  Tensor p = run1(op::Xlog1py, std::vector<Tensor>{x, y});
  CHECK(p.data<float>()[2] == 0);
  CHECK(p.data<float>()[3] == 0);
  CHECK(p.data<float>()[4] == -INFINITY);
  // TF's list has no integers.
  std::vector<Tensor> ints{Tensor::from_vector<int32_t>(Shape{1}, {1}), Tensor::from_vector<int32_t>(Shape{1}, {1})};
  CHECK_THROWS_WITH_AS(run1(op::Xlogy, ints),
                       doctest::Contains("Value for attr 'T' of int32 is not in the list of allowed values: half, float, "
                                         "double, complex64, complex128"),
                       InvalidArgumentError);
}

TEST_CASE("Expm1 matches expm1 on every float dtype, exact near zero") {
  sweep_references({"Expm1"});
  std::vector<Tensor> tiny{Tensor::scalar<double>(1e-10)};
  CHECK(run1(OpType{"Expm1"}, tiny).scalar_value<double>() == doctest::Approx(1.00000000005e-10).epsilon(1e-15));
}

TEST_CASE("Asinh matches asinh on every float dtype") {
  sweep_references({"Asinh"});
}

namespace {

/// A predicate op on every float dtype, NaN and infinities among random
/// values, against `want`; ints are refused with TF's message.
void sweep_predicate(const char* op, bool (*want)(double)) {
  const double special[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0};
  for (DType dt : {DType::Float32, DType::Float64, DType::BFloat16}) {
    for (int trial = 0; trial < 8; ++trial) {
      Shape s = sweep::random_shape(3, 6);
      Tensor x = sweep::random_tensor(dt, s, -1e3, 1e3);
      Tensor expected(DType::Bool, s);
      for (int64_t i = 0; i < x.num_elements(); ++i) {
        if (rnd(0, 2) == 0) store(x, i, special[rnd(0, 4)], 0, false);
        expected.data<bool>()[i] = want(sweep::element(x, i));
      }
      std::vector<Tensor> in{x};
      const std::string what = std::string(op) + " " + dtype_name(dt) + " " + s.str();
      sweep::expect_close(run1(OpType{op}, in), expected, what, 0, 0);
      sweep::expect_close(run_dynamic(op, in), expected, what + " (dynamic)", 0, 0);
    }
  }
  CHECK(error_of(op, {Tensor::scalar<int32_t>(1)}) == "Value for attr 'T' of int32 is not in the list of allowed values: "
                                                       "bfloat16, half, float, double\n\t; NodeDef: {{node " +
                                                           std::string(op) + "}}");
}

}  // namespace

TEST_CASE("IsNan is true exactly for NaN") {
  sweep_predicate("IsNan", [](double x) { return std::isnan(x); });
}

TEST_CASE("IsInf is true exactly for the infinities") {
  sweep_predicate("IsInf", [](double x) { return std::isinf(x); });
}

TEST_CASE("IsFinite is false exactly for NaN and the infinities") {
  sweep_predicate("IsFinite", [](double x) { return std::isfinite(x); });
}

TEST_CASE("Atan2 matches atan2 with broadcasting on every float dtype, its quadrants and signed zeros") {
  sweep_references({"Atan2"});
  Tensor y = Tensor::from_vector<double>({4}, {0.0, -0.0, 1.0, -1.0});
  Tensor x = Tensor::from_vector<double>({4}, {-1.0, -1.0, -1.0, -1.0});
  std::vector<Tensor> in{y, x};
  Tensor got = run1(OpType{"Atan2"}, in);
  CHECK(got.data<double>()[0] == M_PI);
  CHECK(got.data<double>()[1] == -M_PI);
  CHECK(got.data<double>()[2] == doctest::Approx(3 * M_PI / 4));
  CHECK(got.data<double>()[3] == doctest::Approx(-3 * M_PI / 4));
  CHECK(error_of("Atan2", {Tensor::scalar<int32_t>(1), Tensor::scalar<int32_t>(1)}) ==
        "Value for attr 'T' of int32 is not in the list of allowed values: bfloat16, half, float, double\n\t; NodeDef: "
        "{{node Atan2}}");
}

AG_SWEEP_COVERS("AddN");

TEST_CASE("AddN sums N tensors of one dtype and shape in every arithmetic dtype") {
  for (DType dt : {DType::Float32, DType::Float64, DType::Int32, DType::Int64, DType::BFloat16, DType::UInt8}) {
    INFO(dtype_name(dt));
    Tensor a = run1(OpType("Cast"), std::vector<Tensor>{Tensor::from_vector<float>({2, 2}, {1, 2, 3, 4})},
                       Attrs{{"SrcT", DType::Float32}, {"DstT", dt}});
    Tensor sum = run1(op::AddN, std::vector<Tensor>{a, a, a});
    Tensor back = run1(OpType("Cast"), std::vector<Tensor>{sum}, Attrs{{"SrcT", dt}, {"DstT", DType::Float32}});
    CHECK(back.data<float>()[3] == 12.f);
  }
  // Integers wrap, as Add's do (found by ops_fuzz: int64 min + -1 was
  // undefined behaviour).
  Tensor low = Tensor::from_vector<int64_t>({2}, {std::numeric_limits<int64_t>::min(), 1});
  Tensor minus = Tensor::from_vector<int64_t>({2}, {-1, -1});
  Tensor wrapped = run1(op::AddN, std::vector<Tensor>{low, minus});
  CHECK(wrapped.data<int64_t>()[0] == std::numeric_limits<int64_t>::max());
  CHECK(wrapped.data<int64_t>()[1] == 0);
  Tensor one = Tensor::from_vector<float>({2}, {1, 2});
  CHECK(run1(op::AddN, std::vector<Tensor>{one}).data<float>()[1] == 2.f);
  CHECK_THROWS_WITH_AS(run1(op::AddN, std::vector<Tensor>{one, Tensor::from_vector<int32_t>({2}, {1, 2})}),
                       "Inconsistent values for attr 'T' DT_FLOAT vs. DT_INT32 while building NodeDef 'AddN'",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1(op::AddN, std::vector<Tensor>{Tensor::from_vector<std::string>({1}, {"a"})}),
                       doctest::Contains("Value for attr 'T' of string is not in the list of allowed values"),
                       InvalidArgumentError);
}
