// Sweep cases for linalg_ops.cpp: MatMul and BatchMatMulV2 against a naive
// triple loop over random shapes (zero-size included), transposes, broadcast
// batch dims and dtypes; FusedMatMul against the chain of ops fuse_matmul
// replaces; error texts.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "runtime/exec/plan.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/fuse_matmul.h"
#include "runtime/graph/optimize/optimize.h"
#include "runtime/ops/eager.h"
#include "tests/unit/ops/support.h"
#include "tests/unit/ops/sweep.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("MatMul", "BatchMatMulV2", "FusedMatMul");

namespace {

const DType kTypes[] = {DType::Float32, DType::Float64, DType::Int32, DType::Int64, DType::BFloat16};

// Element (r, c) of matrix `mat` (offset `base`) stored rows×cols, or its transpose.
double at(const Tensor& t, int64_t base, int64_t cols, int64_t r, int64_t c, bool trans) {
  return trans ? sweep::element(t, base + c * cols + r) : sweep::element(t, base + r * cols + c);
}

// The rtol of a product per dtype (looser than an elementwise op's for bfloat16).
double matmul_tolerance(DType t) { return t == DType::BFloat16 ? 2e-2 : t == DType::Float32 ? 1e-5 : 1e-12; }

}  // namespace

TEST_CASE("MatMul matches a naive triple loop") {
  for (DType dt : kTypes) {
    for (int trial = 0; trial < 20; ++trial) {
      bool big = trial == 0;  // one product big enough for the 2-thread path
      int64_t m = big ? 300 : rnd(0, 6), n = big ? 170 : rnd(0, 6), k = big ? 130 : rnd(0, 6);
      bool ta = sweep::rng()() % 2, tb = sweep::rng()() % 2;
      Tensor a = sweep::random_tensor(dt, ta ? Shape{k, m} : Shape{m, k});
      Tensor b = sweep::random_tensor(dt, tb ? Shape{n, k} : Shape{k, n});
      std::vector<Tensor> args{a, b};
      Tensor got = run1(op::MatMul, args, Attrs{{"transpose_a", ta}, {"transpose_b", tb}});
      Tensor want(dt, Shape{m, n});
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          double s = 0;
          for (int64_t p = 0; p < k; ++p) s += at(a, 0, ta ? m : k, i, p, ta) * at(b, 0, tb ? k : n, p, j, tb);
          put(want, i * n + j, s);
        }
      }
      std::string what = std::string("MatMul ") + dtype_name(dt) + " " + std::to_string(m) + "x" + std::to_string(k) +
                         "x" + std::to_string(n) + (ta ? " ta" : "") + (tb ? " tb" : "");
      sweep::expect_close(got, want, what, matmul_tolerance(dt), dt == DType::BFloat16 ? 0.5 : 1e-4);
    }
  }
}

