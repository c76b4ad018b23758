#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <optional>
#include <numeric>

#include "runtime/ops/eager.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("Const", "Identity", "StopGradient");

TEST_CASE("Const returns its value and Identity its input, for every dtype and shape") {
  for (int i = 0; i < kNumDTypes; ++i) {
    DType dt = static_cast<DType>(i);
    for (int trial = 0; trial < 5; ++trial) {
      Tensor v = sweep::random_tensor(dt, sweep::random_shape());
      Tensor c = run1(op::Const, {}, Attrs{{"value", v}});
      sweep::expect_close(c, v, std::string("Const ") + dtype_name(dt));
      std::vector<Tensor> in{c};
      sweep::expect_close(run1(op::Identity, in), v, std::string("Identity ") + dtype_name(dt));
      sweep::expect_close(run1(op::StopGradient, in), v, std::string("StopGradient ") + dtype_name(dt));
    }
  }
}

namespace {

using Index = std::vector<int64_t>;

const DType kEveryDType[] = {DType::Float32, DType::Float64, DType::Int32,  DType::Int64, DType::Bool,
                           DType::String,  DType::BFloat16, DType::Int8, DType::UInt8};

/// An int32 or int64 tensor of `shape` with `v`.
Tensor ints(const Index& v, DType dt = DType::Int32, std::optional<Shape> given = std::nullopt) {
  Shape shape = given ? *given : Shape{static_cast<int64_t>(v.size())};
  if (dt == DType::Int64) return Tensor::from_vector<int64_t>(shape, v);
  std::vector<int32_t> w(v.begin(), v.end());
  return Tensor::from_vector<int32_t>(shape, w);
}
Tensor iscalar(int64_t v, DType dt = DType::Int32) { return ints({v}, dt, Shape{}); }

}  // namespace

AG_SWEEP_COVERS("BroadcastGradientArgs");

TEST_CASE("BroadcastGradientArgs gives the axes each shape was broadcast along") {
  // Against a naive reading of NumPy's rule on random pairs of broadcastable shapes.
  for (int trial = 0; trial < 200; ++trial) {
    Shape out = sweep::random_shape(4, 4, true);
    Index a, b;
    for (int i = 0; i < out.rank(); ++i) {
      a.push_back(sweep::rng()() % 3 == 0 ? 1 : out.dim(i));
      b.push_back(sweep::rng()() % 3 == 0 ? 1 : out.dim(i));
    }
    a.erase(a.begin(), a.begin() + static_cast<long>(sweep::rng()() % (a.size() + 1)));
    for (DType dt : {DType::Int32, DType::Int64}) {
      std::vector<Tensor> in{ints(a, dt), ints(b, dt)};
      std::vector<Tensor> r = runv(op::BroadcastGradientArgs, in, Attrs{{"T", dt}});
      const size_t rank = std::max(a.size(), b.size());
      Index ra, rb;
      for (size_t i = 0; i < rank; ++i) {
        int64_t da = i + a.size() < rank ? 1 : a[i + a.size() - rank];
        int64_t db = i + b.size() < rank ? 1 : b[i + b.size() - rank];
        if (da == 1) ra.push_back(static_cast<int64_t>(i));
        if (db == 1) rb.push_back(static_cast<int64_t>(i));
      }
      // A dim of 1 on both sides is reduced on both; a dim of 1 facing a
      // larger one is reduced on its side only.
      sweep::expect_close(r[0], ints(ra, dt), "r0");
      sweep::expect_close(r[1], ints(rb, dt), "r1");
    }
  }
  std::vector<Tensor> bad{ints({2, 3}), ints({4})};
  CHECK_THROWS_WITH_AS(runv(op::BroadcastGradientArgs, bad, Attrs{{"T", DType::Int32}}),
                       "Incompatible shapes: [2,3] vs. [4]", InvalidArgumentError);
}

namespace {

/// Calls f(idx) for every multi-index of `s`, row-major.
void for_each_index(const Shape& s, const std::function<void(const Index&)>& f) {
  for (int i = 0; i < s.rank(); ++i) {
    if (s.dim(i) == 0) return;
  }
  Index idx(static_cast<size_t>(s.rank()), 0);
  for (;;) {
    f(idx);
    int k = s.rank() - 1;
    for (; k >= 0; --k) {
      if (++idx[static_cast<size_t>(k)] < s.dim(k)) break;
      idx[static_cast<size_t>(k)] = 0;
    }
    if (k < 0) return;
  }
}

int64_t flat(const Shape& s, const Index& idx) {
  int64_t f = 0;
  for (int i = 0; i < s.rank(); ++i) f = f * s.dim(i) + idx[static_cast<size_t>(i)];
  return f;
}

/// The naive reference: out[idx] = src(idx) (a tensor and a flat index), or
/// `fill` (element 0) when src returns a null tensor.
Tensor ref_map(DType dt, const Shape& out_shape,
               const std::function<std::pair<const Tensor*, int64_t>(const Index&)>& src, const Tensor* fill = nullptr) {
  Tensor out = Tensor::zeros(dt, out_shape);
  dispatch_dtype(dt, [&]<class T>() {
    T* o = out.data<T>();
    int64_t i = 0;
    for_each_index(out_shape, [&](const Index& idx) {
      auto [t, f] = src(idx);
      o[i++] = t ? t->data<T>()[f] : fill->data<T>()[0];
    });
  });
  return out;
}

std::string what(std::string_view op, DType dt, const Shape& s) {
  return std::string(op) + " " + dtype_name(dt) + " " + s.str();
}

/// The output specs the shape rule gives when no input value is known.
TensorSpec infer_unknown(std::string_view op, const std::vector<TensorSpec>& in, const Attrs& a = {}) {
  std::vector<const Tensor*> none(in.size(), nullptr);
  return infer_outputs(OpRegistry::global().get(OpType{op}), in, a, none)[0];
}

}  // namespace

AG_SWEEP_COVERS("Shape", "Size", "Rank", "Fill", "ZerosLike", "OnesLike", "Range");

TEST_CASE("Shape, Size and Rank describe their input") {
  for (DType dt : kEveryDType) {
    for (int trial = 0; trial < 10; ++trial) {
      Shape s = sweep::random_shape();
      Tensor x = sweep::random_tensor(dt, s);
      Index dims(s.dims().begin(), s.dims().end());
      sweep::expect_close(run1("Shape", {x}), ints(dims), what("Shape", dt, s));
      sweep::expect_close(run1("Shape", {x}, {{"out_type", DType::Int64}}), ints(dims, DType::Int64), "Shape int64");
      sweep::expect_close(run1("Size", {x}), iscalar(s.num_elements()), what("Size", dt, s));
      sweep::expect_close(run1("Size", {x}, {{"out_type", DType::Int64}}), iscalar(s.num_elements(), DType::Int64),
                          "Size int64");
      sweep::expect_close(run1("Rank", {x}), iscalar(s.rank()), what("Rank", dt, s));
    }
  }
  CHECK(infer_unknown("Shape", {{DType::Float32, Shape::unknown_rank()}}).shape.str() == "(None,)");
  CHECK(infer_unknown("Shape", {{DType::Float32, Shape{-1, 3}}}).shape.str() == "(2,)");
  CHECK_THROWS_WITH_AS(run1("Shape", {iscalar(1)}, {{"out_type", DType::Float32}}),
                       "Value for attr 'out_type' of float is not in the list of allowed values: int32, int64",
                       InvalidArgumentError);
}

