// Sweep cases for the array ops that move elements by position (pad_ops.cpp,
// shape_ops.cpp): MirrorPad against NumPy's reflect/symmetric rule written
// out per dim, MirrorPadGrad as MirrorPad's adjoint, BroadcastTo and Roll
// against index arithmetic; their error texts.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/ops/eager.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("MirrorPad", "MirrorPadGrad", "BroadcastTo", "Roll");

namespace {

/// NumPy's np.pad index for a padded position p of a dim of size n: reflect
/// mirrors about the edge element, symmetric about the edge itself.
int64_t mirror_index(int64_t p, int64_t n, bool reflect) {
  if (p < 0) return reflect ? -p : -p - 1;
  if (p >= n) return reflect ? 2 * (n - 1) - p : 2 * n - 1 - p;
  return p;
}

Tensor mirror_reference(const Tensor& x, const std::vector<int64_t>& pads, bool reflect) {
  Shape out;
  for (int d = 0; d < x.rank(); ++d) out.push_back(x.shape().dim(d) + pads[2 * d] + pads[2 * d + 1]);
  Tensor want(x.dtype(), out);
  for (int64_t i = 0; i < want.num_elements(); ++i) {
    std::vector<int64_t> idx = unravel_index(i, out);
    for (int d = 0; d < x.rank(); ++d) idx[d] = mirror_index(idx[d] - pads[2 * d], x.shape().dim(d), reflect);
    put(want, i, sweep::element(x, ravel_index(idx, x.shape())));
  }
  return want;
}

Tensor pad_tensor(const std::vector<int64_t>& pads) {
  std::vector<int32_t> v(pads.begin(), pads.end());
  return int32s(v, Shape{static_cast<int64_t>(pads.size() / 2), 2});
}

}  // namespace

TEST_CASE("MirrorPad matches NumPy's reflect and symmetric padding; MirrorPadGrad is its adjoint") {
  for (bool reflect : {true, false}) {
    const Attrs mode{{"mode", std::string(reflect ? "REFLECT" : "SYMMETRIC")}};
    for (DType dt : {DType::Float32, DType::Float64, DType::Int32}) {
      for (int trial = 0; trial < 12; ++trial) {
        Shape s = sweep::random_shape(3, 4, false);
        std::vector<int64_t> pads;
        for (int d = 0; d < s.rank(); ++d) {
          const int64_t most = reflect ? s.dim(d) - 1 : s.dim(d);
          pads.push_back(rnd(0, most));
          pads.push_back(rnd(0, most));
        }
        Tensor x = sweep::random_tensor(dt, s);
        Tensor got = run1("MirrorPad", {x, pad_tensor(pads)}, mode);
        std::string what = std::string(reflect ? "REFLECT " : "SYMMETRIC ") + dtype_name(dt) + " " + s.str();
        sweep::expect_close(got, mirror_reference(x, pads, reflect), what);
        if (dt == DType::Int32) continue;
        // <MirrorPad(x), g> == <x, MirrorPadGrad(g)>
        Tensor g = sweep::random_tensor(dt, got.shape());
        Tensor back = run1("MirrorPadGrad", {g, pad_tensor(pads)}, mode);
        REQUIRE(back.shape() == x.shape());
        double lhs = 0, rhs = 0;
        for (int64_t i = 0; i < got.num_elements(); ++i) lhs += sweep::element(got, i) * sweep::element(g, i);
        for (int64_t i = 0; i < x.num_elements(); ++i) rhs += sweep::element(x, i) * sweep::element(back, i);
        CHECK_MESSAGE(lhs == doctest::Approx(rhs).epsilon(1e-4), what);
      }
    }
  }
  Tensor x = sweep::random_tensor(DType::Float32, Shape{3});
  CHECK(error_of("MirrorPad", {x, int32s({3, 0}, Shape{1, 2})}, Attrs{{"mode", std::string("REFLECT")}}) ==
        "paddings must be less than the dimension size: 3, 0 not less than 3");
  CHECK(error_of("MirrorPad", {x, int32s({0, 4}, Shape{1, 2})}, Attrs{{"mode", std::string("SYMMETRIC")}}) ==
        "paddings must be no greater than the dimension size: 0, 4 greater than 3");
}

