// Sweep cases for iterator_ops.cpp: a registered source's passes through
// AnonymousIteratorV3 / IteratorGetNextAsOptional / DeleteIterator.
#include <doctest/doctest.h>

#include "runtime/ops/iterator_ops.h"
#include "tests/unit/ops/support.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("AnonymousIteratorV3", "IteratorGetNextAsOptional", "DeleteIterator");

namespace {

/// The rows 0..n-1 as int32 vectors [i, i] (shape (None,) in the spec).
class Counting final : public IterableSource {
 public:
  explicit Counting(int n) : n_(n) {}
  std::vector<TensorSpec> element_specs() const override {
    return {{DType::Int32, Shape{kUnknownDim}}, {DType::String, Shape{}}};
  }
  std::unique_ptr<ElementSource> start() const override {
    class Pass final : public ElementSource {
     public:
      explicit Pass(int n) : n_(n) {}
      bool next(std::vector<Tensor>& out) override {
        if (i_ >= n_) return false;
        out = {Tensor::from_vector<int32_t>({2}, {i_, i_}), Tensor::scalar<std::string>(std::to_string(i_))};
        ++i_;
        return true;
      }

     private:
      int n_, i_ = 0;
    };
    return std::make_unique<Pass>(n_);
  }

 private:
  int n_;
};

}  // namespace

TEST_CASE("iterators make independent passes and pad the end with zeros") {
  Attrs a{{"dataset", register_iterable(std::make_shared<Counting>(2))}};
  Tensor it1 = run1("AnonymousIteratorV3", {}, a);
  Tensor it2 = run1("AnonymousIteratorV3", {}, a);
  CHECK(it1.scalar_value<int64_t>() != it2.scalar_value<int64_t>());
  auto first = runv("IteratorGetNextAsOptional", {it1}, a);
  REQUIRE(first.size() == 3);
  CHECK(first[0].scalar_value<bool>());
  CHECK(first[1].data<int32_t>()[1] == 0);
  CHECK(first[2].scalar_value<std::string>() == "0");
  auto second = runv("IteratorGetNextAsOptional", {it1}, a);
  CHECK(second[1].data<int32_t>()[0] == 1);
  // it2 starts from the beginning.
  CHECK(runv("IteratorGetNextAsOptional", {it2}, a)[2].scalar_value<std::string>() == "0");
  auto end = runv("IteratorGetNextAsOptional", {it1}, a);
  CHECK_FALSE(end[0].scalar_value<bool>());
  CHECK(end[1].shape() == Shape{0});  // the unknown dim is 0
  CHECK(end[2].scalar_value<std::string>().empty());
  CHECK(runv("DeleteIterator", {it1}, a).empty());
  CHECK_THROWS_AS(runv("IteratorGetNextAsOptional", {it1}, a), FailedPreconditionError);
}

TEST_CASE("an iterator op naming a dataset this program never made is NotFoundError, not an internal error") {
  // Found by ops_fuzz: a graph read from a file can carry any "dataset" id.
  Attrs bogus{{"dataset", int64_t{-7}}};
  CHECK_THROWS_WITH_AS(run1("AnonymousIteratorV3", {}, bogus), "Resource dataset -7 does not exist", NotFoundError);
  CHECK_THROWS_WITH_AS(runv("IteratorGetNextAsOptional", {Tensor::scalar<int64_t>(1)}, bogus),
                       "Resource dataset -7 does not exist", NotFoundError);
}