TEST_CASE("Fill, ZerosLike and OnesLike make tensors of a value") {
  for (DType dt : kEveryDType) {
    for (int trial = 0; trial < 8; ++trial) {
      Shape s = sweep::random_shape();
      Tensor v = sweep::random_tensor(dt, Shape{});
      Index dims(s.dims().begin(), s.dims().end());
      DType it = trial % 2 ? DType::Int64 : DType::Int32;
      Tensor got = run1("Fill", {ints(dims, it), v});
      sweep::expect_close(got, ref_map(dt, s, [](const Index&) { return std::pair<const Tensor*, int64_t>{nullptr, 0}; }, &v),
                          what("Fill", dt, s));
      Tensor x = sweep::random_tensor(dt, s);
      sweep::expect_close(run1("ZerosLike", {x}), Tensor::zeros(dt, s), what("ZerosLike", dt, s));
      if (dt != DType::String) {
        Tensor ones = Tensor::zeros(dt, s);
        dispatch_dtype(dt, [&]<class T>() {
          if constexpr (!std::is_same_v<T, std::string>) {
            for (int64_t i = 0; i < ones.num_elements(); ++i) ones.data<T>()[i] = static_cast<T>(1.0f);
          }
        });
        sweep::expect_close(run1("OnesLike", {x}), ones, what("OnesLike", dt, s));
      }
    }
  }
  CHECK_THROWS_WITH_AS(run1("Fill", {ints({2, 2, 2, 2}, DType::Int32, Shape{2, 2}), iscalar(1)}),
                       "dims must represent a vector, got shape [2,2]", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Fill", {ints({2}), ints({1, 2})}), "value must represent a scalar, got shape [2]",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Fill", {ints({2, -1}), iscalar(1)}), "Dimension -1 must be >= 0", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Fill", {ints({int64_t{1} << 40, int64_t{1} << 40}, DType::Int64), iscalar(1)}),
                       "Encountered overflow when multiplying shape dimensions of [1099511627776,1099511627776]",
                       InvalidArgumentError);
  CHECK_THROWS_AS(run1("OnesLike", {Tensor::scalar(std::string("a"))}), InvalidArgumentError);
  CHECK(infer_unknown("Fill", {{DType::Int32, Shape{3}}, {DType::Float32, Shape{}}}).shape.str() == "(None, None, None)");
  CHECK(infer_unknown("Fill", {{DType::Int32, Shape{-1}}, {DType::Float32, Shape{}}}).shape.str() == "<unknown>");
}

TEST_CASE("Range counts like Python's range, for ints and floats") {
  for (int trial = 0; trial < 200; ++trial) {
    auto& r = sweep::rng();
    int64_t start = static_cast<int64_t>(r() % 21) - 10, delta = static_cast<int64_t>(r() % 7) - 3;
    if (delta == 0) delta = 1;
    int64_t limit = start + delta * static_cast<int64_t>(r() % 8) + (static_cast<int64_t>(r() % 3) - 1);
    if ((delta > 0 && limit < start) || (delta < 0 && limit > start)) limit = start;
    Index want;
    for (int64_t v = start; delta > 0 ? v < limit : v > limit; v += delta) want.push_back(v);
    for (DType it : {DType::Int32, DType::Int64}) {
      Tensor got = run1("Range", {iscalar(start, it), iscalar(limit, it), iscalar(delta, it)});
      sweep::expect_close(got, ints(want, it), "Range " + std::to_string(start) + ":" + std::to_string(limit));
    }
    // Floats: start, start + d, ... while below limit (a half step makes counts unambiguous).
    double fs = static_cast<double>(start) / 2, fd = static_cast<double>(delta) / 4;
    double fl = fs + fd * (static_cast<double>(r() % 9) + 0.5);
    std::vector<float> fw;
    std::vector<double> dw;
    std::vector<float> bw;
    for (int64_t i = 0; fd > 0 ? fs + fd * static_cast<double>(i) < fl : fs + fd * static_cast<double>(i) > fl; ++i) {
      fw.push_back(static_cast<float>(fs + fd * static_cast<double>(i)));
      dw.push_back(fs + fd * static_cast<double>(i));
    }
    Tensor gf = run1("Range", {Tensor::scalar(static_cast<float>(fs)), Tensor::scalar(static_cast<float>(fl)),
                               Tensor::scalar(static_cast<float>(fd))});
    sweep::expect_close(gf, Tensor::from_vector<float>(Shape{static_cast<int64_t>(fw.size())}, fw), "Range float");
    Tensor gd = run1("Range", {Tensor::scalar(fs), Tensor::scalar(fl), Tensor::scalar(fd)});
    sweep::expect_close(gd, Tensor::from_vector<double>(Shape{static_cast<int64_t>(dw.size())}, dw), "Range double");
    Tensor gb = run1("Range", {Tensor::scalar(bfloat16(static_cast<float>(fs))), Tensor::scalar(bfloat16(static_cast<float>(fl))),
                               Tensor::scalar(bfloat16(static_cast<float>(fd)))});
    CHECK(gb.num_elements() == static_cast<int64_t>(fw.size()));
  }
  CHECK_THROWS_WITH_AS(run1("Range", {iscalar(5), iscalar(1), iscalar(1)}),
                       "Requires start <= limit when delta > 0: 5/1", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Range", {iscalar(1), iscalar(5), iscalar(-1)}),
                       "Requires start >= limit when delta < 0: 1/5", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Range", {iscalar(1), iscalar(5), iscalar(0)}), "Requires delta != 0: 0",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Range", {Tensor::scalar(5.5f), Tensor::scalar(1.0f), Tensor::scalar(0.5f)}),
                       "Requires start <= limit when delta > 0: 5.5/1", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Range", {ints({1, 2}), iscalar(5), iscalar(1)}), "start must be a scalar, not shape [2]",
                       InvalidArgumentError);
  // The count of an int64 range spanning everything does not overflow.
  int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  CHECK_THROWS_WITH_AS(run1("Range", {iscalar(lo, DType::Int64), iscalar(hi, DType::Int64), iscalar(1, DType::Int64)}),
                       "Requires ((limit - start) / delta) <= 9223372036854775807", InvalidArgumentError);
  CHECK(infer_unknown("Range", {{DType::Int32, Shape{}}, {DType::Int32, Shape{}}, {DType::Int32, Shape{}}}).shape.str() ==
        "(None,)");
}

