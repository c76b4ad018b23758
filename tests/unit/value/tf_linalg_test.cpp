// tf.tensordot and tf.einsum (runtime/api/tf_api_linalg.cpp): every case
// against a naive loop over all label assignments, on random shapes with
// zero-size dims, eagerly and inside a traced ag::Function; TF's error texts.
#include <doctest/doctest.h>

#include "tests/unit/value/support.h"

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "runtime/api/tf_api.h"
#include "runtime/function/function.h"
#include "runtime/value/tensor_spec_value.h"

using namespace ag;
using namespace ag::test;

namespace {

struct Dense {
  std::vector<int64_t> shape;
  std::vector<double> data;
};

Tensor to_tensor(const Dense& d) { return Tensor::from_vector<double>(Shape(std::span<const int64_t>(d.shape)), d.data); }

Dense from_value(const Value& v) {
  const Tensor& t = v.as_tensor().value();
  REQUIRE(t.dtype() == DType::Float64);
  Dense d;
  d.shape.assign(t.shape().dims().begin(), t.shape().dims().end());
  d.data.assign(t.data<double>(), t.data<double>() + t.num_elements());
  return d;
}

/// Naive einsum for an explicit equation ("ij,jk->ik"): loops over every
/// assignment of every label, summing the operands' product into the output.
Dense naive_einsum(const std::string& eq, const std::vector<Dense>& in) {
  size_t arrow = eq.find("->");
  std::string lhs = eq.substr(0, arrow), out = eq.substr(arrow + 2);
  std::vector<std::string> subs;
  for (size_t s = 0;;) {
    size_t c = lhs.find(',', s);
    subs.push_back(lhs.substr(s, c == std::string::npos ? std::string::npos : c - s));
    if (c == std::string::npos) break;
    s = c + 1;
  }
  std::map<char, int64_t> size;
  for (size_t i = 0; i < in.size(); ++i) {
    for (size_t k = 0; k < subs[i].size(); ++k) size[subs[i][k]] = in[i].shape[k];
  }
  std::string labels;
  for (auto& [c, n] : size) labels += c;
  Dense r;
  int64_t out_n = 1;
  for (char c : out) {
    r.shape.push_back(size[c]);
    out_n *= size[c];
  }
  r.data.assign(static_cast<size_t>(out_n), 0.0);
  std::map<char, int64_t> at;
  for (char c : labels) {
    at[c] = 0;
    if (size[c] == 0) return r;
  }
  auto offset = [&](const std::string& s, const std::vector<int64_t>& shape) {
    int64_t o = 0;
    for (size_t k = 0; k < s.size(); ++k) o = o * shape[k] + at[s[k]];
    return o;
  };
  for (;;) {
    double p = 1;
    for (size_t i = 0; i < in.size(); ++i) p *= in[i].data[static_cast<size_t>(offset(subs[i], in[i].shape))];
    r.data[static_cast<size_t>(offset(out, r.shape))] += p;
    size_t k = labels.size();
    while (k > 0) {
      char c = labels[k - 1];
      if (++at[c] < size[c]) break;
      at[c] = 0;
      --k;
    }
    if (k == 0) return r;
  }
}

std::mt19937& rng() {
  static std::mt19937 g(1234);
  return g;
}

// A size per label: mostly 1..4, sometimes 0.
std::map<char, int64_t> random_sizes(const std::string& labels) {
  std::map<char, int64_t> m;
  for (char c : labels) {
    if (c == ',' || c == '-' || c == '>') continue;
    if (!m.count(c)) m[c] = rng()() % 8 == 0 ? 0 : 1 + static_cast<int64_t>(rng()() % 4);
  }
  return m;
}

Dense random_dense(const std::string& sub, std::map<char, int64_t>& sizes) {
  Dense d;
  int64_t n = 1;
  for (char c : sub) {
    d.shape.push_back(sizes[c]);
    n *= sizes[c];
  }
  std::uniform_real_distribution<double> u(-1, 1);
  for (int64_t i = 0; i < n; ++i) d.data.push_back(u(rng()));
  return d;
}

void check_close(const Dense& got, const Dense& want, const std::string& what) {
  INFO(what);
  REQUIRE(got.shape == want.shape);
  for (size_t i = 0; i < want.data.size(); ++i) CHECK(std::abs(got.data[i] - want.data[i]) < 1e-9);
}

std::vector<std::string> split_inputs(const std::string& lhs) {
  std::vector<std::string> subs;
  for (size_t s = 0;;) {
    size_t c = lhs.find(',', s);
    subs.push_back(lhs.substr(s, c == std::string::npos ? std::string::npos : c - s));
    if (c == std::string::npos) return subs;
    s = c + 1;
  }
}

/// Checks tf.einsum(eq) eagerly and traced against the naive loop on random
/// shapes; `explicit_eq` is eq with its implicit output spelled out.
void check_einsum(const std::string& eq, const std::string& explicit_eq) {
  std::string lhs = explicit_eq.substr(0, explicit_eq.find("->"));
  std::vector<std::string> subs = split_inputs(lhs);
  std::vector<Param> params;
  for (size_t i = 0; i < subs.size(); ++i) params.push_back({std::string(1, static_cast<char>('a' + i)), {}});
  for (int trial = 0; trial < 6; ++trial) {
    // A Function per trial: each traces once (no retracing warnings).
    Function fn("f", params, [eq](const std::vector<Value>& args) { return tf::einsum(eq, args); });
    auto sizes = random_sizes(lhs);
    std::vector<Dense> in;
    std::vector<Value> args;
    for (const std::string& s : subs) {
      in.push_back(random_dense(s, sizes));
      args.emplace_back(to_tensor(in.back()));
    }
    Dense want = naive_einsum(explicit_eq, in);
    check_close(from_value(tf::einsum(eq, args)), want, "eager " + eq);
    check_close(from_value(fn(args)), want, "traced " + eq);
  }
}

/// tf.tensordot against the naive einsum its axes spell.
void check_tensordot(const std::vector<int64_t>& sa, const std::vector<int64_t>& sb, const Value& axes,
                     const std::vector<int64_t>& a_axes, const std::vector<int64_t>& b_axes) {
  std::string la, lb;
  for (size_t i = 0; i < sa.size(); ++i) la += static_cast<char>('a' + i);
  for (size_t i = 0; i < sb.size(); ++i) lb += static_cast<char>('n' + i);
  for (size_t k = 0; k < a_axes.size(); ++k) {
    int64_t ia = a_axes[k] < 0 ? a_axes[k] + static_cast<int64_t>(sa.size()) : a_axes[k];
    int64_t ib = b_axes[k] < 0 ? b_axes[k] + static_cast<int64_t>(sb.size()) : b_axes[k];
    lb[static_cast<size_t>(ib)] = la[static_cast<size_t>(ia)];
  }
  std::string out;
  for (char c : la) {
    if (lb.find(c) == std::string::npos) out += c;
  }
  for (char c : lb) {
    if (la.find(c) == std::string::npos) out += c;
  }
  std::string eq = la + "," + lb + "->" + out;
  for (int trial = 0; trial < 4; ++trial) {
    Function fn("f", {{"a", {}}, {"b", {}}}, [axes](const std::vector<Value>& args) {
      return tf::tensordot(args[0], args[1], axes);
    });
    auto sizes = random_sizes(la + lb);
    // The given shapes where nonnegative; random (shared by contracted axes) where -1.
    for (size_t i = 0; i < sa.size(); ++i) {
      if (sa[i] >= 0) sizes[la[i]] = sa[i];
    }
    for (size_t i = 0; i < sb.size(); ++i) {
      if (sb[i] >= 0) sizes[lb[i]] = sb[i];
    }
    Dense a = random_dense(la, sizes), b = random_dense(lb, sizes);
    Dense want = naive_einsum(eq, {a, b});
    Value va(to_tensor(a)), vb(to_tensor(b));
    check_close(from_value(tf::tensordot(va, vb, axes)), want, "eager tensordot " + eq);
    check_close(from_value(fn({va, vb})), want, "traced tensordot " + eq);
  }
}

Value zeros(std::vector<int64_t> shape) {
  return Value(Tensor::zeros(DType::Float64, Shape(std::span<const int64_t>(shape))));
}

}  // namespace

