// Sweep cases for list_ops.cpp: the TensorList ops against a naive model (a
// std::vector of optional tensors), on random element shapes and dtypes, and
// their error texts. Also the versioned storage's promise: every list value
// keeps what it held, however later versions are written.
#include <doctest/doctest.h>

#include <optional>
#include <vector>

#include "runtime/core/tensor_list.h"
#include "runtime/ops/eager.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"
#include "tests/unit/error_text.h"

using namespace ag;
using namespace ag::test;
using ag::test::error_text;

AG_SWEEP_COVERS("EmptyTensorList", "TensorListReserve", "TensorListFromTensor", "TensorListLength",
                "TensorListGetItem", "TensorListSetItem", "TensorListPushBack", "TensorListPopBack",
                "TensorListStack", "TensorListGather", "TensorListConcatV2", "TensorListSplit",
                "TensorListScatterIntoExistingList");

namespace {

Tensor i32(int32_t v) { return Tensor::scalar<int32_t>(v); }
/// TensorListConcatV2's leading_dims as TF's Python passes it when not given.
Tensor no_leading_dims() { return Tensor(DType::Int64, Shape{0}); }

Attrs list_attrs(DType dtype, const Shape& shape) { return Attrs{{"element_dtype", dtype}, {"element_shape", shape}}; }


/// The naive model's stack: rows in order, unset rows zeros of `elem`.
Tensor model_stack(const std::vector<std::optional<Tensor>>& rows, DType dtype, const Shape& elem) {
  Shape out{static_cast<int64_t>(rows.size())};
  for (int64_t d : elem.dims()) out.push_back(d);
  Tensor t = Tensor::zeros(dtype, out);
  int64_t per = elem.num_elements();
  for (size_t r = 0; r < rows.size(); ++r) {
    if (!rows[r]) continue;
    for (int64_t j = 0; j < per; ++j) {
      dispatch_dtype(dtype, [&]<class T>() { t.data<T>()[static_cast<int64_t>(r) * per + j] = rows[r]->data<T>()[j]; });
    }
  }
  return t;
}

}  // namespace

TEST_CASE("list ops agree with a vector model on random writes, reads and stacks") {
  const DType dtypes[] = {DType::Float32, DType::Int32, DType::Int64, DType::Bool, DType::String, DType::BFloat16,
                          DType::Float64, DType::UInt8};
  for (int trial = 0; trial < 60; ++trial) {
    DType dtype = dtypes[trial % std::size(dtypes)];
    Shape elem = sweep::random_shape(3, 4);
    auto n = static_cast<int32_t>(sweep::rng()() % 6);
    Tensor list = run1("TensorListReserve", {i32(n)}, list_attrs(dtype, elem));
    std::vector<std::optional<Tensor>> model(static_cast<size_t>(n));
    std::vector<std::pair<Tensor, std::vector<std::optional<Tensor>>>> versions{{list, model}};
    for (int step = 0; step < 12; ++step) {
      // Write from a random earlier version (branching histories included).
      auto& [base, base_model] = versions[sweep::rng()() % versions.size()];
      auto size = static_cast<int32_t>(base_model.size());
      int op = static_cast<int>(sweep::rng()() % 3);
      Tensor item = sweep::random_tensor(dtype, elem);
      std::vector<std::optional<Tensor>> m = base_model;
      Tensor next;
      if (op == 0 && size > 0) {
        auto i = static_cast<int32_t>(sweep::rng()() % static_cast<unsigned>(size));
        next = run1("TensorListSetItem", {base, i32(i), item});
        m[static_cast<size_t>(i)] = item;
      } else if (op == 1) {
        next = run1("TensorListPushBack", {base, item});
        m.push_back(item);
      } else {
        auto i = static_cast<int32_t>(size + static_cast<int32_t>(sweep::rng()() % 3));
        next = run1("TensorListSetItem", {base, i32(i), item}, Attrs{{"resize_if_index_out_of_bounds", true}});
        m.resize(static_cast<size_t>(i) + 1);
        m[static_cast<size_t>(i)] = item;
      }
      versions.emplace_back(next, m);
    }
    // Every version still reads as its model says.
    for (auto& [l, m] : versions) {
      CHECK(run1("TensorListLength", {l}).scalar_value<int32_t>() == static_cast<int32_t>(m.size()));
      Attrs a = list_attrs(dtype, elem);
      sweep::expect_close(run1("TensorListStack", {l}, a), model_stack(m, dtype, elem), "stack");
      for (size_t i = 0; i < m.size(); ++i) {
        Tensor got = run1("TensorListGetItem", {l, i32(static_cast<int32_t>(i))}, a);
        sweep::expect_close(got, m[i] ? *m[i] : Tensor::zeros(dtype, elem), "get_item");
      }
      if (!m.empty()) {
        std::vector<int32_t> idx{static_cast<int32_t>(m.size() - 1), 0};
        Tensor g = run1("TensorListGather", {l, Tensor::from_vector<int32_t>(Shape{2}, idx)}, a);
        sweep::expect_close(g, model_stack({m.back(), m.front()}, dtype, elem), "gather");
        std::vector<Tensor> popped = runv("TensorListPopBack", {l}, a);
        sweep::expect_close(popped[1], m.back() ? *m.back() : Tensor::zeros(dtype, elem), "pop");
        CHECK(run1("TensorListLength", {popped[0]}).scalar_value<int32_t>() == static_cast<int32_t>(m.size() - 1));
      }
    }
  }
}