AG_SWEEP_COVERS("Reshape", "ExpandDims", "Squeeze", "Transpose", "ReverseV2");

TEST_CASE("Reshape, ExpandDims and Squeeze keep the elements in order") {
  for (DType dt : kEveryDType) {
    for (int trial = 0; trial < 10; ++trial) {
      Shape s = sweep::random_shape();
      Tensor x = sweep::random_tensor(dt, s);
      int64_t n = s.num_elements();
      // Reshape to [n], to [-1], and to [a, -1] when a divides n.
      sweep::expect_close(run1("Reshape", {x, ints({n})}), x.reshaped(Shape{n}), what("Reshape", dt, s));
      sweep::expect_close(run1("Reshape", {x, ints({-1}, DType::Int64)}), x.reshaped(Shape{n}), "Reshape -1");
      if (n > 0 && n % 2 == 0) {
        sweep::expect_close(run1("Reshape", {x, ints({2, -1})}), x.reshaped(Shape{2, n / 2}), "Reshape 2,-1");
      }
      // ExpandDims at every position, negative ones too.
      for (int64_t d = -s.rank() - 1; d <= s.rank(); ++d) {
        int64_t c = d < 0 ? d + s.rank() + 1 : d;
        Shape want;
        for (int i = 0; i <= s.rank(); ++i) {
          if (i == c) want.push_back(1);
          if (i < s.rank()) want.push_back(s.dim(i));
        }
        sweep::expect_close(run1("ExpandDims", {x, iscalar(d)}), x.reshaped(want), what("ExpandDims", dt, s));
      }
      // Squeeze all 1s, then a named one.
      Shape squeezed;
      for (int64_t d : s.dims()) {
        if (d != 1) squeezed.push_back(d);
      }
      sweep::expect_close(run1("Squeeze", {x}), x.reshaped(squeezed), what("Squeeze", dt, s));
      Tensor e = run1("ExpandDims", {x, iscalar(0)});
      sweep::expect_close(run1("Squeeze", {e}, {{"squeeze_dims", Index{0}}}), x, "Squeeze [0]");
      sweep::expect_close(run1("Squeeze", {e}, {{"squeeze_dims", Index{-s.rank() - 1}}}), x, "Squeeze [-r-1]");
    }
  }
  Tensor x = sweep::random_tensor(DType::Float32, Shape{2, 3});
  CHECK_THROWS_WITH_AS(run1("Reshape", {x, ints({2, 2})}),
                       "Input to reshape is a tensor with 6 values, but the requested shape has 4", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Reshape", {x, ints({-1, -1})}), "Only one input size may be -1, not both 0 and 1",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Reshape", {x, ints({4, -1})}),
                       "Input to reshape is a tensor with 6 values, but the requested shape requires a multiple of 4",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Reshape", {x, ints({3, -2})}), "Size 1 must be non-negative, not -2", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Reshape", {x, ints({int64_t{1} << 40, int64_t{1} << 40}, DType::Int64)}),
                       "Encountered overflow when multiplying shape dimensions", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Reshape", {x, ints({6}, DType::Int32, Shape{1, 1})}), "sizes input must be 1-D, not [1,1]",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("ExpandDims", {x, iscalar(3)}), "Tried to expand dim index 3 for tensor with 2 dimensions.",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Squeeze", {x}, {{"squeeze_dims", Index{1}}}),
                       "Can not squeeze dim[1], expected a dimension of 1, got 3", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Squeeze", {x}, {{"squeeze_dims", Index{2}}}),
                       "Tried to squeeze dim index 2 for tensor with 2 dimensions.", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Reshape", {x, Tensor::from_vector<float>(Shape{1}, {6.0f})}),
                       "Value for attr 'Tshape' of float is not in the list of allowed values: int32, int64",
                       InvalidArgumentError);
  // Shape rules without values: the shape input's length gives the rank.
  CHECK(infer_unknown("Reshape", {{DType::Float32, Shape{2, 3}}, {DType::Int32, Shape{3}}}).shape.str() ==
        "(None, None, None)");
  CHECK(infer_unknown("ExpandDims", {{DType::Float32, Shape{2, 3}}, {DType::Int32, Shape{}}}).shape.str() == "<unknown>");
  CHECK(infer_unknown("Squeeze", {{DType::Float32, Shape{-1, 1, 3}}}, {{"squeeze_dims", Index{1}}}).shape.str() ==
        "(None, 3)");
  CHECK(infer_unknown("Squeeze", {{DType::Float32, Shape{-1, 1, 3}}}).shape.str() == "<unknown>");
}

TEST_CASE("Transpose and ReverseV2 match index arithmetic") {
  for (DType dt : kEveryDType) {
    for (int trial = 0; trial < 12; ++trial) {
      Shape s = sweep::random_shape(5, 4);
      Tensor x = sweep::random_tensor(dt, s);
      Index perm(static_cast<size_t>(s.rank()));
      std::iota(perm.begin(), perm.end(), 0);
      std::shuffle(perm.begin(), perm.end(), sweep::rng());
      Shape os;
      for (int64_t p : perm) os.push_back(s.dim(static_cast<int>(p)));
      Tensor want = ref_map(dt, os, [&](const Index& o) {
        Index in(perm.size());
        for (size_t i = 0; i < perm.size(); ++i) in[static_cast<size_t>(perm[i])] = o[i];
        return std::pair<const Tensor*, int64_t>{&x, flat(s, in)};
      });
      DType it = trial % 2 ? DType::Int64 : DType::Int32;
      sweep::expect_close(run1("Transpose", {x, ints(perm, it)}), want, what("Transpose", dt, s));
      // Reverse a random subset of axes, each named positively or negatively.
      Index axes;
      std::vector<bool> flip(static_cast<size_t>(s.rank()), false);
      for (int i = 0; i < s.rank(); ++i) {
        if (sweep::rng()() % 2) {
          flip[static_cast<size_t>(i)] = true;
          axes.push_back(sweep::rng()() % 2 ? i : i - s.rank());
        }
      }
      Tensor rwant = ref_map(dt, s, [&](const Index& o) {
        Index in = o;
        for (int i = 0; i < s.rank(); ++i) {
          if (flip[static_cast<size_t>(i)]) in[static_cast<size_t>(i)] = s.dim(i) - 1 - o[static_cast<size_t>(i)];
        }
        return std::pair<const Tensor*, int64_t>{&x, flat(s, in)};
      });
      sweep::expect_close(run1("ReverseV2", {x, ints(axes, it)}), rwant, what("ReverseV2", dt, s));
    }
  }
  // A large matrix (the Eigen path) against the reference.
  Tensor m = sweep::random_tensor(DType::Float32, Shape{67, 45});
  Tensor mt = run1("Transpose", {m, ints({1, 0})});
  for (int64_t i = 0; i < 67; ++i) {
    for (int64_t j = 0; j < 45; ++j) REQUIRE(mt.data<float>()[j * 67 + i] == m.data<float>()[i * 45 + j]);
  }
  Tensor x = sweep::random_tensor(DType::Float32, Shape{2, 3});
  CHECK_THROWS_WITH_AS(run1("Transpose", {x, ints({0, 1, 2})}),
                       "transpose expects a vector of size 2. But input(1) is a vector of size 3", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Transpose", {x, ints({0, 0})}), "1 is missing from {0,0}.", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Transpose", {x, ints({0, 2})}), "2 is out of range [0 .. 2)", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("ReverseV2", {x, ints({2})}), "'axis'[0] = 2 is out of valid range [0, 1",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("ReverseV2", {x, ints({1, -1})}), "axis 1 specified more than once.", InvalidArgumentError);
  CHECK(infer_unknown("Transpose", {{DType::Float32, Shape{2, 3}}, {DType::Int32, Shape{2}}}).shape.str() ==
        "(None, None)");
}

