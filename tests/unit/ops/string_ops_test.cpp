// Sweep cases for string_ops.cpp: each op against a naive reference on random
// shapes (zero-size dims included), plus TF's error texts.
#include <doctest/doctest.h>

#include <cstdio>

#include "runtime/core/tensor_format.h"
#include "runtime/ops/eager.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("StringJoin", "AsString", "StringToNumber", "StringLength", "StringFormat");

namespace {

Tensor str(const std::string& s) { return Tensor::scalar(s); }

}  // namespace

TEST_CASE("StringJoin joins element-wise and broadcasts scalars") {
  for (int trial = 0; trial < 20; ++trial) {
    Shape s = sweep::random_shape(3, 4);
    Tensor a = sweep::random_tensor(DType::String, s);
    Tensor b = sweep::random_tensor(DType::String, s);
    Tensor c = str("!");
    Tensor got = run1("StringJoin", {a, c, b}, Attrs{{"separator", std::string("-")}});
    Tensor want(DType::String, s);
    for (int64_t i = 0; i < a.num_elements(); ++i) {
      want.data<std::string>()[i] = a.data<std::string>()[i] + "-!-" + b.data<std::string>()[i];
    }
    sweep::expect_close(got, want, "StringJoin " + s.str());
  }
  CHECK(run1("StringJoin", {str("a"), str("b")}).scalar_value<std::string>() == "ab");
  CHECK(error_of("StringJoin", {Tensor(DType::String, {2}), Tensor(DType::String, {3})}) ==
        "Input shapes do not match: [2] vs. [3]");
  CHECK(error_of("StringJoin", {str("a"), Tensor::scalar(1)}) ==
        "cannot compute StringJoin as input #1(zero-based) was expected to be a string tensor but is a int32 tensor");
}

TEST_CASE("AsString formats as TF's printf formats") {
  const DType kTypes[] = {DType::Float32, DType::Float64, DType::Int32, DType::Int64, DType::Int8,
                          DType::UInt8,   DType::Bool,    DType::BFloat16};
  for (DType t : kTypes) {
    for (int trial = 0; trial < 5; ++trial) {
      Tensor x = sweep::random_tensor(t, sweep::random_shape(3, 4), -100, 100);
      Tensor got = run1("AsString", {x});
      Tensor want(DType::String, x.shape());
      for (int64_t i = 0; i < x.num_elements(); ++i) {
        char buf[64];
        double v = sweep::element(x, i);
        if (t == DType::Bool) std::snprintf(buf, sizeof buf, "%s", v != 0 ? "true" : "false");
        else if (is_floating(t)) std::snprintf(buf, sizeof buf, "%f", v);
        else std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
        want.data<std::string>()[i] = buf;
      }
      sweep::expect_close(got, want, std::string("AsString ") + dtype_name(t));
    }
  }
  auto one = [](Tensor x, Attrs a = {}) { return run1("AsString", {x}, a).scalar_value<std::string>(); };
  CHECK(one(Tensor::scalar(3.14f)) == "3.140000");
  CHECK(one(Tensor::scalar(3.14f), Attrs{{"precision", int64_t{2}}}) == "3.14");
  CHECK(one(Tensor::scalar(1234.5), Attrs{{"scientific", true}}) == "1.234500e+03");
  CHECK(one(Tensor::scalar(0.5), Attrs{{"shortest", true}}) == "0.5");
  CHECK(one(Tensor::scalar(7), Attrs{{"width", int64_t{4}}, {"fill", std::string("0")}}) == "0007");
  CHECK(one(Tensor::scalar(7), Attrs{{"width", int64_t{3}}}) == "  7");
  CHECK(one(Tensor::scalar(std::string("ab")), Attrs{{"width", int64_t{4}}}) == "  ab");
  CHECK(error_of("AsString", {Tensor::scalar(1)}, Attrs{{"precision", int64_t{2}}}) ==
        "precision not supported for datatype int32");
  CHECK(error_of("AsString", {Tensor::scalar(true)}, Attrs{{"shortest", true}}) ==
        "scientific and shortest format not supported for datatype bool");
  CHECK(error_of("AsString", {Tensor::scalar(1.f)}, Attrs{{"shortest", true}, {"scientific", true}}) ==
        "Cannot select both scientific and shortest notation");
  CHECK(error_of("AsString", {Tensor::scalar(1.f)}, Attrs{{"fill", std::string("ab")}}) ==
        "Fill string must be one or fewer characters");
  CHECK(error_of("AsString", {Tensor::scalar(1.f)}, Attrs{{"fill", std::string("x")}}) ==
        "Fill argument not supported: \"x\"");
}