TEST_CASE("TensorListFromTensor unstacks rows and EmptyTensorList starts empty") {
  for (int trial = 0; trial < 20; ++trial) {
    DType dtype = trial % 2 ? DType::Float32 : DType::String;
    Shape s = sweep::random_shape(3, 4);
    if (s.rank() == 0) s = Shape{3};
    Tensor t = sweep::random_tensor(dtype, s);
    Tensor l = run1("TensorListFromTensor", {t}, Attrs{{"element_shape", Shape::unknown_rank()}});
    Shape elem(s.dims().subspan(1));
    sweep::expect_close(run1("TensorListStack", {l}, list_attrs(dtype, elem)), t, "from_tensor round trip");
  }
  Tensor e = run1("EmptyTensorList", {}, list_attrs(DType::Int32, Shape{2}));
  CHECK(run1("TensorListLength", {e}).scalar_value<int32_t>() == 0);
  Tensor st = run1("TensorListStack", {e}, list_attrs(DType::Int32, Shape{2}));
  CHECK(st.shape() == Shape{0, 2});
}

TEST_CASE("a list of unknown element dtype takes its first item's") {
  Tensor e = run1("EmptyTensorList", {}, list_attrs(DType::Variant, Shape::unknown_rank()));
  Tensor l = run1("TensorListPushBack", {e, Tensor::scalar<int64_t>(7)});
  CHECK(list_of(l).element_dtype == DType::Int64);
  CHECK(error_text([&] { run1("TensorListPushBack", {l, Tensor::scalar<float>(1)}); }) ==
        "InvalidArgumentError: Invalid data types; op elements float but list elements int64");
}

TEST_CASE("list op errors read as TF's") {
  Attrs f2 = list_attrs(DType::Float32, Shape{2});
  Tensor l = run1("TensorListReserve", {i32(3)}, f2);
  Tensor item = Tensor::from_vector<float>(Shape{2}, {1, 2});
  CHECK(error_text([&] { run1("TensorListSetItem", {l, i32(3), item}); }) ==
        "InvalidArgumentError: Trying to modify element 3 in a list with 3 elements.");
  CHECK(error_text([&] { run1("TensorListSetItem", {l, i32(-1), item}, Attrs{{"resize_if_index_out_of_bounds", true}}); }) ==
        "InvalidArgumentError: Trying to resize with negative index: -1");
  CHECK(error_text([&] { run1("TensorListGetItem", {l, i32(5)}, f2); }) ==
        "InvalidArgumentError: Trying to access element 5 in a list with 3 elements.");
  CHECK(error_text([&] { run1("TensorListGetItem", {l, i32(0)}, list_attrs(DType::Int32, Shape{2})); }) ==
        "InvalidArgumentError: Invalid data types; op elements int32 but list elements float");
  CHECK(error_text([&] {
          run1("TensorListSetItem", {l, i32(0), Tensor::from_vector<float>(Shape{3}, {1, 2, 3})});
        }) == "InvalidArgumentError: Tried to set a tensor with incompatible shape at a list index. Item element "
              "shape: [3] list shape: [2]");
  Tensor u = run1("TensorListReserve", {i32(2)}, list_attrs(DType::Float32, Shape::unknown_rank()));
  CHECK(error_text([&] { run1("TensorListGetItem", {u, i32(0)}, list_attrs(DType::Float32, Shape::unknown_rank())); }) ==
        "InvalidArgumentError: Trying to read an uninitialized tensor but element_shape is not fully defined: "
        "<unknown> and no list element is set.");
  CHECK(error_text([&] { run1("TensorListStack", {u}, list_attrs(DType::Float32, Shape::unknown_rank())); }) ==
        "InvalidArgumentError: Tried to stack list which only contains uninitialized tensors and has a "
        "non-fully-defined element_shape: <unknown>");
  Tensor e = run1("EmptyTensorList", {}, list_attrs(DType::Float32, Shape::unknown_rank()));
  CHECK(error_text([&] { run1("TensorListStack", {e}, list_attrs(DType::Float32, Shape::unknown_rank())); }) ==
        "InvalidArgumentError: Tried to stack elements of an empty list with non-fully-defined element_shape: "
        "<unknown>");
  CHECK(error_text([&] { runv("TensorListPopBack", {e}, list_attrs(DType::Float32, Shape::unknown_rank())); }) ==
        "InvalidArgumentError: Trying to pop from an empty list.");
  CHECK(error_text([&] { run1("TensorListReserve", {i32(-2)}, f2); }) ==
        "InvalidArgumentError: The num_elements to reserve must be a non negative number, but got -2");
  CHECK(error_text([&] { run1("TensorListStack", {l}, Attrs{{"element_dtype", DType::Float32}, {"element_shape", Shape{2}}, {"num_elements", int64_t{4}}}); }) ==
        "InvalidArgumentError: Operation expected a list with 4 elements but got a list with 3 elements.");
  CHECK(error_text([&] { run1("TensorListFromTensor", {Tensor::scalar<float>(1)}); }) ==
        "InvalidArgumentError: Tensor must be at least a vector, but saw shape: []");
  CHECK(error_text([&] { run1("TensorListLength", {Tensor::scalar<float>(1)}); }).starts_with("InvalidArgumentError: "));
  CHECK(error_text([&] { run1("AddV2", {l, l}); }).starts_with("InvalidArgumentError: "));
}