TEST_CASE("tf.einsum with two operands matches the naive loop, eager and traced") {
  if (!have({"Transpose", "Reshape", "MatMul", "BatchMatMulV2", "Sum", "Mul"})) return;
  check_einsum("ij,jk->ik", "ij,jk->ik");
  check_einsum("bij,bjk->bik", "bij,bjk->bik");
  check_einsum("bij,jk->bik", "bij,jk->bik");
  check_einsum("i,i->", "i,i->");
  check_einsum("i,j->ij", "i,j->ij");
  check_einsum("ij,ij->ij", "ij,ij->ij");
  check_einsum("abc,cd->abd", "abc,cd->abd");
  check_einsum("bhqd,bhkd->bhqk", "bhqd,bhkd->bhqk");
  check_einsum("ij,jk->ki", "ij,jk->ki");
  check_einsum("ijk,ik->j", "ijk,ik->j");
  check_einsum("ij,j->i", "ij,j->i");
  check_einsum("ij,kl->", "ij,kl->");
  check_einsum("ab,bc->c", "ab,bc->c");
  check_einsum("bi,bj->bji", "bi,bj->bji");
  check_einsum(" ij , jk -> ik ", "ij,jk->ik");
  // Implicit output: the labels appearing once, sorted.
  check_einsum("ij,jk", "ij,jk->ik");
  check_einsum("ba,ac", "ba,ac->bc");
  check_einsum("i,i", "i,i->");
}

