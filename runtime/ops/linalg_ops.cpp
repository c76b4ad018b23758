// Linear algebra ops: MatMul and BatchMatMulV2 (TF's math_ops.cc signatures),
// and agc's FusedMatMul (what the optimizer makes of MatMul + AddV2 + Tanh
// chains). All multiply through kernels::gemm, the one GEMM interface. The
// rest of the family: matrix_diag_ops.cpp (diagonals and bands) and
// matrix_factor_ops.cpp (inverse, determinant, solve, Cholesky, QR).
#include <Eigen/Core>
#include <algorithm>
#include <string>
#include <vector>

#include "runtime/ops/elementwise_def.h"
#include "runtime/ops/families.h"
#include "runtime/ops/kernels/bf16_gemm.h"
#include "runtime/ops/kernels/broadcast.h"
#include "runtime/ops/kernels/gemm.h"
#include "runtime/ops/grad_context.h"
#include "runtime/ops/registry.h"

namespace ag {

void register_matrix_diag_ops(OpRegistry& reg);    // matrix_diag_ops.cpp
void register_matrix_factor_ops(OpRegistry& reg);  // matrix_factor_ops.cpp

namespace {

// The dtypes both ops take (TF also has half and complex types, which agc lacks).
bool matmul_dtype(DType t) {
  return t == DType::Float32 || t == DType::Float64 || t == DType::Int32 || t == DType::Int64 ||
         t == DType::BFloat16;
}

void check_types(const InferContext& c) {
  DType t = c.inputs[0].dtype;
  if (c.inputs[1].dtype != t) {
    throw InvalidArgumentError("cannot compute " + std::string(c.op) + " as input #1(zero-based) was expected to be a " +
                               dtype_tf_string(t) + " tensor but is a " + dtype_tf_string(c.inputs[1].dtype) +
                               " tensor");
  }
  if (!matmul_dtype(t)) {
    throw InvalidArgumentError(std::string("Value for attr 'T' of ") + dtype_tf_string(t) +
                               " is not in the list of allowed values: bfloat16, float, double, int32, int64");
  }
}

bool known(int64_t d) { return d != kUnknownDim; }

/// The [m, n] shape of op(a)·op(b), or InvalidArgumentError as TF words it.
/// The product's shape; the error in the words of TF's MatMul shape function
/// while tracing (MatMulShape: WithRank, then Merge of the inner dims), of
/// its kernel otherwise.
Shape matmul_shape(const Shape& a, const Shape& b, bool ta, bool tb, bool tracing = false) {
  const Shape* in[2] = {&a, &b};
  for (int i = 0; i < 2; ++i) {
    const Shape& s = *in[i];
    if (s.rank_known() && s.rank() != 2) {
      throw InvalidArgumentError(tracing ? "Shape must be rank 2 but is rank " + std::to_string(s.rank())
                                         : "In[" + std::to_string(i) + "] is not a matrix. Instead it has shape " +
                                               s.debug_string());
    }
  }
  int64_t ak = a.rank_known() ? a.dim(ta ? 0 : 1) : kUnknownDim;
  int64_t bk = b.rank_known() ? b.dim(tb ? 1 : 0) : kUnknownDim;
  if (known(ak) && known(bk) && ak != bk) {
    throw InvalidArgumentError(tracing ? "Dimensions must be equal, but are " + std::to_string(ak) + " and " +
                                             std::to_string(bk)
                                       : "Matrix size-incompatible: In[0]: " + a.debug_string() + ", In[1]: " +
                                             b.debug_string());
  }
  int64_t m = a.rank_known() ? a.dim(ta ? 1 : 0) : kUnknownDim;
  int64_t n = b.rank_known() ? b.dim(tb ? 0 : 1) : kUnknownDim;
  return Shape{m, n};
}

// MatMul: a:T, b:T -> product:T; attrs transpose_a, transpose_b.
std::vector<TensorSpec> infer_matmul(const InferContext& c) {
  check_types(c);
  return {{c.inputs[0].dtype, matmul_shape(c.inputs[0].shape, c.inputs[1].shape,
                                           c.attrs.get_or<bool>("transpose_a", false),
                                           c.attrs.get_or<bool>("transpose_b", false), c.tracing)}};
}

// One broadcast batch dim (numpy rules; unknowns stay unknown unless the other side decides).
int64_t broadcast_dim(int64_t x, int64_t y, bool& ok) {
  if (known(x) && known(y)) {
    if (x == y || y == 1) return x;
    if (x == 1) return y;
    ok = false;
    return x;
  }
  int64_t k = known(x) ? x : y;
  return known(k) && k != 1 ? k : kUnknownDim;
}

// BatchMatMulV2: x:T, y:T -> output:T; attrs adj_x, adj_y; batch dims broadcast.
std::vector<TensorSpec> infer_batch_matmul(const InferContext& c) {
  check_types(c);
  const Shape& a = c.inputs[0].shape;
  const Shape& b = c.inputs[1].shape;
  for (int i = 0; i < 2; ++i) {
    const Shape& s = c.inputs[static_cast<size_t>(i)].shape;
    if (s.rank_known() && s.rank() < 2) {
      throw InvalidArgumentError(c.tracing ? "Shape must be at least rank 2 but is rank " + std::to_string(s.rank())
                                           : "In[" + std::to_string(i) + "] ndims must be >= 2: " +
                                                 std::to_string(s.rank()));
    }
  }
  DType t = c.inputs[0].dtype;
  if (!a.rank_known() || !b.rank_known()) return {{t, Shape::unknown_rank()}};
  bool ax = c.attrs.get_or<bool>("adj_x", false);
  bool ay = c.attrs.get_or<bool>("adj_y", false);
  int ra = a.rank(), rb = b.rank();
  // TF's shape function (BatchMatMulV2Shape) merges the inner dims before it
  // broadcasts the batch dims; the kernel checks the other way round.
  int64_t ak = a.dim(ax ? ra - 2 : ra - 1), bk = b.dim(ay ? rb - 1 : rb - 2);
  bool inner_ok = !(known(ak) && known(bk) && ak != bk);
  if (!inner_ok && c.tracing) {
    throw InvalidArgumentError("Dimensions must be equal, but are " + std::to_string(ak) + " and " +
                               std::to_string(bk));
  }
  int batch_rank = std::max(ra, rb) - 2;
  Shape out;
  bool ok = true;
  for (int i = 0; i < batch_rank; ++i) {
    int ia = i - (batch_rank - (ra - 2)), ib = i - (batch_rank - (rb - 2));
    int64_t da = ia >= 0 ? a.dim(ia) : 1, db = ib >= 0 ? b.dim(ib) : 1;
    out.push_back(broadcast_dim(da, db, ok));
  }
  if (!ok) {
    Shape a_batch, b_batch;
    for (int i = 0; i < ra - 2; ++i) a_batch.push_back(a.dim(i));
    for (int i = 0; i < rb - 2; ++i) b_batch.push_back(b.dim(i));
    throw InvalidArgumentError(c.tracing ? kernels::broadcast_error(a_batch, b_batch, true)
                                         : "In[0] and In[1] must have compatible batch dimensions: " +
                                               a.debug_string() + " vs. " + b.debug_string());
  }
  if (!inner_ok) {
    throw InvalidArgumentError("Matrix size-incompatible: In[0]: " + a.debug_string() + ", In[1]: " +
                               b.debug_string());
  }
  out.push_back(a.dim(ax ? ra - 1 : ra - 2));
  out.push_back(b.dim(ay ? rb - 2 : rb - 1));
  return {{t, out}};
}

template <class T>
Kernel matmul_kernel(bool ta, bool tb) {
  return [ta, tb](KernelContext& k) {
    const Tensor& a = k.input(0);
    const Tensor& b = k.input(1);
    int64_t m = a.shape().dim(ta ? 1 : 0), kk = a.shape().dim(ta ? 0 : 1), n = b.shape().dim(tb ? 0 : 1);
    Tensor& out = k.allocate_output(0, dtype_of<T>(), Shape{m, n});
    kernels::gemm(a.data<T>(), b.data<T>(), out.data<T>(), m, n, kk, a.shape().dim(1), b.shape().dim(1), n, ta, tb);
  };
}

template <class T>
Kernel batch_matmul_kernel(bool ax, bool ay) {
  return [ax, ay](KernelContext& k) {
    const Tensor& a = k.input(0);
    const Tensor& b = k.input(1);
    const Shape& sa = a.shape();
    const Shape& sb = b.shape();
    int ra = sa.rank(), rb = sb.rank();
    int batch_rank = std::max(ra, rb) - 2;
    int64_t arows = sa.dim(ra - 2), acols = sa.dim(ra - 1), brows = sb.dim(rb - 2), bcols = sb.dim(rb - 1);
    int64_t m = ax ? acols : arows, kk = ax ? arows : acols, n = ay ? brows : bcols;
    // Output batch dims and, per dim, each input's stride in matrices (0 where broadcast).
    Shape out;
    std::vector<int64_t> dims(static_cast<size_t>(batch_rank)), stride_a(dims.size()), stride_b(dims.size());
    int64_t sta = 1, stb = 1;
    for (int i = batch_rank - 1; i >= 0; --i) {
      int ia = i - (batch_rank - (ra - 2)), ib = i - (batch_rank - (rb - 2));
      int64_t da = ia >= 0 ? sa.dim(ia) : 1, db = ib >= 0 ? sb.dim(ib) : 1;
      size_t u = static_cast<size_t>(i);
      dims[u] = da == 1 ? db : da;
      stride_a[u] = da == 1 ? 0 : sta;
      stride_b[u] = db == 1 ? 0 : stb;
      sta *= da;
      stb *= db;
    }
    for (int64_t d : dims) out.push_back(d);
    out.push_back(m);
    out.push_back(n);
    Tensor& o = k.allocate_output(0, dtype_of<T>(), out);
    int64_t batches = 1;
    for (int64_t d : dims) batches *= d;
    if (o.num_elements() == 0) return;
    const T* pa = a.data<T>();
    const T* pb = b.data<T>();
    T* po = o.data<T>();
    int64_t asize = arows * acols, bsize = brows * bcols, osize = m * n;
    auto one = [&](int64_t bi, int threads) {
      int64_t ia = 0, ib = 0, rem = bi;
      for (int i = batch_rank - 1; i >= 0; --i) {
        size_t u = static_cast<size_t>(i);
        int64_t idx = rem % dims[u];
        rem /= dims[u];
        ia += idx * stride_a[u];
        ib += idx * stride_b[u];
      }
      kernels::gemm(pa + ia * asize, pb + ib * bsize, po + bi * osize, m, n, kk, acols, bcols, n, ax, ay, threads);
    };
    double flops = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(kk);
    if (batches > 1 && kernels::threads_for(flops * static_cast<double>(batches)) > 1 &&
        kernels::threads_for(flops) == 1) {
      // Many small products: both threads take runs of the batch from a shared
      // counter (more runs than threads, so a descheduled thread holds up little).
      kernels::parallel_for(batches, static_cast<int>(std::min<int64_t>(batches, 8)), [&](int64_t b0, int64_t b1) {
        for (int64_t bi = b0; bi < b1; ++bi) one(bi, 1);
      });
    } else {
      for (int64_t bi = 0; bi < batches; ++bi) one(bi, 2);
    }
  };
}

// ---- FusedMatMul: act(op(a)·op(b) [+ op(c)·op(d)] [+ addend] [+ bias]),
// float32/float64. Inputs a, b, then c, d when attr products = 2, then the
// addend ([m, n], attr addend) and the bias ([n], attr bias); attrs
// transpose_a..transpose_d, activation ("" or the name of a unary elementwise
// op, run through its ElementwiseDef's block step: the op's own semantic). The
// products accumulate into the addend's copy or the first product (GEMMs with
// beta = 1) and the bias and activation run while the result is in cache: no
// temporaries, one pass. Made by fuse_matmul
// (runtime/graph/optimize/fuse_matmul.cpp); its results are those of the ops
// it replaces up to rounding (the sum's order within the GEMM may differ).

struct FusedMatMulAttrs {
  bool trans[4] = {false, false, false, false};
  int64_t products = 1;
  bool addend = false;
  bool bias = false;
  std::string activation;