TEST_CASE("BroadcastTo copies along the stretched and added dims, and names what cannot broadcast") {
  for (DType dt : {DType::Float32, DType::Int64, DType::Bool}) {
    for (int trial = 0; trial < 16; ++trial) {
      Shape target = sweep::random_shape(4, 3);
      Shape in;
      for (int d = static_cast<int>(rnd(0, target.rank())); d < target.rank(); ++d) {
        in.push_back(rnd(0, 1) ? 1 : target.dim(d));
      }
      Tensor x = sweep::random_tensor(dt, in);
      std::vector<int32_t> dims(target.dims().begin(), target.dims().end());
      Tensor got = run1("BroadcastTo", {x, int32s(dims)});
      Tensor want(dt, target);
      for (int64_t i = 0; i < want.num_elements(); ++i) {
        std::vector<int64_t> idx = unravel_index(i, target);
        std::vector<int64_t> src(idx.end() - in.rank(), idx.end());
        for (int d = 0; d < in.rank(); ++d) {
          if (in.dim(d) == 1) src[d] = 0;
        }
        put(want, i, sweep::element(x, ravel_index(src, in)));
      }
      sweep::expect_close(got, want, "BroadcastTo " + in.str() + " to " + target.str());
    }
  }
  Tensor x = sweep::random_tensor(DType::Float32, Shape{3});
  CHECK(error_of("BroadcastTo", {x, int32s({4})}) == "Incompatible shapes: [3] vs. [4]");
  CHECK(error_of("BroadcastTo", {x, int32s({2, 1})}) == "Unable to broadcast tensor of shape [3] to tensor of shape [2,1]");
}

TEST_CASE("Roll moves each element by its axes' shifts, wrapping around") {
  for (DType dt : {DType::Float32, DType::Int32, DType::String}) {
    for (int trial = 0; trial < 16; ++trial) {
      Shape s = sweep::random_shape(3, 4, false);
      if (s.rank() == 0) s = Shape{5};
      Tensor x = sweep::random_tensor(dt, s);
      std::vector<int32_t> shifts, axes;
      std::vector<int64_t> total(static_cast<size_t>(s.rank()), 0);
      for (int j = 0, n = static_cast<int>(rnd(1, 3)); j < n; ++j) {
        int32_t a = static_cast<int32_t>(rnd(-s.rank(), s.rank() - 1));
        int32_t sh = static_cast<int32_t>(rnd(-7, 7));
        axes.push_back(a);
        shifts.push_back(sh);
        total[static_cast<size_t>(a < 0 ? a + s.rank() : a)] += sh;
      }
      Tensor got = run1("Roll", {x, int32s(shifts), int32s(axes)});
      REQUIRE(got.shape() == s);
      for (int64_t i = 0; i < x.num_elements(); ++i) {
        std::vector<int64_t> idx = unravel_index(i, s);
        for (int d = 0; d < s.rank(); ++d) {
          const int64_t n = s.dim(d);
          idx[d] = ((idx[d] + total[static_cast<size_t>(d)]) % n + n) % n;
        }
        const int64_t o = ravel_index(idx, s);
        if (dt == DType::String) CHECK(got.data<std::string>()[o] == x.data<std::string>()[i]);
        else CHECK(sweep::element(got, o) == sweep::element(x, i));
      }
    }
  }
  Tensor x = sweep::random_tensor(DType::Float32, Shape{2, 3});
  CHECK(error_of("Roll", {x, int32s({1, 2}), int32s({0})}) == "shift and axis must have the same size");
  CHECK(error_of("Roll", {x, Tensor::scalar(int32_t{1}), Tensor::scalar(int32_t{2})}) == "axis 2 is out of range");
  CHECK(error_of("Roll", {Tensor::scalar(1.0f), Tensor::scalar(int32_t{1}), Tensor::scalar(int32_t{0})}) ==
        "input must be 1-D or higher");
}
