// Sweep cases for conv3d_ops.cpp: Conv3D against a direct loop (strides,
// SAME and VALID, dilations, groups, bfloat16 rounded once), its gradient
// ops as its adjoints (<dy, conv(x, w)> = <backprop_input(dy), x> =
// <backprop_filter(dy), w>), and TF's errors.
#include <doctest/doctest.h>

#include "tests/unit/error_text.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("Conv3D", "Conv3DBackpropInputV2", "Conv3DBackpropFilterV2");

namespace {

struct Case3 {
  int64_t n, d, h, w, c, k0, k1, k2, cf, oc;
  std::array<int64_t, 3> stride, dil;
  std::string padding;
};

Attrs attrs_of(const Case3& c) {
  return Attrs{{"strides", std::vector<int64_t>{1, c.stride[0], c.stride[1], c.stride[2], 1}},
               {"dilations", std::vector<int64_t>{1, c.dil[0], c.dil[1], c.dil[2], 1}},
               {"padding", c.padding}};
}

/// One dim's output size and leading pad, from TF's documented rule.
std::pair<int64_t, int64_t> window(int64_t in, int64_t k, int64_t s, int64_t d, const std::string& p) {
  const int64_t eff = (k - 1) * d + 1;
  if (p == "VALID") return {(in - eff + s) / s, 0};
  const int64_t out = (in + s - 1) / s;
  return {out, std::max<int64_t>(0, (out - 1) * s + eff - in) / 2};
}

Tensor reference(const Tensor& x, const Tensor& f, const Case3& c) {
  const int64_t in[3] = {c.d, c.h, c.w}, k[3] = {c.k0, c.k1, c.k2};
  int64_t out[3], pad[3];
  for (int i = 0; i < 3; ++i) std::tie(out[i], pad[i]) = window(in[i], k[i], c.stride[static_cast<size_t>(i)], c.dil[static_cast<size_t>(i)], c.padding);
  Tensor y(DType::Float64, Shape{c.n, out[0], out[1], out[2], c.oc});
  const int64_t og = c.oc / (c.c / c.cf);
  for (int64_t b = 0; b < c.n; ++b)
    for (int64_t o0 = 0; o0 < out[0]; ++o0)
      for (int64_t o1 = 0; o1 < out[1]; ++o1)
        for (int64_t o2 = 0; o2 < out[2]; ++o2)
          for (int64_t oc = 0; oc < c.oc; ++oc) {
            double s = 0;
            for (int64_t a = 0; a < k[0]; ++a)
              for (int64_t e = 0; e < k[1]; ++e)
                for (int64_t g = 0; g < k[2]; ++g)
                  for (int64_t ci = 0; ci < c.cf; ++ci) {
                    const int64_t i0 = o0 * c.stride[0] - pad[0] + a * c.dil[0];
                    const int64_t i1 = o1 * c.stride[1] - pad[1] + e * c.dil[1];
                    const int64_t i2 = o2 * c.stride[2] - pad[2] + g * c.dil[2];
                    if (i0 < 0 || i0 >= c.d || i1 < 0 || i1 >= c.h || i2 < 0 || i2 >= c.w) continue;
                    s += sweep::element(x, (((b * c.d + i0) * c.h + i1) * c.w + i2) * c.c + (oc / og) * c.cf + ci) *
                         sweep::element(f, (((a * c.k1 + e) * c.k2 + g) * c.cf + ci) * c.oc + oc);
                  }
            y.data<double>()[(((b * out[0] + o0) * out[1] + o1) * out[2] + o2) * c.oc + oc] = s;
          }
  return y;
}

Tensor as_f64(const Tensor& t) {
  Tensor out(DType::Float64, t.shape());
  for (int64_t i = 0; i < t.num_elements(); ++i) out.data<double>()[i] = sweep::element(t, i);
  return out;
}

double dot(const Tensor& a, const Tensor& b) {
  double s = 0;
  for (int64_t i = 0; i < a.num_elements(); ++i) s += sweep::element(a, i) * sweep::element(b, i);
  return s;
}

Tensor ints(const Shape& s) {
  std::vector<int32_t> v(s.dims().begin(), s.dims().end());
  return Tensor::from_vector<int32_t>(Shape{static_cast<int64_t>(v.size())}, v);
}

}  // namespace

