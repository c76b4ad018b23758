// The NumPy module's table (runtime/api/np_functions.def) and its bindings:
// every row parses and fits its impl, and the values that depend on NumPy's
// exact algorithms (the legacy RandomState, arange, linspace) are NumPy
// 1.24's, as /usr/bin/python3's NumPy printed them with float.hex.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_signature.h"
#include "runtime/api/tf_table_macros.h"
#include "runtime/value/ndarray.h"
#include "tests/unit/error_text.h"

using namespace ag;
using ag::test::error_text;
namespace np_api = ag::np::api;

namespace {

struct NpRow {
  std::string cpp_name;
  std::vector<std::string> paths;
  std::string signature;  // "" for values
};

std::vector<NpRow> np_rows() {
  std::vector<NpRow> out;
#define AG_NP_FN(cpp_name, paths, signature, impl, data) out.push_back({#cpp_name, {AG_TF_UNPAREN paths}, signature});
#define AG_NP_VALUE(cpp_name, paths, what) out.push_back({#cpp_name, {AG_TF_UNPAREN paths}, ""});
#include "runtime/api/np_functions.def"
  return out;
}

std::vector<double> np_doubles(const Value& v) {
  const Tensor& t = ndarray::tensor(v);
  std::vector<double> out;
  for (int64_t i = 0; i < t.num_elements(); ++i) out.push_back(ndarray::item(t, i).as_float());
  return out;
}

std::vector<int64_t> np_ints(const Value& v) {
  const Tensor& t = ndarray::tensor(v);
  std::vector<int64_t> out;
  for (int64_t i = 0; i < t.num_elements(); ++i) out.push_back(ndarray::item(t, i).as_int());
  return out;
}

Value np_list(std::vector<Value> v) { return Value::list(std::move(v)); }

}  // namespace

TEST_CASE("every np row's signature parses, once per path") {
  std::set<std::string> paths, cpp_names;
  for (const NpRow& r : np_rows()) {
    INFO("np." << r.paths[0] << ": " << r.signature);
    CHECK(cpp_names.insert(r.cpp_name).second);
    for (const std::string& p : r.paths) CHECK(paths.insert(p).second);
    if (!r.signature.empty()) CHECK_NOTHROW(ag::api::parse_signature(r.signature));
  }
  CHECK(paths.count("random.seed"));
}

TEST_CASE("every ufunc and reduction row names one agc computes") {
  Value a = np_api::array({np_list({Value(1.0), Value(-2.5)})}, {});
  Value b = np_api::array({np_list({Value(0.5), Value(4.0)})}, {});
  for (auto fn : {np_api::add, np_api::subtract, np_api::multiply, np_api::divide, np_api::floor_divide,
                  np_api::remainder, np_api::power, np_api::maximum, np_api::minimum, np_api::arctan2, np_api::equal,
                  np_api::not_equal, np_api::less, np_api::less_equal, np_api::greater, np_api::greater_equal,
                  np_api::logical_and, np_api::logical_or, np_api::logical_xor}) {
    CHECK_NOTHROW(fn({a, b}, {}));
  }
  for (auto fn : {np_api::negative, np_api::positive, np_api::absolute, np_api::logical_not, np_api::sign,
                  np_api::square, np_api::sqrt, np_api::exp, np_api::log, np_api::log2, np_api::log10, np_api::log1p,
                  np_api::expm1, np_api::sin, np_api::cos, np_api::tan, np_api::arcsin, np_api::arccos, np_api::arctan,
                  np_api::sinh, np_api::cosh, np_api::tanh, np_api::floor, np_api::ceil, np_api::trunc, np_api::rint,
                  np_api::isnan, np_api::isinf, np_api::isfinite}) {
    CHECK_NOTHROW(fn({a}, {}));
  }
  for (auto fn : {np_api::sum, np_api::prod, np_api::mean, np_api::var, np_api::std, np_api::max, np_api::min,
                  np_api::any, np_api::all, np_api::argmax, np_api::argmin, np_api::cumsum, np_api::cumprod}) {
    CHECK_NOTHROW(fn({a}, {{"axis", Value(0)}}));
  }
  CHECK(error_text([&] { np_api::add({a, b}, {{"out", a}}); }) ==
        "NotImplementedError: the out= argument of NumPy functions is not supported by agc");
  CHECK(error_text([&] { np_api::zeros({}, {}); }) == "TypeError: zeros() missing 1 required positional argument: 'shape'");
}