AG_SWEEP_COVERS("ConcatV2", "Pack", "Unpack", "Split", "SplitV", "Tile", "Pad", "PadV2");

TEST_CASE("ConcatV2 and Pack join tensors along an axis") {
  for (DType dt : kEveryDType) {
    for (int trial = 0; trial < 10; ++trial) {
      Shape base = sweep::random_shape(4, 4);
      if (base.rank() == 0) base = Shape{3};
      int r = base.rank();
      int ax = static_cast<int>(sweep::rng()() % static_cast<unsigned>(r));
      int n = 1 + static_cast<int>(sweep::rng()() % 3);
      std::vector<Tensor> in;
      Index starts;
      int64_t total = 0;
      for (int i = 0; i < n; ++i) {
        Shape s = base.with_dim(ax, static_cast<int64_t>(sweep::rng()() % 4));
        in.push_back(sweep::random_tensor(dt, s));
        starts.push_back(total);
        total += s.dim(ax);
      }
      Shape os = base.with_dim(ax, total);
      Tensor want = ref_map(dt, os, [&](const Index& o) {
        int k = n - 1;
        while (starts[static_cast<size_t>(k)] > o[static_cast<size_t>(ax)]) --k;
        Index in_idx = o;
        in_idx[static_cast<size_t>(ax)] -= starts[static_cast<size_t>(k)];
        return std::pair<const Tensor*, int64_t>{&in[static_cast<size_t>(k)],
                                                 flat(in[static_cast<size_t>(k)].shape(), in_idx)};
      });
      std::vector<Tensor> args = in;
      args.push_back(iscalar(trial % 2 ? ax : ax - r, trial % 3 ? DType::Int32 : DType::Int64));
      sweep::expect_close(run1("ConcatV2", args), want, what("ConcatV2", dt, os));
      // Pack n tensors of one shape at a random axis in [-(r+1), r].
      std::vector<Tensor> same;
      for (int i = 0; i < n; ++i) same.push_back(sweep::random_tensor(dt, base));
      int pax = static_cast<int>(sweep::rng()() % static_cast<unsigned>(r + 1));
      Shape ps;
      for (int i = 0; i <= r; ++i) {
        if (i == pax) ps.push_back(n);
        if (i < r) ps.push_back(base.dim(i));
      }
      Tensor pwant = ref_map(dt, ps, [&](const Index& o) {
        Index in_idx = o;
        in_idx.erase(in_idx.begin() + pax);
        return std::pair<const Tensor*, int64_t>{&same[static_cast<size_t>(o[static_cast<size_t>(pax)])],
                                                 flat(base, in_idx)};
      });
      int64_t pax_attr = trial % 2 ? pax : pax - r - 1;
      sweep::expect_close(run1("Pack", same, {{"axis", pax_attr}}), pwant, what("Pack", dt, ps));
    }
  }
  Tensor a = sweep::random_tensor(DType::Float32, Shape{2, 3});
  Tensor b = sweep::random_tensor(DType::Float32, Shape{2, 4});
  Tensor c = sweep::random_tensor(DType::Float32, Shape{2});
  CHECK_THROWS_WITH_AS(run1("ConcatV2", {a, b, iscalar(0)}),
                       "ConcatOp : Dimension 1 in both shapes must be equal: shape[0] = [2,3] vs. shape[1] = [2,4]",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("ConcatV2", {a, c, iscalar(0)}),
                       "ConcatOp : Ranks of all input tensors should match: shape[0] = [2,3] vs. shape[1] = [2]",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("ConcatV2", {a, b, iscalar(2)}),
                       "ConcatOp : Expected concatenating dimensions in the range [-2, 2), but got 2",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("ConcatV2", {iscalar(1), iscalar(2), iscalar(0)}),
                       "ConcatOp : Can't concatenate scalars (use tf.stack instead)", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Pack", {a, b}), "Shapes of all inputs must match: values[0].shape = [2,3] != values[1].shape = [2,4]",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Pack", {a, a}, {{"axis", int64_t{3}}}), "axis = 3 not in [-3, 3)", InvalidArgumentError);
  CHECK(infer_unknown("ConcatV2", {{DType::Float32, Shape{2, -1}}, {DType::Float32, Shape{-1, 4}}, {DType::Int32, Shape{}}})
            .shape.str() == "(None, None)");
  // With the axis known: the other dims merge, the axis adds up when known.
  std::vector<TensorSpec> specs{{DType::Float32, Shape{2, -1}}, {DType::Float32, Shape{-1, 4}}, {DType::Int32, Shape{}}};
  Tensor axis0 = iscalar(1);
  std::vector<const Tensor*> consts{nullptr, nullptr, &axis0};
  CHECK(infer_outputs(OpRegistry::global().get(op::ConcatV2), specs, {}, consts)[0].shape.str() == "(2, None)");
}