TEST_CASE("StringToNumber parses as TF's safe_strto* do") {
  // tensorflow/python/kernel_tests/string_to_number_op_test.py's pairs.
  auto f = [](const std::string& s, DType t) {
    return run1("StringToNumber", {Tensor::from_vector<std::string>({1}, {s})}, Attrs{{"out_type", t}});
  };
  CHECK(f("0", DType::Float32).data<float>()[0] == 0.f);
  CHECK(f("1.12", DType::Float32).data<float>()[0] == 1.12f);
  CHECK(f("0xF", DType::Float32).data<float>()[0] == 15.f);
  CHECK(f("   -10.5", DType::Float32).data<float>()[0] == -10.5f);
  CHECK(f("3.40282e+38", DType::Float32).data<float>()[0] == 3.40282e+38f);
  CHECK(std::isinf(f("3.40283e+38", DType::Float32).data<float>()[0]));
  CHECK(f("-3.40283e+38", DType::Float32).data<float>()[0] < 0);
  CHECK(std::isnan(f("NAN", DType::Float32).data<float>()[0]));
  CHECK(std::isinf(f("INF", DType::Float32).data<float>()[0]));
  CHECK(f("3.40283e+38", DType::Float64).data<double>()[0] == 3.40283e+38);
  CHECK(f("    -10", DType::Int32).data<int32_t>()[0] == -10);
  CHECK(f("-2147483648", DType::Int32).data<int32_t>()[0] == -2147483648);
  CHECK(f("2147483648", DType::Int64).data<int64_t>()[0] == 2147483648LL);
  const std::string kMsg = "StringToNumberOp could not correctly convert string: ";
  auto bad = [&](const std::string& s, DType t) {
    return error_of("StringToNumber", {Tensor::from_vector<std::string>({1}, {s})}, Attrs{{"out_type", t}});
  };
  CHECK(bad("10foobar", DType::Float32) == kMsg + "10foobar");
  CHECK(bad("abc", DType::Float64) == kMsg + "abc");
  CHECK(bad("-2147483649", DType::Int32) == kMsg + "-2147483649");
  CHECK(bad("2147483648", DType::Int32) == kMsg + "2147483648");
  CHECK(bad("2.9", DType::Int64) == kMsg + "2.9");
  CHECK(bad("", DType::Int32) == kMsg);
  // Default out_type is float32; round trip through AsString on random shapes.
  for (int trial = 0; trial < 10; ++trial) {
    Tensor x = sweep::random_tensor(DType::Int64, sweep::random_shape(3, 4), -1000, 1000);
    Tensor s = run1("AsString", {x});
    sweep::expect_close(run1("StringToNumber", {s}, Attrs{{"out_type", DType::Int64}}), x, "round trip");
    CHECK(run1("StringToNumber", {s}).dtype() == DType::Float32);
  }
  CHECK(error_of("StringToNumber", {str("1")}, Attrs{{"out_type", DType::Bool}}).find(
            "Value for attr 'out_type' of bool is not in the list of allowed values") == 0);
}

TEST_CASE("StringLength counts bytes or UTF-8 characters") {
  for (int trial = 0; trial < 10; ++trial) {
    Tensor x = sweep::random_tensor(DType::String, sweep::random_shape(3, 4));
    Tensor want(DType::Int32, x.shape());
    for (int64_t i = 0; i < x.num_elements(); ++i) {
      want.data<int32_t>()[i] = static_cast<int32_t>(x.data<std::string>()[i].size());
    }
    sweep::expect_close(run1("StringLength", {x}), want, "StringLength");
  }
  Tensor h = Tensor::from_vector<std::string>({2}, {"h\xc3\xa9llo", ""});
  CHECK(run1("StringLength", {h}).data<int32_t>()[0] == 6);
  CHECK(run1("StringLength", {h}, Attrs{{"unit", std::string("UTF8_CHAR")}}).data<int32_t>()[0] == 5);
  CHECK(error_of("StringLength", {h}, Attrs{{"unit", std::string("CHAR")}}) ==
        "Value for attr 'unit' of \"CHAR\" is not in the list of allowed values: \"BYTE\", \"UTF8_CHAR\"");
}

TEST_CASE("StringFormat fills the template with tf.print's summaries") {
  for (int i = 0; i < kNumDTypes; ++i) {
    DType t = static_cast<DType>(i);
    Tensor x = sweep::random_tensor(t, sweep::random_shape(3, 4));
    Tensor got = run1("StringFormat", {x, Tensor::scalar(1)},
                         Attrs{{"template", std::string("x={} n={}")}, {"placeholder", std::string("{}")}});
    CHECK(got.scalar_value<std::string>() == "x=" + tf_print_format(x, 3) + " n=1");
  }
  Tensor v = Tensor::from_vector<int32_t>({10}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(run1("StringFormat", {v}, Attrs{{"template", std::string("%s")}}).scalar_value<std::string>() ==
        "[0 1 2 ... 7 8 9]");
  CHECK(run1("StringFormat", {v}, Attrs{{"summarize", int64_t{-1}}}).scalar_value<std::string>() ==
        "[0 1 2 3 4 5 6 7 8 9]");
  CHECK(run1("StringFormat", {}, Attrs{{"template", std::string("fizz")}}).scalar_value<std::string>() == "fizz");
  CHECK(error_of("StringFormat", {v, v}, Attrs{{"template", std::string("{}")}, {"placeholder", std::string("{}")}}) ==
        "num placeholders in template and num inputs must match: 1 vs. 2");
}
