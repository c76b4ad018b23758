// The elementwise tf.math functions that are one table row over their op:
// values against the C library's functions, result dtypes, and node names
// while tracing.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/dtype_value.h"

using namespace ag;
namespace tf_api = ag::tf::api;

namespace {

const double kInputs[] = {-3.5, -1.0, -0.25, 0.0, 0.5, 1.0, 2.75};

/// f(x) over kInputs as float32 and float64 against `want` (to float
/// precision), and the node f makes while tracing.
void check_unary(PyFn f, const std::function<double(double)>& want, const char* node_name) {
  for (DType dt : {DType::Float32, DType::Float64}) {
    std::vector<Value> items;
    for (double v : kInputs) items.push_back(Value(v));
    Value x = tf_api::constant({Value::list(items), dtype_value(dt)}, {});
    Value y = f({x}, {});
    const Tensor& t = y.as_tensor().value();
    REQUIRE(t.dtype() == dt);
    for (size_t i = 0; i < std::size(kInputs); ++i) {
      const double got = dt == DType::Float32 ? t.data<float>()[i] : t.data<double>()[i];
      const double w = dt == DType::Float32 ? static_cast<double>(static_cast<float>(want(kInputs[i]))) : want(kInputs[i]);
      INFO(node_name << "(" << kInputs[i] << ") " << dtype_name(dt));
      CHECK(got == doctest::Approx(w).epsilon(dt == DType::Float32 ? 1e-6 : 1e-14));
    }
  }
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Float32, Shape{3}}, "x"));
  CHECK(f({x}, {}).as_tensor().output().node->name == node_name);
}

}  // namespace

TEST_CASE("tf.math.erf") { check_unary(tf_api::erf, [](double x) { return std::erf(x); }, "Erf"); }

TEST_CASE("tf.math.expm1") { check_unary(tf_api::expm1, [](double x) { return std::expm1(x); }, "Expm1"); }

TEST_CASE("tf.math.asinh") { check_unary(tf_api::asinh, [](double x) { return std::asinh(x); }, "Asinh"); }

namespace {

const char* const kSpecials = "[nan, inf, -inf, 0.0, 1.5]";

/// f over NaN, the infinities, zero and a number, as TF prints the result.
std::string predicate_text(PyFn f) {
  Value x = tf_api::constant({Value::list({Value(NAN), Value(INFINITY), Value(-INFINITY), Value(0.0), Value(1.5)})}, {});
  return str(f({x}, {}));
}

}  // namespace

TEST_CASE("tf.math.is_nan") {
  INFO(kSpecials);
  CHECK(predicate_text(tf_api::is_nan) == "tf.Tensor([ True False False False False], shape=(5,), dtype=bool)");
}

TEST_CASE("tf.math.is_inf") {
  INFO(kSpecials);
  CHECK(predicate_text(tf_api::is_inf) == "tf.Tensor([False  True  True False False], shape=(5,), dtype=bool)");
}

TEST_CASE("tf.math.is_finite") {
  INFO(kSpecials);
  CHECK(predicate_text(tf_api::is_finite) == "tf.Tensor([False False False  True  True], shape=(5,), dtype=bool)");
}

TEST_CASE("tf.math.atan2 (and tf.atan2): y first, literals taking the tensor's dtype") {
  Value y = tf_api::constant({Value::list({Value(1.0), Value(-1.0), Value(0.0)})}, {});
  Value r = tf_api::atan2({y, -1}, {});
  REQUIRE(r.as_tensor().dtype() == DType::Float32);
  const float* p = r.as_tensor().value().data<float>();
  CHECK(p[0] == doctest::Approx(std::atan2(1.0, -1.0)));
  CHECK(p[1] == doctest::Approx(std::atan2(-1.0, -1.0)));
  CHECK(p[2] == doctest::Approx(M_PI));
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Float64, Shape{2}}, "x"));
  CHECK(tf_api::atan2({x, 2}, {}).as_tensor().output().node->name == "Atan2");
  CHECK(tf_api::atan2({x, x}, {{"name", "angle"}}).as_tensor().output().node->name == "angle");
}

TEST_CASE("tf.nn.softsign") { check_unary(tf_api::softsign, [](double x) { return x / (1 + std::fabs(x)); }, "Softsign"); }

TEST_CASE("tf.math.bessel_* open their Python wrapper's name scope; xlogy, xlog1py, xdivy are their op") {
  Graph g("f");
  TraceScope scope(g);
  Value x(g.placeholder({DType::Float32, Shape{3}}, "x"));
  CHECK(tf_api::bessel_i0e({x}, {}).as_tensor().output().node->name == "bessel_i0e/BesselI0e");
  CHECK(tf_api::bessel_i1e({x}, {}).as_tensor().output().node->name == "bessel_i1e/BesselI1e");
  CHECK(tf_api::bessel_i0({x}, {}).as_tensor().output().node->name == "bessel_i0/BesselI0");
  CHECK(tf_api::bessel_i1({x}, {{"name", "b"}}).as_tensor().output().node->name == "b/BesselI1");
  CHECK(tf_api::xlogy({x, x}, {}).as_tensor().output().node->name == "Xlogy");
  CHECK(tf_api::xlog1py({x, 2}, {}).as_tensor().output().node->name == "Xlog1py");
  CHECK(tf_api::xdivy({x, x}, {{"name", "q"}}).as_tensor().output().node->name == "q");
}