TEST_CASE("tf.einsum with a label repeated in an operand: traces and diagonals") {
  if (!have({"Transpose", "Sum", "MatrixDiagPartV3"})) return;
  check_einsum("ii->", "ii->");
  check_einsum("ii->i", "ii->i");
  check_einsum("ii", "ii->");
  check_einsum("iij->ji", "iij->ji");
  check_einsum("ijj,jk->ik", "ijj,jk->ik");
  check_einsum("iii->i", "iii->i");
}

TEST_CASE("tf.einsum with three or more operands contracts them left to right") {
  if (!have({"Transpose", "Reshape", "MatMul", "BatchMatMulV2", "Sum", "Mul"})) return;
  check_einsum("i,i,i->", "i,i,i->");
  check_einsum("ij,jk,kl->il", "ij,jk,kl->il");
  check_einsum("a,b,c->abc", "a,b,c->abc");
  check_einsum("bi,bj,bk->bijk", "bi,bj,bk->bijk");
  check_einsum("ij,jk,kl", "ij,jk,kl->il");
  check_einsum("ab,bc,cd,de->ae", "ab,bc,cd,de->ae");
}

TEST_CASE("tf.einsum with an ellipsis: the dims it stands for, broadcast") {
  if (!have({"Transpose", "Reshape", "MatMul", "BatchMatMulV2", "Sum", "Mul", "BroadcastTo"})) return;
  check_einsum("...ij,...jk->...ik", "xij,xjk->xik");
  check_einsum("...ij->...ji", "abij->abji");
  check_einsum("...i,...i", "ai,ai->a");
  check_einsum("i...->...", "ixy->xy");
  check_einsum("...ij,jk->...ik", "abij,jk->abik");
  // Size-1 ellipsis dims broadcast: [1, 2, 3] · [4, 3, 2] -> [4, 2, 2].
  Value a = tf::reshape(tf::range(Value(6), Value(), Value(1), DType::Float64), L({1, 2, 3}));
  Value b = tf::reshape(tf::range(Value(24), Value(), Value(1), DType::Float64), L({4, 3, 2}));
  Value got = tf::einsum("...ij,...jk->...ik", a, b);
  Value want = tf::matmul(tf::broadcast_to(a, L({4, 2, 3})), b);
  CHECK(str(got) == str(want));
}

TEST_CASE("tf.einsum with one operand: transposes and sums") {
  if (!have({"Transpose", "Sum", "Identity"})) return;
  check_einsum("ij->ji", "ij->ji");
  check_einsum("ij->", "ij->");
  check_einsum("ij->i", "ij->i");
  check_einsum("ij->j", "ij->j");
  check_einsum("ijk->kij", "ijk->kij");
  check_einsum("ijk->ki", "ijk->ki");
  check_einsum("ij->ij", "ij->ij");
  check_einsum("ba", "ba->ab");
  check_einsum("i", "i->i");
}