TEST_CASE("Conv3D matches a direct loop; its gradient ops are its adjoints") {
  const Case3 cases[] = {
      {1, 4, 4, 4, 2, 3, 3, 3, 2, 3, {1, 1, 1}, {1, 1, 1}, "SAME"},
      {2, 5, 4, 6, 3, 2, 3, 2, 3, 2, {2, 1, 2}, {1, 1, 1}, "VALID"},
      {1, 6, 5, 5, 4, 2, 2, 2, 2, 4, {1, 2, 1}, {2, 1, 2}, "SAME"},  // dilated, 2 groups
  };
  for (DType dt : {DType::Float32, DType::Float64, DType::BFloat16}) {
    for (const Case3& c : cases) {
      CAPTURE(c.padding);
      Tensor x = sweep::random_tensor(dt, Shape{c.n, c.d, c.h, c.w, c.c}, -2, 2);
      Tensor f = sweep::random_tensor(dt, Shape{c.k0, c.k1, c.k2, c.cf, c.oc}, -2, 2);
      Tensor y = run1("Conv3D", {x, f}, attrs_of(c));
      const double tol = dt == DType::BFloat16 ? 0.1 : 1e-4;
      sweep::expect_close(as_f64(y), reference(x, f, c), std::string("Conv3D ") + dtype_name(dt), tol, tol);
      if (dt == DType::BFloat16) continue;
      Tensor dy = sweep::random_tensor(dt, y.shape(), -1, 1);
      Tensor dx = run1("Conv3DBackpropInputV2", {ints(x.shape()), f, dy}, attrs_of(c));
      Tensor dw = run1("Conv3DBackpropFilterV2", {x, ints(f.shape()), dy}, attrs_of(c));
      CHECK(dx.shape() == x.shape());
      CHECK(dw.shape() == f.shape());
      const double want = dot(dy, y);
      CHECK(dot(dx, x) == doctest::Approx(want).epsilon(1e-4));
      CHECK(dot(dw, f) == doctest::Approx(want).epsilon(1e-4));
    }
  }
}

TEST_CASE("Conv3D's errors") {
  Case3 c{1, 4, 4, 4, 2, 3, 3, 3, 2, 3, {1, 1, 1}, {1, 1, 1}, "SAME"};
  Tensor x = sweep::random_tensor(DType::Float32, Shape{1, 4, 4, 4, 3});
  Tensor f = sweep::random_tensor(DType::Float32, Shape{3, 3, 3, 2, 3});
  CHECK(error_text([&] { run1("Conv3D", {x, f}, attrs_of(c)); }) ==
        "InvalidArgumentError: Input depth must be evenly divisible by filter depth: 3 vs 2");
  Attrs strided = attrs_of(c);
  strided.set("strides", std::vector<int64_t>{2, 1, 1, 1, 1});
  CHECK(error_text([&] { run1("Conv3D", {x, f}, strided); }) ==
        "InvalidArgumentError: Current implementation does not yet support strides in the batch and depth dimensions.");
  Attrs four = attrs_of(c);
  four.set("strides", std::vector<int64_t>{1, 1, 1, 1});
  CHECK(error_text([&] { run1("Conv3D", {x, f}, four); }) ==
        "InvalidArgumentError: Sliding window strides field must specify 5 dimensions");
  Attrs ncdhw = attrs_of(c);
  ncdhw.set("data_format", std::string("NCDHW"));
  CHECK(error_text([&] { run1("Conv3D", {x, f}, ncdhw); }).find("UnimplementedError: The Conv3D op currently only supports") == 0);
}