  explicit FusedMatMulAttrs(const Attrs& a)
      : trans{a.get_or<bool>("transpose_a", false), a.get_or<bool>("transpose_b", false),
              a.get_or<bool>("transpose_c", false), a.get_or<bool>("transpose_d", false)},
        products(a.get_or<int64_t>("products", 1)),
        addend(a.get_or<bool>("addend", false)),
        bias(a.get_or<bool>("bias", false)),
        activation(a.get_or<std::string>("activation", "")) {
    if (products != 1 && products != 2) {
      throw InvalidArgumentError("FusedMatMul: products must be 1 or 2, got " + std::to_string(products));
    }
    if (!activation.empty()) activation_step(DType::Float32);  // checks the name
  }
  /// The activation's block step on `t`, or nullptr for none.
  BlockFn activation_step(DType t) const {
    if (activation.empty()) return nullptr;
    const OpDef* op = OpRegistry::global().find(activation);
    const ElementwiseDef* e = op != nullptr ? op->elementwise : nullptr;
    if (e == nullptr || e->arity != 1 || e->bool_result || e->block_for(t) == nullptr) {
      throw InvalidArgumentError("FusedMatMul: activation '" + activation + "' is not a unary elementwise op on " +
                                 dtype_name(t));
    }
    return e->block_for(t);
  }
  size_t addend_input() const { return static_cast<size_t>(products * 2); }
  size_t num_inputs() const { return addend_input() + (addend ? 1 : 0) + (bias ? 1 : 0); }
};

std::vector<TensorSpec> infer_fused_matmul(const InferContext& c) {
  FusedMatMulAttrs f(c.attrs);
  if (c.inputs.size() != f.num_inputs()) {
    throw InvalidArgumentError("FusedMatMul expects " + std::to_string(f.num_inputs()) + " inputs, got " +
                               std::to_string(c.inputs.size()));
  }
  const DType t = c.inputs[0].dtype;
  if (t != DType::Float32 && t != DType::Float64) {
    throw InvalidArgumentError(std::string("Value for attr 'T' of ") + dtype_tf_string(t) +
                               " is not in the list of allowed values: float, double");
  }
  for (size_t i = 1; i < c.inputs.size(); ++i) {
    if (c.inputs[i].dtype != t) {
      throw InvalidArgumentError("cannot compute FusedMatMul as input #" + std::to_string(i) +
                                 "(zero-based) was expected to be a " + dtype_tf_string(t) + " tensor but is a " +
                                 dtype_tf_string(c.inputs[i].dtype) + " tensor");
    }
  }
  Shape out = matmul_shape(c.inputs[0].shape, c.inputs[1].shape, f.trans[0], f.trans[1]);
  if (f.products == 2) {
    Shape second = matmul_shape(c.inputs[2].shape, c.inputs[3].shape, f.trans[2], f.trans[3]);
    if (!out.is_compatible_with(second)) {
      throw InvalidArgumentError("Incompatible shapes: " + out.debug_string() + " vs. " + second.debug_string());
    }
    for (int i = 0; i < 2; ++i) {
      if (!known(out.dim(i))) out.set_dim(i, second.dim(i));
    }
  }
  if (f.addend) {
    const Shape& a = c.inputs[f.addend_input()].shape;
    if (!out.is_compatible_with(a)) {
      throw InvalidArgumentError("Incompatible shapes: " + out.debug_string() + " vs. " + a.debug_string());
    }
    for (int i = 0; i < 2; ++i) {
      if (!known(out.dim(i))) out.set_dim(i, a.dim(i));
    }
  }
  if (f.bias) {
    const Shape& b = c.inputs.back().shape;
    if (b.rank_known() && (b.rank() != 1 || (known(b.dim(0)) && known(out.dim(1)) && b.dim(0) != out.dim(1)))) {
      throw InvalidArgumentError("FusedMatMul: bias must be a vector of the product's width " +
                                 out.debug_string() + ", got " + b.debug_string());
    }
  }
  return {{t, out}};
}

template <class T>
Kernel fused_matmul_kernel(const FusedMatMulAttrs& f) {
  const BlockFn activation = f.activation_step(dtype_of<T>());
  return [f, activation](KernelContext& k) {
    auto product_dims = [&](size_t i, int64_t& m, int64_t& kk, int64_t& n) {
      const Tensor& a = k.input(i);
      const Tensor& b = k.input(i + 1);
      matmul_shape(a.shape(), b.shape(), f.trans[i], f.trans[i + 1]);  // checks ranks and the inner dim
      m = a.shape().dim(f.trans[i] ? 1 : 0);
      kk = a.shape().dim(f.trans[i] ? 0 : 1);
      n = b.shape().dim(f.trans[i + 1] ? 0 : 1);
    };
    int64_t m, kk, n;
    product_dims(0, m, kk, n);
    const Shape out_shape{m, n};
    int64_t m2 = 0, k2 = 0, n2 = 0;
    if (f.products == 2) {
      product_dims(2, m2, k2, n2);
      if (m2 != m || n2 != n) {
        throw InvalidArgumentError("Incompatible shapes: " + out_shape.debug_string() + " vs. " +
                                   Shape{m2, n2}.debug_string());
      }
    }
    const Tensor* addend = f.addend ? &k.input(f.addend_input()) : nullptr;
    if (addend != nullptr && !(addend->shape() == out_shape)) {
      throw InvalidArgumentError("Incompatible shapes: " + out_shape.debug_string() + " vs. " +
                                 addend->shape().debug_string());
    }
    const Tensor* bias = f.bias ? &k.input(f.num_inputs() - 1) : nullptr;
    if (bias != nullptr && !(bias->shape() == Shape{n})) {
      throw InvalidArgumentError("FusedMatMul: bias must be a vector of the product's width " +
                                 out_shape.debug_string() + ", got " + bias->shape().debug_string());
    }
    Tensor& out = k.allocate_output(0, dtype_of<T>(), out_shape);
    if (m == 0 || n == 0) return;
    T* o = out.data<T>();
    auto ld = [&](size_t i) { return k.input(i).shape().dim(1); };
    // Rows [r0, r1) x columns [c0, c1) of the result, products through
    // activation, on one thread: op(A)'s and op(C)'s rows start at r0, op(B)'s
    // and op(D)'s columns at c0.
    auto block = [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
      auto rows = [&](size_t i) { return k.input(i).data<T>() + (f.trans[i] ? r0 : r0 * ld(i)); };
      auto cols = [&](size_t i) { return k.input(i).data<T>() + (f.trans[i] ? c0 * ld(i) : c0); };
      T* out_block = o + r0 * n + c0;
      if (addend != nullptr) {
        for (int64_t r = r0; r < r1; ++r) std::copy_n(addend->data<T>() + r * n + c0, c1 - c0, o + r * n + c0);
        kernels::gemm_add(rows(0), cols(1), out_block, r1 - r0, c1 - c0, kk, ld(0), ld(1), n, f.trans[0],
                          f.trans[1], 1);
      } else {
        kernels::gemm(rows(0), cols(1), out_block, r1 - r0, c1 - c0, kk, ld(0), ld(1), n, f.trans[0], f.trans[1],
                      1);
      }
      if (f.products == 2) {
        kernels::gemm_add(rows(2), cols(3), out_block, r1 - r0, c1 - c0, k2, ld(2), ld(3), n, f.trans[2],
                          f.trans[3], 1);
      }
      using Rows = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>, 0, Eigen::OuterStride<>>;
      Rows r(out_block, r1 - r0, c1 - c0, Eigen::OuterStride<>(n));
      if (bias != nullptr) {
        r.rowwise() += Eigen::Map<const Eigen::Array<T, 1, Eigen::Dynamic>>(bias->data<T>() + c0, c1 - c0);
      }
      if (activation != nullptr) {
        for (int64_t row = 0; row < r1 - r0; ++row) {
          T* p = out_block + row * n;
          const void* in[1] = {p};
          activation(in, p, c1 - c0);
        }
      }
    };
    // The fused work decides the threads, not each product alone (an RNN
    // step's two 32x256x256 products), and each block runs through its
    // activation while in cache.
    const double macs = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(kk + k2);
    kernels::parallel_blocks(m, n, macs, 2, block);
  };
}

template <template <class> class Make, class... Args>
Kernel dispatch_matmul(DType t, Args... args) {
  switch (t) {
    case DType::Float32: return Make<float>::make(args...);
    case DType::Float64: return Make<double>::make(args...);
    case DType::Int32: return Make<int32_t>::make(args...);
    case DType::Int64: return Make<int64_t>::make(args...);
    case DType::BFloat16: return Make<bfloat16>::make(args...);
    default: throw InternalError("matmul kernel for an unchecked dtype");
  }
}
template <class T>
struct MakeMatMul {
  static Kernel make(bool a, bool b) { return matmul_kernel<T>(a, b); }
};
template <class T>
struct MakeBatchMatMul {
  static Kernel make(bool a, bool b) { return batch_matmul_kernel<T>(a, b); }
};

/// A 2-D product's [M, K]·[K, N] from its node: K is a's contracted dim.
ContractionDims matmul_dims(const InferContext& c, std::span<const TensorSpec> out) {
  const Shape& a = c.inputs[0].shape;
  const Shape& y = out[0].shape;
  if (!a.rank_known() || a.rank() != 2 || !y.rank_known() || y.rank() != 2) return {1, -1, -1, -1};
  const bool ta = c.attrs.get_or<bool>("transpose_a", false);
  return {1, static_cast<double>(y.dim(0)), static_cast<double>(a.dim(ta ? 0 : 1)), static_cast<double>(y.dim(1))};
}

/// BatchMatMulV2: the batch is every output dim but the last two.
ContractionDims batch_matmul_dims(const InferContext& c, std::span<const TensorSpec> out) {
  const Shape& x = c.inputs[0].shape;
  const Shape& y = out[0].shape;
  if (!x.rank_known() || x.rank() < 2 || !y.rank_known() || y.rank() < 2) return {-1, -1, -1, -1};
  double batch = 1;
  for (int i = 0; i + 2 < y.rank(); ++i) batch *= static_cast<double>(y.dim(i));
  const bool adj_x = c.attrs.get_or<bool>("adj_x", false);
  return {batch, static_cast<double>(y.dim(y.rank() - 2)), static_cast<double>(x.dim(x.rank() - (adj_x ? 2 : 1))),
          static_cast<double>(y.dim(y.rank() - 1))};
}

/// op(a)·op(b): each input's gradient is a product of g with the other
/// input, transposed as the forward was (GRADIENTS.md 3.2's table).
/// BatchMatMulV2's are reduced over broadcast batch dims.
std::vector<GradTensor> matmul_grad(GradContext& c, OpType product, const char* ta_attr, const char* tb_attr) {
  bool ta = c.attrs().get_or<bool>(ta_attr, false), tb = c.attrs().get_or<bool>(tb_attr, false);
  GradTensor a = c.input(0), b = c.input(1), g = c.grad(0);
  auto mm = [&](GradTensor x, GradTensor y, bool tx, bool ty) {
    return c.apply1(product, {x, y}, Attrs{{ta_attr, tx}, {tb_attr, ty}});
  };
  GradTensor ga, gb;
  if (!ta && !tb) {
    ga = mm(g, b, false, true), gb = mm(a, g, true, false);
  } else if (!ta && tb) {
    ga = mm(g, b, false, false), gb = mm(g, a, true, false);
  } else if (ta && !tb) {
    ga = mm(b, g, false, true), gb = mm(a, g, false, false);
  } else {
    ga = mm(b, g, true, true), gb = mm(g, a, true, true);
  }
  return grads({c.unbroadcast(ga, a), c.unbroadcast(gb, b)});
}

/// A float32 matrix as row-major [rows, cols], transposed first when `t`.
std::vector<float> row_major(const Tensor& x, bool t) {
  const int64_t r = x.shape().dim(0), c = x.shape().dim(1);
  const float* p = x.data<float>();
  if (!t) return std::vector<float>(p, p + r * c);
  std::vector<float> out(static_cast<size_t>(r * c));
  for (int64_t i = 0; i < r; ++i) {
    for (int64_t j = 0; j < c; ++j) out[static_cast<size_t>(j * r + i)] = p[i * c + j];
  }
  return out;
}

/// MatMul on the TPU emulator (TPU_EMULATOR.md B32): float32 operands are
/// rounded to bfloat16 and their products summed in float32, as the MXU
/// does at default precision; other dtypes compute as on the CPU.
Kernel tpu_matmul_kernel(const KernelSpec& s) {
  const bool ta = s.attrs.get_or<bool>("transpose_a", false), tb = s.attrs.get_or<bool>("transpose_b", false);
  if (s.inputs[0].dtype != DType::Float32) return dispatch_matmul<MakeMatMul>(s.inputs[0].dtype, ta, tb);
  return [ta, tb](KernelContext& k) {
    const Tensor& a = k.input(0);
    const Tensor& b = k.input(1);
    const int64_t m = a.shape().dim(ta ? 1 : 0), depth = a.shape().dim(ta ? 0 : 1), n = b.shape().dim(tb ? 0 : 1);
    if (b.shape().dim(tb ? 1 : 0) != depth) {
      throw InvalidArgumentError("Matrix size-incompatible: In[0]: " + a.shape().debug_string() + ", In[1]: " + b.shape().debug_string());
    }
    std::vector<float> x = row_major(a, ta), y = row_major(b, tb);
    Tensor out(DType::Float32, Shape{m, n});
    kernels::tpu_f32_gemm(x.data(), y.data(), out.data<float>(), m, n, depth, depth, n, n,
                          kernels::F32MatmulPrecision::Default);
    k.set_output(0, std::move(out));
  };
}

}  // namespace

void register_linalg_ops(OpRegistry& reg) {
  // MatMul(a: T, b: T) -> T; attrs transpose_a, transpose_b (bool, default false).
  reg.op("MatMul").inputs(2).tf_signature("a: T, b: T -> product: T").infer(infer_matmul).cpu([](const KernelSpec& s) {
    return dispatch_matmul<MakeMatMul>(s.inputs[0].dtype, s.attrs.get_or<bool>("transpose_a", false),
                                       s.attrs.get_or<bool>("transpose_b", false));
  })
      .kernel(Backend::TpuEmu, tpu_matmul_kernel)
      .semantic(OpSemantic::MatMul)
      .cost(CostKind::Contraction, matmul_dims)
      .tpu()
      .quantization(QuantRole::Dot)
      .grad([](GradContext& c) { return matmul_grad(c, op::MatMul, "transpose_a", "transpose_b"); });
  // BatchMatMulV2(x: T, y: T) -> T; attrs adj_x, adj_y; batch dims broadcast.
  reg.op("BatchMatMulV2").inputs(2).tf_signature("x: T, y: T -> output: T").infer(infer_batch_matmul).cpu([](const KernelSpec& s) {
    return dispatch_matmul<MakeBatchMatMul>(s.inputs[0].dtype, s.attrs.get_or<bool>("adj_x", false),
                                            s.attrs.get_or<bool>("adj_y", false));
  })
      .cost(CostKind::Contraction, batch_matmul_dims)
      .tpu()
      .quantization(QuantRole::Dot)
      .grad([](GradContext& c) { return matmul_grad(c, op::BatchMatMulV2, "adj_x", "adj_y"); });
  // FusedMatMul(a, b[, c, d][, bias]) -> T; see fused_matmul_kernel.
  reg.op("FusedMatMul").inputs(2, 6).infer(infer_fused_matmul).cpu([](const KernelSpec& s) -> Kernel {
    FusedMatMulAttrs f(s.attrs);
    if (s.inputs[0].dtype == DType::Float64) return fused_matmul_kernel<double>(f);
    if (s.inputs[0].dtype == DType::Float32) return fused_matmul_kernel<float>(f);
    throw InternalError("FusedMatMul kernel for an unchecked dtype");
  })
      // Made by fusion after differentiation (fusion is the last graph stage).
      .cost(CostKind::Contraction, matmul_dims)
      .tpu()
      .not_differentiable();
  register_matrix_diag_ops(reg);
  register_matrix_factor_ops(reg);
}

}  // namespace ag