TEST_CASE("tf.tensordot matches the naive loop, eager and traced") {
  if (!have({"Transpose", "Reshape", "MatMul"})) return;
  check_tensordot({-1, -1}, {-1, -1}, Value(1), {1}, {0});
  check_tensordot({-1, -1, -1}, {-1, -1, -1}, Value(2), {1, 2}, {0, 1});
  check_tensordot({-1, -1}, {-1, -1}, Value(0), {}, {});
  check_tensordot({-1, -1, -1}, {-1, -1}, L({L({0}), L({1})}), {0}, {1});
  check_tensordot({-1, -1, -1}, {-1, -1, -1}, L({L({0, 2}), L({2, 1})}), {0, 2}, {2, 1});
  check_tensordot({-1, -1, -1}, {-1, -1}, L({Value(-1), Value(0)}), {-1}, {0});
  check_tensordot({-1, -1, -1}, {-1, -1, -1, -1}, Value::tuple({L({-3, -1}), L({3, 0})}), {-3, -1}, {3, 0});
  check_tensordot({-1}, {-1}, Value(1), {0}, {0});
  check_tensordot({0, 3}, {3, 2}, Value(1), {1}, {0});
  check_tensordot({2, 0}, {0, 2}, Value(1), {1}, {0});
}

TEST_CASE("tf.einsum and tf.tensordot trace with unknown dims") {
  if (!have({"Transpose", "Reshape", "MatMul", "BatchMatMulV2", "Shape", "GatherV2", "ConcatV2"})) return;
  Function attention("attention", {{"q", {}}, {"k", {}}}, [](const std::vector<Value>& a) {
    return tf::einsum("bhqd,bhkd->bhqk", a[0], a[1]);
  });
  auto c = attention.get_concrete_function({make_tensor_spec(Shape{kUnknownDim, 2, kUnknownDim, 3}, DType::Float64),
                                            make_tensor_spec(Shape{kUnknownDim, 2, kUnknownDim, 3}, DType::Float64)});
  Function dense("dense", {{"x", {}}, {"w", {}}}, [](const std::vector<Value>& a) {
    return tf::tensordot(a[0], a[1], Value(1));
  });
  auto d = dense.get_concrete_function({make_tensor_spec(Shape{kUnknownDim, kUnknownDim, 3}, DType::Float64),
                                        make_tensor_spec(Shape{3, 2}, DType::Float64)});
  Function outer("outer", {{"x", {}}, {"y", {}}}, [](const std::vector<Value>& a) {
    return tf::einsum("bi,bj->bij", a[0], a[1]);
  });
  auto o = outer.get_concrete_function({make_tensor_spec(Shape{kUnknownDim, kUnknownDim}, DType::Float64),
                                        make_tensor_spec(Shape{kUnknownDim, kUnknownDim}, DType::Float64)});
  for (int trial = 0; trial < 4; ++trial) {
    std::map<char, int64_t> s = random_sizes("bqkxyi");
    s['h'] = 2;
    s['d'] = 3;
    s['j'] = 2;
    Dense q = random_dense("bhqd", s), k = random_dense("bhkd", s);
    check_close(from_value((*c)({Value(to_tensor(q)), Value(to_tensor(k))})),
                naive_einsum("bhqd,bhkd->bhqk", {q, k}), "attention, unknown dims");
    Dense x = random_dense("xyd", s), w = random_dense("dj", s);
    check_close(from_value((*d)({Value(to_tensor(x)), Value(to_tensor(w))})), naive_einsum("xyd,dj->xyj", {x, w}),
                "tensordot, unknown dims");
    Dense u = random_dense("bx", s), v = random_dense("by", s);
    check_close(from_value((*o)({Value(to_tensor(u)), Value(to_tensor(v))})), naive_einsum("bx,by->bxy", {u, v}),
                "outer, unknown dims");
  }
}

TEST_CASE("traced tensordot and einsum name their nodes as TF's Python") {
  if (!have({"Transpose", "Reshape", "MatMul", "BatchMatMulV2"})) return;
  Graph g("f");
  TraceScope scope(g);
  Value a(g.placeholder({DType::Float32, Shape{2, 3, 4}}, "a"));
  Value b(g.placeholder({DType::Float32, Shape{4, 5}}, "b"));
  Value t = tf::tensordot(a, b, Value(1));
  CHECK(node_of(t)->name == "Tensordot");
  CHECK(node_of(t)->op->name == "Reshape");
  CHECK(str(t) == "Tensor(\"Tensordot:0\", shape=(2, 3, 5), dtype=float32)");
  // b needs no transpose or reshape; a only a reshape: exactly these nodes.
  CHECK(node_of(t)->inputs[0].node->name == "Tensordot/MatMul");
  Value e = tf::einsum("bij,bjk->bik", a, tf::transpose(a, L({0, 2, 1})));
  CHECK(node_of(e)->name == "einsum/MatMul");
  CHECK(str(e) == "Tensor(\"einsum/MatMul:0\", shape=(2, 3, 3), dtype=float32)");
  Value s = tf::einsum("ij->", b);
  CHECK(node_of(s)->name == "einsum/Sum");
}