TEST_CASE("BatchMatMulV2 matches a naive loop, with broadcast batch dims") {
  for (DType dt : kTypes) {
    for (int trial = 0; trial < 15; ++trial) {
      int64_t m = rnd(0, 4), n = rnd(0, 4), k = rnd(0, 4);
      bool ax = sweep::rng()() % 2, ay = sweep::rng()() % 2;
      // Batch dims: a random output batch shape; each side drops leading dims or uses 1s.
      int brank = static_cast<int>(rnd(0, 3));
      std::vector<int64_t> ob(static_cast<size_t>(brank));
      for (auto& d : ob) d = rnd(0, 3);
      auto side = [&](int& drop) {
        drop = static_cast<int>(rnd(0, brank));
        Shape s;
        for (int i = drop; i < brank; ++i) s.push_back(sweep::rng()() % 3 == 0 ? 1 : ob[static_cast<size_t>(i)]);
        return s;
      };
      int da = 0, db = 0;
      Shape sa = side(da), sb = side(db);
      if (da > 0 && db > 0) {  // one side keeps the full batch rank
        db = 0;
        sb = Shape{};
        for (int i = 0; i < brank; ++i) sb.push_back(sweep::rng()() % 3 == 0 ? 1 : ob[static_cast<size_t>(i)]);
      }
      std::vector<int64_t> ba(sa.dims().begin(), sa.dims().end()), bb(sb.dims().begin(), sb.dims().end());
      if (ax) { sa.push_back(k); sa.push_back(m); } else { sa.push_back(m); sa.push_back(k); }
      if (ay) { sb.push_back(n); sb.push_back(k); } else { sb.push_back(k); sb.push_back(n); }
      Tensor a = sweep::random_tensor(dt, sa);
      Tensor b = sweep::random_tensor(dt, sb);
      // Output batch shape by numpy broadcasting.
      Shape os;
      std::vector<int64_t> obs;
      for (int i = 0; i < brank; ++i) {
        int64_t x = i >= da ? ba[static_cast<size_t>(i - da)] : 1, y = i >= db ? bb[static_cast<size_t>(i - db)] : 1;
        obs.push_back(x == 1 ? y : x);
        os.push_back(obs.back());
      }
      os.push_back(m);
      os.push_back(n);
      std::vector<Tensor> args{a, b};
      Tensor got = run1(op::BatchMatMulV2, args, Attrs{{"adj_x", ax}, {"adj_y", ay}});
      Tensor want(dt, os);
      int64_t batches = 1;
      for (int64_t d : obs) batches *= d;
      for (int64_t bi = 0; bi < batches; ++bi) {
        // Each side's matrix index: the output batch index with broadcast dims pinned to 0.
        int64_t ia = 0, ib = 0, rem = bi, mula = 1, mulb = 1;
        for (int i = brank - 1; i >= 0; --i) {
          int64_t idx = rem % obs[static_cast<size_t>(i)];
          rem /= obs[static_cast<size_t>(i)];
          if (i >= da) {
            int64_t d = ba[static_cast<size_t>(i - da)];
            ia += (d == 1 ? 0 : idx) * mula;
            mula *= d;
          }
          if (i >= db) {
            int64_t d = bb[static_cast<size_t>(i - db)];
            ib += (d == 1 ? 0 : idx) * mulb;
            mulb *= d;
          }
        }
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = 0; j < n; ++j) {
            double s = 0;
            for (int64_t p = 0; p < k; ++p) {
              s += at(a, ia * m * k, ax ? m : k, i, p, ax) * at(b, ib * k * n, ay ? k : n, p, j, ay);
            }
            put(want, (bi * m + i) * n + j, s);
          }
        }
      }
      std::string what = std::string("BatchMatMulV2 ") + dtype_name(dt) + " " + a.shape().str() + " x " +
                         b.shape().str() + (ax ? " adj_x" : "") + (ay ? " adj_y" : "");
      sweep::expect_close(got, want, what, matmul_tolerance(dt), dt == DType::BFloat16 ? 0.5 : 1e-4);
    }
  }
  // Many small products split across threads.
  Tensor a = sweep::random_tensor(DType::Float32, Shape{64, 24, 24});
  Tensor b = sweep::random_tensor(DType::Float32, Shape{24, 24});
  std::vector<Tensor> args{a, b};
  Tensor got = run1(op::BatchMatMulV2, args);
  for (int64_t bi : {0, 37, 63}) {
    for (int64_t i = 0; i < 24; i += 5) {
      for (int64_t j = 0; j < 24; j += 7) {
        double s = 0;
        for (int64_t p = 0; p < 24; ++p) s += sweep::element(a, (bi * 24 + i) * 24 + p) * sweep::element(b, p * 24 + j);
        CHECK(sweep::element(got, (bi * 24 + i) * 24 + j) == doctest::Approx(s).epsilon(1e-4));
      }
    }
  }
}

TEST_CASE("MatMul and BatchMatMulV2 errors and shape rules") {
  Tensor a = sweep::random_tensor(DType::Float32, Shape{2, 3});
  std::vector<Tensor> same{a, a};
  CHECK_THROWS_WITH_AS(run1(op::MatMul, same), "Matrix size-incompatible: In[0]: [2,3], In[1]: [2,3]",
                       InvalidArgumentError);
  Tensor v = sweep::random_tensor(DType::Float32, Shape{2});
  std::vector<Tensor> vec{v, a};
  CHECK_THROWS_WITH_AS(run1(op::MatMul, vec), "In[0] is not a matrix. Instead it has shape [2]",
                       InvalidArgumentError);
  Tensor i = sweep::random_tensor(DType::Int32, Shape{3, 2});
  std::vector<Tensor> mixed{a, i};
  CHECK_THROWS_WITH_AS(run1(op::MatMul, mixed),
                       "cannot compute MatMul as input #1(zero-based) was expected to be a float tensor but is a "
                       "int32 tensor",
                       InvalidArgumentError);
  Tensor bo = sweep::random_tensor(DType::Bool, Shape{2, 2});
  std::vector<Tensor> bools{bo, bo};
  CHECK_THROWS_AS(run1(op::MatMul, bools), InvalidArgumentError);
  std::vector<Tensor> bvec{v, a};
  CHECK_THROWS_WITH_AS(run1(op::BatchMatMulV2, bvec), "In[0] ndims must be >= 2: 1", InvalidArgumentError);
  Tensor x = sweep::random_tensor(DType::Float32, Shape{2, 3, 4});
  Tensor y = sweep::random_tensor(DType::Float32, Shape{5, 4, 3});
  std::vector<Tensor> bad_batch{x, y};
  CHECK_THROWS_WITH_AS(run1(op::BatchMatMulV2, bad_batch),
                       "In[0] and In[1] must have compatible batch dimensions: [2,3,4] vs. [5,4,3]",
                       InvalidArgumentError);
  std::vector<Tensor> bad_inner{x, x};
  CHECK_THROWS_WITH_AS(run1(op::BatchMatMulV2, bad_inner), "Matrix size-incompatible: In[0]: [2,3,4], In[1]: [2,3,4]",
                       InvalidArgumentError);
  // Partial shapes.
  const OpDef& bmm = OpRegistry::global().get(op::BatchMatMulV2);
  TensorSpec specs[2] = {{DType::Float32, Shape{-1, 1, 3, 4}}, {DType::Float32, Shape{7, 4, -1}}};
  const Tensor* none[2] = {nullptr, nullptr};
  CHECK(infer_outputs(bmm, specs, Attrs{}, none)[0].shape.str() == "(None, 7, 3, None)");
  const OpDef& mm = OpRegistry::global().get(op::MatMul);
  TensorSpec mspecs[2] = {{DType::Float32, Shape{-1, 4}}, {DType::Float32, Shape::unknown_rank()}};
  CHECK(infer_outputs(mm, mspecs, Attrs{}, none)[0].shape.str() == "(None, None)");
}