TEST_CASE("TensorListSplit then TensorListConcatV2 gives the tensor and the lengths back") {
  for (int trial = 0; trial < 30; ++trial) {
    DType dtype = trial % 2 ? DType::Float32 : DType::Int64;
    Shape rest = sweep::random_shape(2, 3);
    std::vector<int64_t> lengths;
    int64_t total = 0;
    for (int i = 0, n = static_cast<int>(sweep::rng()() % 5) + 1; i < n; ++i) {
      lengths.push_back(static_cast<int64_t>(sweep::rng()() % 3));
      total += lengths.back();
    }
    Shape s{total};
    for (int64_t d : rest.dims()) s.push_back(d);
    Tensor t = sweep::random_tensor(dtype, s);
    Tensor len = Tensor::from_vector<int64_t>(Shape{static_cast<int64_t>(lengths.size())}, lengths);
    Tensor l = run1("TensorListSplit", {t, len}, Attrs{{"element_shape", Shape::unknown_rank()}});
    CHECK(run1("TensorListLength", {l}).scalar_value<int32_t>() == static_cast<int32_t>(lengths.size()));
    Shape given{-1};
    for (int64_t d : rest.dims()) given.push_back(d);
    std::vector<Tensor> out = runv("TensorListConcatV2", {l, no_leading_dims()}, list_attrs(dtype, given));
    sweep::expect_close(out[0], t, "split/concat round trip");
    sweep::expect_close(out[1], len, "concat lengths");
  }
}

TEST_CASE("TensorListScatterIntoExistingList sets rows, grows the list and reads as TF's kernels") {
  Tensor l = run1("TensorListReserve", {i32(2)}, list_attrs(DType::Float32, Shape::unknown_rank()));
  Tensor v = Tensor::from_vector<float>(Shape{2, 2}, {1, 2, 3, 4});
  Tensor s = run1("TensorListScatterIntoExistingList", {l, v, Tensor::from_vector<int32_t>(Shape{2}, {3, 0})});
  CHECK(run1("TensorListLength", {s}).scalar_value<int32_t>() == 4);
  Tensor st = run1("TensorListStack", {s}, list_attrs(DType::Float32, Shape{2}));
  sweep::expect_close(st, Tensor::from_vector<float>(Shape{4, 2}, {3, 4, 0, 0, 0, 0, 1, 2}), "scatter");
  CHECK(error_text([&] { run1("TensorListScatterIntoExistingList", {l, v, Tensor::from_vector<int32_t>(Shape{1}, {0})}); }) ==
        "InvalidArgumentError: Expected len(indices) == tensor.shape[0], but saw: 1 vs. 2");
  // Unset elements take the leading dim the set ones share; else concat fails.
  Tensor c = runv("TensorListConcatV2", {s, no_leading_dims()}, list_attrs(DType::Float32, Shape::unknown_rank()))[0];
  CHECK(c.shape() == Shape{8});
  Tensor r = run1("TensorListReserve", {i32(2)}, list_attrs(DType::Float32, Shape::unknown_rank()));
  CHECK(error_text([&] { runv("TensorListConcatV2", {r, no_leading_dims()}, list_attrs(DType::Float32, Shape::unknown_rank())); }) ==
        "InvalidArgumentError: Trying to concat list with only uninitialized tensors but "
        "element_shape_except_first_dim is not fully defined: <unknown>");
  r = run1("TensorListSetItem", {r, i32(0), Tensor::from_vector<float>(Shape{1}, {5})});
  sweep::expect_close(runv("TensorListConcatV2", {r, no_leading_dims()}, list_attrs(DType::Float32, Shape::unknown_rank()))[0],
                      Tensor::from_vector<float>(Shape{2}, {5, 0}), "unset element as zeros");
  Tensor t3 = Tensor::from_vector<float>(Shape{3}, {1, 2, 3});
  CHECK(error_text([&] { run1("TensorListSplit", {t3, Tensor::from_vector<int64_t>(Shape{1}, {1})}, Attrs{{"element_shape", Shape::unknown_rank()}}); }) ==
        "InvalidArgumentError: Unused values in tensor. Length of tensor: 3 Values used: 1");
  CHECK(error_text([&] { run1("TensorListSplit", {t3, Tensor::from_vector<int64_t>(Shape{1}, {4})}, Attrs{{"element_shape", Shape::unknown_rank()}}); }) ==
        "InvalidArgumentError: Attempting to slice [0, 4] from tensor with length 3");
}