TEST_CASE("tf.einsum raises TF's errors for bad equations and operands") {
  Value m = zeros({2, 3});
  CHECK(error_of<ValueError>([&] { (void)tf::einsum("ij,jk->ik", m); }) ==
        "Got 1 inputs for equation \"ij,jk->ik\", expecting 2");
  CHECK(error_of<ValueError>([&] { (void)tf::einsum("ij->i.j", m); }) == "Subscripts have incorrect format: ij->i.j");
  CHECK(error_of<ValueError>([&] { (void)tf::einsum("i j->j1", m); }) == "Subscripts have incorrect format: ij->j1");
  CHECK(error_of<ValueError>([&] { (void)tf::einsum("ij->jj", m); }) ==
        "Output subscripts contain a label appearing more than once: ij->jj");
  CHECK(error_of<ValueError>([&] { (void)tf::einsum("ij->k", m); }) ==
        "Output subscripts contain the label k not present in the input subscripts.");
  CHECK(error_of<InvalidArgumentError>([&] { (void)tf::einsum("ijk->i", m); }) ==
        "Expected input 0 to have rank 3 but got: 2");
  CHECK(error_of<InvalidArgumentError>([&] { (void)tf::einsum("ij,jk->ik", m, zeros({4, 5})); }) ==
        "Expected dimension 3 at axis 0 of the input shaped [4,5] but got dimension 4");
  CHECK(error_of<InvalidArgumentError>([&] { (void)tf::einsum("ii->", m); }) ==
        "Expected dimension 2 at axis 1 of the input shaped [2,3] but got dimension 3");
  CHECK(error_of<ValueError>([&] { (void)tf::einsum("....ij->ij", m); }) == "Subscripts have incorrect format: ....ij->ij");
  CHECK(error_of<InvalidArgumentError>([&] { (void)tf::einsum("...ijk->ijk", m); }) ==
        "Expected input 0 to have rank at least 3 but got: 2");
}

TEST_CASE("tf.tensordot raises TF's errors for bad axes") {
  if (!have({"MatMul", "Reshape"})) return;
  Value a = zeros({2, 3});
  CHECK(error_of<ValueError>([&] { (void)tf::tensordot(a, a, Value(-1)); }) ==
        "`axes` must be at least 0. Received: -1.");
  CHECK(error_of<ValueError>([&] { (void)tf::tensordot(a, a, Value(3)); }) ==
        "`axes` must not be larger than the number of dimensions of tensor " + str(a) +
            ".  Received 3, vs tensor dimensions 2.");
  CHECK(error_of<ValueError>([&] { (void)tf::tensordot(a, a, L({L({0}), L({1}), L({0})})); }) ==
        "`axes` must be an integer or have length 2. Received [[0], [1], [0]].");
  CHECK(error_of<ValueError>([&] { (void)tf::tensordot(a, a, L({L({0, 1}), L({0})})); }) ==
        "Different number of contraction axes `a` and `b`, 2 != 1.");
  CHECK(error_of<IndexError>([&] { (void)tf::tensordot(a, a, L({L({2}), L({0})})); }) == "list index out of range");
  CHECK(error_of<InvalidArgumentError>([&] { (void)tf::tensordot(a, a, Value(1)); }).find(
            "Matrix size-incompatible: In[0]: [2,3], In[1]: [2,3]") != std::string::npos);
}

TEST_CASE("Python literals convert with the other operand's dtype") {
  if (!have({"MatMul", "Mul", "Sum"})) return;
  Value v = tf::constant(L({1.0, 2.0}));
  CHECK(str(tf::einsum("i,i->", L({3.0, 4.0}), v)) == "tf.Tensor(11.0, shape=(), dtype=float32)");
  CHECK(str(tf::einsum("i,j->ij", v, L({1, 2}))) ==
        "tf.Tensor(\n[[1. 2.]\n [2. 4.]], shape=(2, 2), dtype=float32)");
  CHECK(str(tf::tensordot(tf::constant(L({L({1, 2}), L({3, 4})})), L({L({1, 0}), L({0, 1})}), Value(1))) ==
        "tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)");
}