TEST_CASE("FusedMatMul computes what the MatMul, AddV2 (product, addend, bias)/BiasAdd and activation chain it "
          "replaces computed") {
  const char* activations[] = {"", "Tanh", "Sigmoid", "Relu"};
  for (int trial = 0; trial < 60; ++trial) {
    const DType dt = trial % 2 ? DType::Float64 : DType::Float32;
    // Products big enough for the 2-thread path: split in column halves
    // (170 columns: 80 and 90), then in row halves (20 columns).
    const bool wide = trial < 2, tall = trial == 2 || trial == 3;
    const int64_t m = wide ? 300 : tall ? 4001 : rnd(0, 6), n = wide ? 170 : tall ? 20 : rnd(0, 6),
                  k = wide ? 130 : tall ? 70 : rnd(0, 6), k2 = wide || tall ? 90 : rnd(0, 6);
    const bool ta = sweep::rng()() % 2, tb = sweep::rng()() % 2, tc = sweep::rng()() % 2, td = sweep::rng()() % 2;
    const bool two = sweep::rng()() % 2, addend = sweep::rng()() % 2;
    const int bias = static_cast<int>(sweep::rng()() % 3);  // none, AddV2, BiasAdd
    const char* act = activations[sweep::rng()() % 4];
    std::vector<Tensor> args{sweep::random_tensor(dt, ta ? Shape{k, m} : Shape{m, k}),
                             sweep::random_tensor(dt, tb ? Shape{n, k} : Shape{k, n}),
                             sweep::random_tensor(dt, tc ? Shape{k2, m} : Shape{m, k2}),
                             sweep::random_tensor(dt, td ? Shape{n, k2} : Shape{k2, n}),
                             sweep::random_tensor(dt, Shape{n}), sweep::random_tensor(dt, Shape{m, n})};
    auto build = [&](Graph& g) {
      std::vector<Output> in;
      const char* names[] = {"a", "b", "c", "d", "bias", "addend"};
      for (size_t i = 0; i < args.size(); ++i) in.push_back(g.placeholder({dt, args[i].shape()}, names[i]));
      Output y = g.add_node(op::MatMul, {in[0], in[1]}, Attrs{{"transpose_a", ta}, {"transpose_b", tb}})->output();
      if (two) {
        Output y2 = g.add_node(op::MatMul, {in[2], in[3]}, Attrs{{"transpose_a", tc}, {"transpose_b", td}})->output();
        y = g.add_node(op::AddV2, {y2, y})->output();
      }
      if (addend) y = g.add_node(op::AddV2, {y, in[5]})->output();
      if (bias == 1) y = g.add_node(op::AddV2, {in[4], y})->output();
      if (bias == 2) y = g.add_node(op::BiasAdd, {y, in[4]})->output();
      if (*act) y = g.add_node(OpType{act}, {y})->output();
      g.outputs() = {y};
    };
    Graph plain("plain"), fused("fused");
    build(plain);
    build(fused);
    canonicalize(fused);  // BiasAdd (NHWC) is an AddV2 to the fuser
    fuse_matmul(fused);
    int fused_nodes = 0;
    for (const auto& node : fused.nodes()) fused_nodes += node->op->name == "FusedMatMul";
    const bool fusable = two || addend || bias != 0 || *act;
    std::string what = std::string("FusedMatMul ") + dtype_name(dt) + " " + std::to_string(m) + "x" +
                       std::to_string(k) + "x" + std::to_string(n) + (two ? " +product" : "") + (addend ? " +addend" : "") +
                       (bias ? " +bias" : "") + " " + act;
    CHECK_MESSAGE(fused_nodes == (fusable ? 1 : 0), what);
    CHECK_MESSAGE(fused.nodes().size() == args.size() + 1, what);  // the placeholders and one node
    // The products' sums may run in another order (another blocking), so
    // float32 may differ by a few roundings per term of the longest sum.
    const double sum_terms = static_cast<double>(k + (two ? k2 : 0) + 1);
    sweep::expect_close(compile_plan(fused).run(args)[0], compile_plan(plain).run(args)[0], what, /*rtol=*/1e-5,
                        /*atol=*/dt == DType::Float32 ? 1e-6 * sum_terms : 1e-12);
  }
}

