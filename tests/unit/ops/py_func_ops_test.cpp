// EagerPyFunc: a registered host function runs when the node runs, on the
// inputs' values; its results are checked against Tout.
#include <doctest/doctest.h>

#include "runtime/ops/py_func.h"
#include "tests/unit/ops/support.h"

namespace ag {
namespace {

std::vector<int64_t> dtypes(std::initializer_list<DType> ds) {
  std::vector<int64_t> out;
  for (DType d : ds) out.push_back(static_cast<int64_t>(d));
  return out;
}

TEST_CASE("EagerPyFunc calls its host function on every run, with the inputs' values") {
  int calls = 0;
  std::string token = register_host_function([&calls](const std::vector<Tensor>& in) {
    ++calls;
    REQUIRE(in.size() == 2);
    std::vector<float> sum;
    for (int64_t i = 0; i < in[0].num_elements(); ++i) sum.push_back(in[0].data<float>()[i] + in[1].data<float>()[i]);
    return std::vector<Tensor>{Tensor::from_vector<float>({in[0].num_elements()}, sum), in[0]};
  });
  CHECK(token.rfind("pyfunc_", 0) == 0);
  CHECK(register_host_function([](const std::vector<Tensor>&) { return std::vector<Tensor>{}; }) != token);
  Tensor a = Tensor::from_vector<float>({2}, {1, 2});
  Tensor b = Tensor::from_vector<float>({2}, {10, 20});
  Attrs attrs{{"token", token}, {"Tout", dtypes({DType::Float32, DType::Float32})}};
  for (int run = 1; run <= 3; ++run) {
    std::vector<Tensor> out = runv("EagerPyFunc", {a, b}, attrs);
    REQUIRE(out.size() == 2);
    CHECK(out[0].data<float>()[1] == 22.0f);
    CHECK(calls == run);
  }
}

TEST_CASE("EagerPyFunc checks the host function's results against Tout") {
  std::string two = register_host_function([](const std::vector<Tensor>&) {
    return std::vector<Tensor>{Tensor::scalar<float>(1), Tensor::scalar<float>(2)};
  });
  CHECK_THROWS_AS(runv("EagerPyFunc", {}, Attrs{{"token", two}, {"Tout", dtypes({DType::Float32})}}),
                  InvalidArgumentError);
  CHECK_THROWS_AS(runv("EagerPyFunc", {}, Attrs{{"token", two}, {"Tout", dtypes({DType::Float32, DType::Int32})}}),
                  InvalidArgumentError);
  CHECK(runv("EagerPyFunc", {}, Attrs{{"token", two}, {"Tout", dtypes({DType::Float32, DType::Float32})}}).size() == 2);
  // A token this process never registered (a graph from elsewhere).
  CHECK_THROWS_AS(runv("EagerPyFunc", {}, Attrs{{"token", std::string("pyfunc_999999")}}), UnknownError);
}

}  // namespace
}  // namespace ag