TEST_CASE("the legacy RandomState draws NumPy's numbers") {
  np_api::random_seed({Value(0)}, {});
  CHECK(np_doubles(np_api::random_rand({Value(3)}, {})) ==
        std::vector<double>{0x1.18fe1565f12a8p-1, 0x1.6e2d4cf608733p-1, 0x1.349d66b6e894bp-1});
  np_api::random_seed({Value(12345)}, {});
  CHECK(np_doubles(np_api::random_randn({Value(3)}, {})) ==
        std::vector<double>{-0x1.a33dc4f5d203dp-3, 0x1.ea701f566080fp-2, -0x1.09f3df0ae3d0ep-1});
  np_api::random_seed({Value(1)}, {});
  CHECK(np_ints(np_api::random_randint({Value(0), Value(100)}, {{"size", Value(5)}})) ==
        std::vector<int64_t>{37, 12, 72, 9, 75});
  Value one = np_api::random_randint({Value(5)}, {});
  CHECK(one.is_int());
  CHECK(one.as_int() == 0);
  CHECK(np_ints(np_api::random_randint({Value(-3), Value(3)}, {{"size", Value(3)}, {"dtype", np_api::int8()}})) ==
        std::vector<int64_t>{-3, -3, 0});
  CHECK(np_ints(np_api::random_randint({Value(0), Value(int64_t{1} << 40)}, {{"size", Value(2)}})) ==
        std::vector<int64_t>{554850762700, 306426850029});
  np_api::random_seed({np_list({Value(1), Value(2), Value(3)})}, {});
  CHECK(np_api::random_rand({}, {}).as_float() == 0x1.383fbc97230c2p-1);
  np_api::random_seed({Value(7)}, {});
  Value a = np_api::arange({Value(10)}, {});
  np_api::random_shuffle({a}, {});
  CHECK(np_ints(a) == std::vector<int64_t>{8, 5, 0, 2, 1, 9, 7, 3, 6, 4});
  CHECK(np_ints(np_api::random_permutation({Value(5)}, {})) == std::vector<int64_t>{3, 1, 0, 4, 2});
  CHECK(np_ints(np_api::random_choice({Value(5), Value(3)}, {})) == std::vector<int64_t>{4, 0, 4});
  CHECK(np_ints(np_api::random_choice({Value(5), Value(3)}, {{"replace", Value(false)}})) == std::vector<int64_t>{1, 4, 2});
  Value p = np_list({Value(0.5), Value(0.25), Value(0.25)});
  CHECK(np_ints(np_api::random_choice({np_list({Value(10), Value(20), Value(30)}), Value(4)}, {{"p", p}})) ==
        std::vector<int64_t>{30, 10, 10, 30});
  np_api::random_seed({Value(3)}, {});
  CHECK(np_api::random_uniform({Value(-1), Value(1)}, {}).as_float() == 0x1.a022ec486c1a0p-4);
  CHECK(np_api::random_normal({Value(2.0), Value(0.5)}, {}).as_float() == 0x1.7c3a475b7dd2ep+0);
  CHECK(np_api::random_normal({}, {}).as_float() == 0x1.0659bd11f1fdep+0);
  CHECK(error_text([] { np_api::random_seed({Value(-1)}, {}); }) == "ValueError: Seed must be between 0 and 2**32 - 1");
}

TEST_CASE("np.random.RandomState instances draw NumPy's numbers from their own state") {
  Value cls = np_api::random_RandomState();
  Value rs = cls({Value(0)}, {});
  np_api::random_seed({Value(5)}, {});  // the module's global state is apart
  CHECK(np_doubles(rs.getattr("rand")({Value(3)}, {})) ==
        std::vector<double>{0x1.18fe1565f12a8p-1, 0x1.6e2d4cf608733p-1, 0x1.349d66b6e894bp-1});
  CHECK(np_doubles(rs.getattr("randn")({Value(3)}, {})) ==
        std::vector<double>{-0x1.2258941855050p+1, 0x1.55633ae9cc424p+0, -0x1.af7986f57fa88p-1});
  CHECK(np_ints(rs.getattr("randint")({Value(0), Value(1000)}, {{"size", Value(4)}})) ==
        std::vector<int64_t>{70, 472, 600, 396});
  Value top = cls({}, {{"seed", Value(int64_t{4294967295})}});
  CHECK(top.getattr("random_sample")({}, {}).as_float() == 0x1.8fe69a3924820p-4);
  CHECK(error_text([&] { cls({Value(-1)}, {}); }) == "ValueError: Seed must be between 0 and 2**32 - 1");
  CHECK(error_text([&] { rs.getattr("rand")({}, {{"size", Value(2)}}); }) ==
        "TypeError: rand() got an unexpected keyword argument 'size'");
}

TEST_CASE("np.unique refuses an axis clearly") {
  Value a = np_list({Value(1), Value(2)});
  CHECK(error_text([&] { np_api::unique({a}, {{"axis", Value(0)}}); }) ==
        "NotImplementedError: np.unique with axis= is not supported by agc (only axis=None)");
}

TEST_CASE("arange and linspace compute NumPy's values") {
  CHECK(np_doubles(np_api::arange({Value(0), Value(1), Value(0.1)}, {})) ==
        std::vector<double>{0, 0x1.999999999999ap-4, 0x1.999999999999ap-3, 0x1.3333333333334p-2, 0x1.999999999999ap-2,
                            0x1p-1, 0x1.3333333333334p-1, 0x1.6666666666667p-1, 0x1.999999999999ap-1,
                            0x1.ccccccccccccdp-1});
  CHECK(np_doubles(np_api::arange({Value(0.5), Value(3)}, {})) == std::vector<double>{0.5, 1.5, 2.5});
  CHECK(np_ints(np_api::arange({Value(5), Value(1), Value(-2)}, {})) == std::vector<int64_t>{5, 3});
  CHECK(np_doubles(np_api::linspace({Value(0), Value(1), Value(7)}, {})) ==
        std::vector<double>{0, 0x1.5555555555555p-3, 0x1.5555555555555p-2, 0x1p-1, 0x1.5555555555555p-1,
                            0x1.aaaaaaaaaaaaap-1, 1});
  CHECK(np_doubles(np_api::linspace({Value(-2.5), Value(10), Value(4)}, {{"endpoint", Value(false)}})) ==
        std::vector<double>{-2.5, 0.625, 3.75, 6.875});
}
