// Sweep cases for scatter_ops.cpp: the TensorScatter ops against naive loops
// over index tuples (elements and whole slices); their error texts. (ScatterNd:
// array_grad_ops_test.cpp.)
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/ops/eager.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub");

TEST_CASE("TensorScatterUpdate, Add and Sub write slices of a copy at index tuples, in index order") {
  for (const char* op : {"TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub"}) {
    const std::string name = op;
    for (DType dt : {DType::Float32, DType::Float64, DType::Int32}) {
      for (int trial = 0; trial < 12; ++trial) {
        Shape s = sweep::random_shape(3, 4, false);
        if (s.rank() == 0) s = Shape{4};
        const int k = static_cast<int>(rnd(1, s.rank()));
        const int64_t n = rnd(0, 5);
        std::vector<int32_t> idx;
        for (int64_t j = 0; j < n; ++j) {
          for (int d = 0; d < k; ++d) idx.push_back(static_cast<int32_t>(rnd(0, s.dim(d) - 1)));
        }
        Shape upd_shape{n};
        int64_t slice = 1;
        for (int d = k; d < s.rank(); ++d) {
          upd_shape.push_back(s.dim(d));
          slice *= s.dim(d);
        }
        Tensor tensor = sweep::random_tensor(dt, s);
        Tensor updates = sweep::random_tensor(dt, upd_shape);
        Tensor got = run1(op, {tensor, int32s(idx, Shape{n, k}), updates});
        std::vector<double> values;
        for (int64_t i = 0; i < tensor.num_elements(); ++i) values.push_back(sweep::element(tensor, i));
        Tensor want = Tensor::from_vector<double>(s, values);
        for (int64_t j = 0; j < n; ++j) {
          int64_t off = 0;
          for (int d = 0; d < k; ++d) off = off * s.dim(d) + idx[static_cast<size_t>(j * k + d)];
          off *= slice;
          for (int64_t q = 0; q < slice; ++q) {
            double& w = want.data<double>()[off + q];
            const double u = sweep::element(updates, j * slice + q);
            w = name == "TensorScatterUpdate" ? u : name == "TensorScatterAdd" ? w + u : w - u;
          }
        }
        Tensor typed(dt, s);
        for (int64_t i = 0; i < typed.num_elements(); ++i) put(typed, i, want.data<double>()[i]);
        sweep::expect_close(got, typed, name + " " + dtype_name(dt) + " " + s.str() + " k=" + std::to_string(k), 1e-5,
                            1e-5);
      }
    }
  }
  Tensor t = float64s({1, 2, 3, 4}, Shape{4});
  CHECK(error_of("TensorScatterUpdate", {t, int32s({4}, Shape{1, 1}), float64s({9}, Shape{1})}) ==
        "indices[0] = [4] does not index into shape [4]");
  CHECK(error_of("TensorScatterAdd", {Tensor::from_vector<bool>(Shape{1}, {true}), int32s({0}, Shape{1, 1}),
                                      Tensor::from_vector<bool>(Shape{1}, {true})})
            .starts_with("Value for attr 'T' of bool is not in the list of allowed values"));
  // Update writes bools and strings too.
  Tensor strings(DType::String, Shape{2});
  strings.data<std::string>()[0] = "a";
  strings.data<std::string>()[1] = "b";
  Tensor repl(DType::String, Shape{1});
  repl.data<std::string>()[0] = "z";
  Tensor out = run1("TensorScatterUpdate", {strings, int32s({1}, Shape{1, 1}), repl});
  CHECK(out.data<std::string>()[0] == "a");
  CHECK(out.data<std::string>()[1] == "z");
}