TEST_CASE("fuse_matmul leaves products whose result is also used elsewhere") {
  Graph g("shared");
  Output a = g.placeholder({DType::Float32, Shape{2, 3}}, "a");
  Output b = g.placeholder({DType::Float32, Shape{3, 2}}, "b");
  Output y = g.add_node(op::MatMul, {a, b})->output();
  Output t = g.add_node(op::Tanh, {y})->output();
  g.outputs() = {t, y};
  fuse_matmul(g);
  for (const auto& node : g.nodes()) CHECK(node->op->name != "FusedMatMul");
}

TEST_CASE("FusedMatMul errors and shape rules") {
  Tensor a = sweep::random_tensor(DType::Float32, Shape{2, 3});
  Tensor b = sweep::random_tensor(DType::Float32, Shape{3, 4});
  Tensor c = sweep::random_tensor(DType::Float32, Shape{3, 5});
  Tensor d = sweep::random_tensor(DType::Float32, Shape{5, 4});
  std::vector<Tensor> mismatched{a, b, c, d};
  CHECK_THROWS_WITH_AS(run1(op::FusedMatMul, mismatched, Attrs{{"products", int64_t{2}}}),
                       "Incompatible shapes: [2,4] vs. [3,4]", InvalidArgumentError);
  Tensor bias = sweep::random_tensor(DType::Float32, Shape{3});
  std::vector<Tensor> bad_bias{a, b, bias};
  CHECK_THROWS_AS(run1(op::FusedMatMul, bad_bias, Attrs{{"bias", true}}), InvalidArgumentError);
  std::vector<Tensor> too_few{a, b};
  CHECK_THROWS_WITH_AS(run1(op::FusedMatMul, too_few, Attrs{{"bias", true}}), "FusedMatMul expects 3 inputs, got 2",
                       InvalidArgumentError);
  Tensor i = sweep::random_tensor(DType::Int32, Shape{2, 3});
  std::vector<Tensor> ints{i, i};
  CHECK_THROWS_AS(run1(op::FusedMatMul, ints, Attrs{{"transpose_b", true}}), InvalidArgumentError);
  std::vector<Tensor> bad_inner{a, a};
  CHECK_THROWS_WITH_AS(run1(op::FusedMatMul, bad_inner), "Matrix size-incompatible: In[0]: [2,3], In[1]: [2,3]",
                       InvalidArgumentError);
  std::vector<Tensor> ok{a, b};
  // The activation is any unary elementwise op, by name.
  CHECK_THROWS_WITH_AS(run1(op::FusedMatMul, ok, Attrs{{"activation", std::string("AddV2")}}),
                       "FusedMatMul: activation 'AddV2' is not a unary elementwise op on float32", InvalidArgumentError);
  CHECK_THROWS_AS(run1(op::FusedMatMul, ok, Attrs{{"activation", std::string("NoSuchOp")}}), InvalidArgumentError);
  Tensor elu = run1(op::FusedMatMul, ok, Attrs{{"activation", std::string("Elu")}});
  Tensor product = run1(op::MatMul, ok);
  std::vector<Tensor> product_in{product};
  sweep::expect_close(elu, run1(OpType{"Elu"}, product_in), "FusedMatMul with Elu", 0, 0);
  const OpDef& fm = OpRegistry::global().get(op::FusedMatMul);
  TensorSpec specs[4] = {{DType::Float32, Shape{-1, 3}},
                         {DType::Float32, Shape{3, -1}},
                         {DType::Float32, Shape{7, 5}},
                         {DType::Float32, Shape::unknown_rank()}};
  const Tensor* none[4] = {nullptr, nullptr, nullptr, nullptr};
  CHECK(infer_outputs(fm, specs, Attrs{{"products", int64_t{2}}}, none)[0].shape.str() == "(7, None)");
}