TEST_CASE("Unpack, Split and SplitV cut tensors along an axis") {
  for (DType dt : kEveryDType) {
    for (int trial = 0; trial < 10; ++trial) {
      Shape s = sweep::random_shape(4, 4);
      if (s.rank() == 0) s = Shape{2};
      int r = s.rank();
      int ax = static_cast<int>(sweep::rng()() % static_cast<unsigned>(r));
      Tensor x = sweep::random_tensor(dt, s);
      // Unpack: one output per index along ax.
      std::vector<Tensor> outs = runv(op::Unpack, std::vector<Tensor>{x}, {{"axis", int64_t{ax - r}}});
      REQUIRE(static_cast<int64_t>(outs.size()) == s.dim(ax));
      Shape us;
      for (int i = 0; i < r; ++i) {
        if (i != ax) us.push_back(s.dim(i));
      }
      for (size_t k = 0; k < outs.size(); ++k) {
        Tensor want = ref_map(dt, us, [&](const Index& o) {
          Index in = o;
          in.insert(in.begin() + ax, static_cast<int64_t>(k));
          return std::pair<const Tensor*, int64_t>{&x, flat(s, in)};
        });
        sweep::expect_close(outs[k], want, what("Unpack", dt, s));
      }
      // SplitV with random sizes (one of them -1), Split in equal parts.
      int n = 1 + static_cast<int>(sweep::rng()() % 3);
      Index sizes(static_cast<size_t>(n), 0);
      int64_t left = s.dim(ax);
      for (int i = 0; i + 1 < n; ++i) {
        sizes[static_cast<size_t>(i)] = left > 0 ? static_cast<int64_t>(sweep::rng()() % static_cast<unsigned>(left + 1)) : 0;
        left -= sizes[static_cast<size_t>(i)];
      }
      sizes[static_cast<size_t>(n - 1)] = left;
      Index arg = sizes;
      arg[sweep::rng()() % static_cast<unsigned>(n)] = -1;
      std::vector<Tensor> parts = runv(op::SplitV, std::vector<Tensor>{x, ints(arg), iscalar(ax)});
      REQUIRE(static_cast<int>(parts.size()) == n);
      int64_t start = 0;
      for (int k = 0; k < n; ++k) {
        Shape ps = s.with_dim(ax, sizes[static_cast<size_t>(k)]);
        Tensor want = ref_map(dt, ps, [&](const Index& o) {
          Index in = o;
          in[static_cast<size_t>(ax)] += start;
          return std::pair<const Tensor*, int64_t>{&x, flat(s, in)};
        });
        sweep::expect_close(parts[static_cast<size_t>(k)], want, what("SplitV", dt, s));
        start += sizes[static_cast<size_t>(k)];
      }
      int64_t ways = s.dim(ax) == 0 ? 2 : (s.dim(ax) % 2 == 0 ? 2 : 1);
      std::vector<Tensor> eq = runv(op::Split, std::vector<Tensor>{iscalar(ax), x}, {{"num_split", ways}});
      REQUIRE(static_cast<int64_t>(eq.size()) == ways);
      for (int64_t k = 0; k < ways; ++k) {
        int64_t piece = s.dim(ax) / ways;
        Tensor want = ref_map(dt, s.with_dim(ax, piece), [&](const Index& o) {
          Index in = o;
          in[static_cast<size_t>(ax)] += k * piece;
          return std::pair<const Tensor*, int64_t>{&x, flat(s, in)};
        });
        sweep::expect_close(eq[static_cast<size_t>(k)], want, what("Split", dt, s));
      }
    }
  }
  Tensor x = sweep::random_tensor(DType::Float32, Shape{5, 2});
  CHECK_THROWS_WITH_AS(runv(op::Split, std::vector<Tensor>{iscalar(0), x}, {{"num_split", int64_t{2}}}),
                       "Number of ways to split should evenly divide the split dimension, but got split_dim 0 (size = 5) "
                       "and num_split 2",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(runv(op::Split, std::vector<Tensor>{iscalar(2), x}, {{"num_split", int64_t{1}}}),
                       "-input rank(-2) <= split_dim < input rank (2), but got 2", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(runv(op::SplitV, std::vector<Tensor>{x, ints({-1, -1}), iscalar(0)}),
                       "There can only be one -1 in the input.", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(runv(op::SplitV, std::vector<Tensor>{x, ints({2, 2}), iscalar(0)}),
                       "Determined shape must either match input shape along split_dim exactly if fully specified, or "
                       "be less than the size of the input along split_dim if not fully specified.  Got: 4",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(runv(op::Unpack, std::vector<Tensor>{x}, {{"axis", int64_t{2}}}), "axis = 2 not in [-2, 2)",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(infer_outputs(OpRegistry::global().get(op::Unpack), std::vector<TensorSpec>{{DType::Float32, Shape{-1, 3}}},
                                     {}, std::vector<const Tensor*>{nullptr}),
                       "Cannot infer argument `num` from shape (None, 3)", ValueError);
}

TEST_CASE("Tile, Pad and PadV2 grow tensors") {
  for (DType dt : kEveryDType) {
    for (int trial = 0; trial < 10; ++trial) {
      Shape s = sweep::random_shape(4, 3);
      int r = s.rank();
      Tensor x = sweep::random_tensor(dt, s);
      Index mult, pads;
      Shape ts, ps;
      for (int i = 0; i < r; ++i) {
        mult.push_back(static_cast<int64_t>(sweep::rng()() % 4));
        ts.push_back(s.dim(i) * mult.back());
        pads.push_back(static_cast<int64_t>(sweep::rng()() % 3));
        pads.push_back(static_cast<int64_t>(sweep::rng()() % 3));
        ps.push_back(s.dim(i) + pads[2 * static_cast<size_t>(i)] + pads[2 * static_cast<size_t>(i) + 1]);
      }
      DType it = trial % 2 ? DType::Int64 : DType::Int32;
      Tensor twant = ref_map(dt, ts, [&](const Index& o) {
        Index in = o;
        for (int i = 0; i < r; ++i) in[static_cast<size_t>(i)] %= s.dim(i);
        return std::pair<const Tensor*, int64_t>{&x, flat(s, in)};
      });
      sweep::expect_close(run1("Tile", {x, ints(mult, it)}), twant, what("Tile", dt, s));
      Tensor fill = sweep::random_tensor(dt, Shape{});
      Tensor zero = Tensor::zeros(dt, Shape{});
      auto pad_src = [&](const Index& o) {
        Index in = o;
        for (int i = 0; i < r; ++i) {
          int64_t v = o[static_cast<size_t>(i)] - pads[2 * static_cast<size_t>(i)];
          if (v < 0 || v >= s.dim(i)) return std::pair<const Tensor*, int64_t>{nullptr, 0};
          in[static_cast<size_t>(i)] = v;
        }
        return std::pair<const Tensor*, int64_t>{&x, flat(s, in)};
      };
      Tensor pt = ints(pads, it, Shape{static_cast<int64_t>(r), 2});
      sweep::expect_close(run1("Pad", {x, pt}), ref_map(dt, ps, pad_src, &zero), what("Pad", dt, s));
      sweep::expect_close(run1("PadV2", {x, pt, fill}), ref_map(dt, ps, pad_src, &fill), what("PadV2", dt, s));
    }
  }
  Tensor x = sweep::random_tensor(DType::Float32, Shape{2, 3});
  CHECK_THROWS_WITH_AS(run1("Tile", {x, ints({1, 2, 3})}),
                       "Expected multiples argument to be a vector of length 2 but got length 3", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Tile", {x, ints({-1, 2})}), "Expected multiples[0] >= 0, but got -1", InvalidArgumentError);
  CHECK_THROWS_AS(run1("Tile", {x, ints({int64_t{1} << 62, int64_t{1} << 62}, DType::Int64)}), InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Pad", {x, ints({0, 0, 0, 0, 0, 0}, DType::Int32, Shape{3, 2})}),
                       "The first dimension of paddings must be the rank of inputs[3,2] [2,3]", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Pad", {x, ints({0, 0, -1, 0}, DType::Int32, Shape{2, 2})}),
                       "Paddings must be non-negative: -1 0", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("Pad", {x, ints({0, 0, 0}, DType::Int32, Shape{1, 3})}),
                       "paddings must be a matrix with 2 columns: [1,3]", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("PadV2", {x, ints({0, 0, 0, 0}, DType::Int32, Shape{2, 2}), Tensor::zeros(DType::Float32, Shape{2})}),
                       "constant_values must be a scalar. Got: [2]", InvalidArgumentError);
  CHECK(infer_unknown("Tile", {{DType::Float32, Shape{2, 3}}, {DType::Int32, Shape{2}}}).shape.str() == "(None, None)");
  CHECK(infer_unknown("Pad", {{DType::Float32, Shape::unknown_rank()}, {DType::Int32, Shape{3, 2}}}).shape.str() ==
        "(None, None, None)");
}

AG_SWEEP_COVERS("GatherV2", "GatherNd", "OneHot");

TEST_CASE("GatherV2, GatherNd and OneHot pick by index") {
  for (DType dt : kEveryDType) {
    for (int trial = 0; trial < 10; ++trial) {
      Shape ps = sweep::random_shape(3, 4);
      if (ps.rank() == 0) ps = Shape{3};
      int pr = ps.rank();
      Tensor params = sweep::random_tensor(dt, ps);
      int ax = static_cast<int>(sweep::rng()() % static_cast<unsigned>(pr));
      int64_t limit = ps.dim(ax);
      Shape is = sweep::random_shape(2, 3);
      if (limit == 0) is = Shape{0};
      DType it = trial % 2 ? DType::Int64 : DType::Int32;
      Tensor indices = sweep::random_tensor(it, is, 0, static_cast<double>(std::max<int64_t>(limit - 1, 0)));
      Shape os;
      for (int i = 0; i < ax; ++i) os.push_back(ps.dim(i));
      for (int64_t d : is.dims()) os.push_back(d);
      for (int i = ax + 1; i < pr; ++i) os.push_back(ps.dim(i));
      Tensor want = ref_map(dt, os, [&](const Index& o) {
        Index ii(o.begin() + ax, o.begin() + ax + is.rank());
        Index p(o.begin(), o.begin() + ax);
        p.push_back(sweep::element(indices, flat(is, ii)) > 0 ? static_cast<int64_t>(sweep::element(indices, flat(is, ii))) : 0);
        p.insert(p.end(), o.begin() + ax + is.rank(), o.end());
        return std::pair<const Tensor*, int64_t>{&params, flat(ps, p)};
      });
      sweep::expect_close(run1("GatherV2", {params, indices, iscalar(trial % 3 ? ax : ax - pr)}), want,
                          what("GatherV2", dt, ps));
      // GatherNd with index tuples of length k in [0, rank].
      int k = static_cast<int>(sweep::rng()() % static_cast<unsigned>(pr + 1));
      bool empty = false;
      for (int i = 0; i < k; ++i) empty = empty || ps.dim(i) == 0;
      Shape bs = empty ? Shape{0} : sweep::random_shape(2, 3);
      Shape nis = bs;
      nis.push_back(k);
      Tensor nd = Tensor::zeros(it, nis);
      for (int64_t j = 0; j < nd.num_elements(); ++j) {
        int64_t v = static_cast<int64_t>(sweep::rng()() % static_cast<unsigned>(std::max<int64_t>(ps.dim(static_cast<int>(j % k)), 1)));
        if (it == DType::Int32) nd.data<int32_t>()[j] = static_cast<int32_t>(v);
        else nd.data<int64_t>()[j] = v;
      }
      Shape nos = bs;
      for (int i = k; i < pr; ++i) nos.push_back(ps.dim(i));
      Tensor ndwant = ref_map(dt, nos, [&](const Index& o) {
        Index b(o.begin(), o.begin() + bs.rank());
        Index p;
        for (int i = 0; i < k; ++i) p.push_back(static_cast<int64_t>(sweep::element(nd, flat(bs, b) * k + i)));
        p.insert(p.end(), o.begin() + bs.rank(), o.end());
        return std::pair<const Tensor*, int64_t>{&params, flat(ps, p)};
      });
      sweep::expect_close(run1("GatherNd", {params, nd}), ndwant, what("GatherNd", dt, ps));
      // OneHot of indices in [-1, depth] (out of range: all off) at every axis.
      Shape hs = sweep::random_shape(3, 3);
      int64_t depth = static_cast<int64_t>(sweep::rng()() % 4);
      Tensor hi = sweep::random_tensor(it, hs, -1, static_cast<double>(depth));
      Tensor on = sweep::random_tensor(dt, Shape{}), off = sweep::random_tensor(dt, Shape{});
      for (int64_t hax = -1; hax <= hs.rank(); ++hax) {
        int64_t c = hax < 0 ? hs.rank() : hax;
        Shape hos;
        for (int i = 0; i <= hs.rank(); ++i) {
          if (i == c) hos.push_back(depth);
          if (i < hs.rank()) hos.push_back(hs.dim(i));
        }
        Tensor hwant = ref_map(dt, hos, [&](const Index& o) {
          Index in = o;
          in.erase(in.begin() + c);
          bool hit = static_cast<int64_t>(sweep::element(hi, flat(hs, in))) == o[static_cast<size_t>(c)];
          return std::pair<const Tensor*, int64_t>{hit ? &on : &off, 0};
        });
        sweep::expect_close(run1("OneHot", {hi, iscalar(depth), on, off}, {{"axis", hax}}), hwant, what("OneHot", dt, hs));
      }
    }
  }
  Tensor p = sweep::random_tensor(DType::Float32, Shape{3, 2});
  CHECK_THROWS_WITH_AS(run1("GatherV2", {p, ints({0, 5}), iscalar(0)}), "indices[1] = 5 is not in [0, 3)",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("GatherV2", {p, ints({0, 0, 0, -1}, DType::Int64, Shape{2, 2}), iscalar(0)}),
                       "indices[1,1] = -1 is not in [0, 3)", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("GatherV2", {p, iscalar(2), iscalar(1)}), "indices = 2 is not in [0, 2)",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("GatherV2", {p, ints({0}), iscalar(2)}), "Expected axis in the range [-2, 2), but got 2",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("GatherNd", {p, ints({0, 0, 5, 0}, DType::Int32, Shape{2, 2})}),
                       "indices[1] = [5, 0] does not index into param shape [3,2]", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("GatherNd", {p, ints({0, 0, 0}, DType::Int32, Shape{1, 3})}),
                       "index innermost dimension length must be <= params rank; saw: 3 vs. 2", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("OneHot", {ints({0}), iscalar(-1), Tensor::scalar(1.0f), Tensor::scalar(0.0f)}),
                       "depth must be non-negative, got: -1", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run1("OneHot", {ints({0}), iscalar(2), Tensor::scalar(1.0f), Tensor::scalar(0.0f)},
                            {{"axis", int64_t{3}}}),
                       "Expected axis to be -1 or between [0, 2).  But received: 3", InvalidArgumentError);
  // batch_dims: out[b, i] = params[b, indices[b, i]].
  Tensor bp = Tensor::from_vector<float>(Shape{2, 3}, {0, 1, 2, 10, 11, 12});
  Tensor bi = ints({2, 0, 1, 1}, DType::Int32, Shape{2, 2});
  sweep::expect_close(run1("GatherV2", {bp, bi, iscalar(1)}, {{"batch_dims", int64_t{1}}}),
                      Tensor::from_vector<float>(Shape{2, 2}, {2, 0, 11, 11}), "GatherV2 batch_dims 1");
  CHECK(infer_unknown("GatherV2", {{DType::Float32, Shape{3, 2}}, {DType::Int32, Shape{4}}, {DType::Int32, Shape{}}})
            .shape.str() == "(None, None)");
}

AG_SWEEP_COVERS("StridedSlice");

namespace {

/// One Python subscript: an int, a slice (with optional parts), Ellipsis or newaxis.
struct Sub {
  enum Kind { Int, Slice, Ellipsis, NewAxis } kind = Slice;
  int64_t i = 0;
  std::optional<int64_t> start, stop, step;
};
Sub I(int64_t i) { return {Sub::Int, i, {}, {}, {}}; }
Sub S(std::optional<int64_t> a = {}, std::optional<int64_t> b = {}, std::optional<int64_t> c = {}) {
  return {Sub::Slice, 0, a, b, c};
}
const Sub kEllipsis{Sub::Ellipsis, 0, {}, {}, {}};
const Sub kNewAxis{Sub::NewAxis, 0, {}, {}, {}};

/// Runs StridedSlice with the inputs and masks TF's Python `x[subs]` builds.
Tensor subscript(const Tensor& x, const std::vector<Sub>& subs) {
  Index b, e, s;
  int64_t bm = 0, em = 0, elm = 0, nm = 0, sm = 0;
  for (size_t k = 0; k < subs.size(); ++k) {
    const Sub& u = subs[k];
    int64_t bit = int64_t{1} << k;
    switch (u.kind) {
      case Sub::Int: b.push_back(u.i); e.push_back(u.i + 1); s.push_back(1); sm |= bit; break;
      case Sub::Slice:
        b.push_back(u.start.value_or(0));
        e.push_back(u.stop.value_or(0));
        s.push_back(u.step.value_or(1));
        if (!u.start) bm |= bit;
        if (!u.stop) em |= bit;
        break;
      case Sub::Ellipsis: b.push_back(0); e.push_back(0); s.push_back(1); elm |= bit; break;
      case Sub::NewAxis: b.push_back(0); e.push_back(0); s.push_back(1); nm |= bit; break;
    }
  }
  return run1("StridedSlice", {x, ints(b), ints(e), ints(s)},
              {{"begin_mask", bm}, {"end_mask", em}, {"ellipsis_mask", elm}, {"new_axis_mask", nm},
               {"shrink_axis_mask", sm}});
}

/// The reference: NumPy's rules, written out per subscript.
Tensor subscript_ref(const Tensor& x, const std::vector<Sub>& subs) {
  const Shape& in = x.shape();
  // Expand the Ellipsis (or an implicit one at the end) to full slices.
  std::vector<Sub> full;
  int used = 0;
  bool has_ellipsis = false;
  for (const Sub& u : subs) {
    if (u.kind == Sub::Int || u.kind == Sub::Slice) ++used;
    if (u.kind == Sub::Ellipsis) has_ellipsis = true;
  }
  for (const Sub& u : subs) {
    if (u.kind == Sub::Ellipsis) {
      for (int k = 0; k < in.rank() - used; ++k) full.push_back(S());
    } else {
      full.push_back(u);
    }
  }
  if (!has_ellipsis) {
    for (int k = 0; k < in.rank() - used; ++k) full.push_back(S());
  }
  // Per input dim: the list of source indices; per output dim: which input dim.
  std::vector<Index> picks;
  Shape os;
  std::vector<int> out_dim_of;  // output dim -> input dim (-1: new axis)
  int d = 0;
  for (const Sub& u : full) {
    if (u.kind == Sub::NewAxis) {
      os.push_back(1);
      out_dim_of.push_back(-1);
      continue;
    }
    int64_t n = in.dim(d);
    Index pick;
    if (u.kind == Sub::Int) {
      pick.push_back(u.i < 0 ? u.i + n : u.i);
    } else {
      int64_t step = u.step.value_or(1);
      auto norm = [&](std::optional<int64_t> v, int64_t dflt) {
        if (!v) return dflt;
        int64_t x2 = *v < 0 ? *v + n : *v;
        return step > 0 ? std::clamp<int64_t>(x2, 0, n) : std::clamp<int64_t>(x2, -1, n - 1);
      };
      int64_t lo = norm(u.start, step > 0 ? 0 : n - 1), hi = norm(u.stop, step > 0 ? n : -1);
      for (int64_t v = lo; step > 0 ? v < hi : v > hi; v += step) pick.push_back(v);
      os.push_back(static_cast<int64_t>(pick.size()));
      out_dim_of.push_back(d);
    }
    picks.push_back(pick);
    ++d;
  }
  return ref_map(x.dtype(), os, [&](const Index& o) {
    Index src(static_cast<size_t>(in.rank()));
    for (int k = 0; k < in.rank(); ++k) src[static_cast<size_t>(k)] = picks[static_cast<size_t>(k)][0];
    for (size_t j = 0; j < o.size(); ++j) {
      int k = out_dim_of[j];
      if (k >= 0) src[static_cast<size_t>(k)] = picks[static_cast<size_t>(k)][static_cast<size_t>(o[j])];
    }
    return std::pair<const Tensor*, int64_t>{&x, flat(in, src)};
  });
}

}  // namespace

TEST_CASE("StridedSlice matches Python subscripts") {
  Tensor x = sweep::random_tensor(DType::Float32, Shape{4, 3, 2});
  const std::vector<std::vector<Sub>> cases = {
      {I(1)},           {I(-1)},          {S(1, 3)},         {S({}, {}, -1)}, {kEllipsis, I(0)}, {S(), kNewAxis},
      {S({}, {}, 2), S(1)}, {S(-3, -1)},  {S(10, -10, -1)},  {S(3, 0, -2)},   {kNewAxis, kEllipsis, kNewAxis},
      {I(2), kEllipsis, S({}, {}, -1)},   {S(1, 1)},         {S(-100, 100)},  {I(0), I(1), I(0)}, {kEllipsis},
      {S(), S(), S(), kEllipsis},         {S(0, 4, 3), I(-3), kNewAxis},      {},
  };
  for (size_t c = 0; c < cases.size(); ++c) {
    sweep::expect_close(subscript(x, cases[c]), subscript_ref(x, cases[c]), "subscript case " + std::to_string(c));
  }
  // Random subscripts on random shapes and dtypes.
  auto& r = sweep::rng();
  for (DType dt : kEveryDType) {
    for (int trial = 0; trial < 40; ++trial) {
      Shape s = sweep::random_shape(4, 4);
      Tensor t = sweep::random_tensor(dt, s);
      std::vector<Sub> subs;
      bool ellipsis = false;
      int dims_used = 0;
      int n = static_cast<int>(r() % static_cast<unsigned>(s.rank() + 2));
      for (int k = 0; k < n; ++k) {
        unsigned kind = r() % 6;
        if (kind == 0 && !ellipsis) {
          subs.push_back(kEllipsis);
          ellipsis = true;
        } else if (kind == 1) {
          subs.push_back(kNewAxis);
        } else if (dims_used < s.rank()) {
          int64_t size = s.dim(dims_used);
          // Ints only where that dim is known to be hit (the Ellipsis may shift it).
          if (kind == 2 && size > 0 && !ellipsis) {
            subs.push_back(I(static_cast<int64_t>(r() % static_cast<unsigned>(2 * size)) - size));
          } else {
            auto part = [&]() -> std::optional<int64_t> {
              if (r() % 3 == 0) return std::nullopt;
              return static_cast<int64_t>(r() % 13) - 6;
            };
            std::optional<int64_t> step = part();
            if (step && *step == 0) step = 1;
            subs.push_back(S(part(), part(), step));
          }
          ++dims_used;
        }
      }
      sweep::expect_close(subscript(t, subs), subscript_ref(t, subs), what("StridedSlice", dt, s));
    }
  }
  Tensor v = sweep::random_tensor(DType::Int32, Shape{3, 2});
  CHECK_THROWS_WITH_AS(subscript(v, {I(5)}), "slice index 5 of dimension 0 out of bounds.", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(subscript(v, {S(), I(-3)}), "slice index -3 of dimension 1 out of bounds.", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(subscript(v, {S({}, {}, 0)}), "strides[0] must be non-zero", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(subscript(v, {I(0), I(0), I(0)}), "Index out of range using input dim 2; input has only 2 dims",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(subscript(v, {kEllipsis, kEllipsis}), "Multiple ellipses in slice spec not allowed",
                       InvalidArgumentError);
  // Huge bounds and steps clamp instead of overflowing.
  int64_t big = std::numeric_limits<int64_t>::max(), small = std::numeric_limits<int64_t>::min();
  sweep::expect_close(run1("StridedSlice", {v, ints({small}, DType::Int64), ints({big}, DType::Int64), ints({big}, DType::Int64)}),
                      subscript(v, {S(0, 1)}), "huge step");
  sweep::expect_close(run1("StridedSlice", {v, ints({big}, DType::Int64), ints({small}, DType::Int64), ints({small}, DType::Int64)}),
                      subscript(v, {S(2, 3)}), "huge negative step");
  // Unknown dims: the sliced dim is unknown, shrunk and new axes are exact.
  std::vector<TensorSpec> specs{{DType::Float32, Shape{-1, 5}}, {DType::Int32, Shape{3}}, {DType::Int32, Shape{3}},
                                {DType::Int32, Shape{3}}};
  Tensor b = ints({0, 0, 1}), e = ints({0, 0, 2}), st = ints({1, 1, 1});
  std::vector<const Tensor*> consts{nullptr, &b, &e, &st};
  Attrs a{{"begin_mask", int64_t{1}}, {"end_mask", int64_t{1}}, {"new_axis_mask", int64_t{2}},
          {"shrink_axis_mask", int64_t{4}}};
  CHECK(infer_outputs(OpRegistry::global().get(op::StridedSlice), specs, a, consts)[0].shape.str() == "(None, 1)");
  CHECK(infer_unknown("StridedSlice", specs, a).shape.str() == "(None, 1)");
  specs[1].shape = specs[2].shape = specs[3].shape = Shape{-1};
  CHECK(infer_unknown("StridedSlice", specs, a).shape.str() == "<unknown>");
}

namespace {

/// Runs `op`'s kernel as a graph would when the shape rule saw only unknown
/// shapes: the kernel itself must check what the shapes hide.
std::vector<Tensor> run_kernel_unchecked(std::string_view op, const std::vector<Tensor>& in, const Attrs& a,
                                         const std::vector<TensorSpec>& out_specs) {
  std::vector<TensorSpec> specs;
  std::vector<const Tensor*> ptrs;
  for (const Tensor& t : in) {
    specs.push_back({t.dtype(), Shape::unknown_rank()});
    ptrs.push_back(&t);
  }
  const OpDef& def = OpRegistry::global().get(OpType{op});
  Kernel k = def.cpu()(KernelSpec{def.name, specs, out_specs, a});
  std::vector<Tensor> outs(out_specs.size());
  KernelContext ctx{ptrs, outs};
  k(ctx);
  return outs;
}

}  // namespace

TEST_CASE("array kernels check at run time what unknown shapes hid from the shape rule") {
  std::vector<TensorSpec> f32{{DType::Float32, Shape::unknown_rank()}};
  std::vector<TensorSpec> i32{{DType::Int32, Shape::unknown_rank()}};
  Tensor x = sweep::random_tensor(DType::Float32, Shape{2, 3});
  CHECK_THROWS_WITH_AS(run_kernel_unchecked("Reshape", {x, ints({4})}, {}, f32),
                       "Input to reshape is a tensor with 6 values, but the requested shape has 4", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run_kernel_unchecked("Fill", {ints({2}), Tensor::zeros(DType::Float32, Shape{0})}, {}, f32),
                       "value must represent a scalar, got shape [0]", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run_kernel_unchecked("Range", {ints({}), iscalar(3), iscalar(1)}, {}, i32),
                       "start must be a scalar, not shape [0]", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run_kernel_unchecked("ConcatV2", {x, x, ints({})}, {}, f32), "axis must be a scalar, not shape [0]",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run_kernel_unchecked("Unpack", {iscalar(1)}, {}, i32), "axis = 0 not in [0, 0)",
                       InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run_kernel_unchecked("StridedSlice", {x, ints({5}), ints({6}), ints({1})},
                                            {{"shrink_axis_mask", int64_t{1}}}, f32),
                       "slice index 5 of dimension 0 out of bounds.", InvalidArgumentError);
  CHECK_THROWS_WITH_AS(run_kernel_unchecked("OneHot", {ints({0}), iscalar(2), Tensor::zeros(DType::Float32, Shape{0}),
                                                       Tensor::scalar(0.0f)},
                                            {}, f32),
                       "on_value must be a scalar, but got: [0]", InvalidArgumentError);
  // A valid run produces the shape the shape rule could not know.
  std::vector<Tensor> out = run_kernel_unchecked("Reshape", {x, ints({3, -1})}, {}, f32);
  CHECK(out[0].shape().str() == "(3, 2)");
}
