// Linear algebra ops that factor (batches of) matrices, with Eigen's
// decompositions as TF's kernels use them (TF's matrix_inverse_op.cc,
// determinant_op.cc, matrix_solve_op.cc, cholesky_op.cc, qr_op_impl.h), part
// of the linalg family: MatrixInverse, MatrixDeterminant and MatrixSolve
// (partially pivoted LU), Cholesky (LLT) and Qr (Householder). Gradients are
// TF's linalg_grad.py formulas, written with MatrixInverse where TF solves a
// triangular system.
#include <Eigen/Dense>
#include <cmath>
#include <string>
#include <vector>

#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/registry.h"

namespace ag {

void register_matrix_factor_ops(OpRegistry& reg);

namespace {

template <class T>
using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using ConstMap = Eigen::Map<const Matrix<T>>;
template <class T>
using Map = Eigen::Map<Matrix<T>>;

bool float_dtype(DType t) { return t == DType::Float32 || t == DType::Float64; }

void check_float(const InferContext& c) {
  if (!float_dtype(c.inputs[0].dtype)) array::bad_attr_type("T", c.inputs[0].dtype, "double, float, half, complex64, complex128");
}

/// A batch of matrices: rank >= 2 (TF's "Input tensor 0 must have rank >= 2"),
/// square when `square` ("Input matrix must be square.").
void check_matrices(const Shape& s, bool square, int input = 0) {
  if (!s.rank_known()) return;
  if (s.rank() < 2) {
    throw InvalidArgumentError("Input tensor " + std::to_string(input) + " must have rank >= 2, got " +
                               std::to_string(s.rank()));
  }
  const int64_t r = s.dim(s.rank() - 2), c = s.dim(s.rank() - 1);
  if (square && r >= 0 && c >= 0 && r != c) throw InvalidArgumentError("Input matrix must be square.");
}

/// rows, cols and the batch count of a fully defined batch of matrices.
struct Batch {
  int64_t count, rows, cols;
  explicit Batch(const Shape& s) : rows(s.dim(s.rank() - 2)), cols(s.dim(s.rank() - 1)) {
    count = rows * cols > 0 ? s.num_elements() / (rows * cols) : array::dims_product(s, 0, s.rank() - 2);
  }
};

/// Shape `s` with its last two dims replaced.
Shape with_matrix_dims(const Shape& s, int64_t rows, int64_t cols) {
  Shape out;
  for (int d = 0; d < s.rank() - 2; ++d) out.push_back(s.dim(d));
  out.push_back(rows);
  out.push_back(cols);
  return out;
}

/// f<T>() for the float types.
template <class F>
Kernel dispatch_float(DType t, F&& f) {
  if (t == DType::Float32) return f.template operator()<float>();
  if (t == DType::Float64) return f.template operator()<double>();
  throw InternalError("no kernel for " + std::string(dtype_name(t)));
}

// ---- MatrixInverse(input; adjoint)

std::vector<TensorSpec> infer_square(const InferContext& c) {
  check_float(c);
  check_matrices(c.inputs[0].shape, true);
  return {c.inputs[0]};
}

template <class T>
void inverse(const Tensor& in, Tensor& out, bool adjoint) {
  Batch b(in.shape());
  const int64_t n = b.rows;
  for (int64_t i = 0; i < b.count; ++i) {
    ConstMap<T> a(in.data<T>() + i * n * n, n, n);
    Map<T> o(out.data<T>() + i * n * n, n, n);
    if (n == 0) continue;
    Eigen::PartialPivLU<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>> lu(n);
    if (adjoint) lu.compute(a.adjoint());
    else lu.compute(a);
    // PartialPivLU guards against exact zero pivots only, as TF's kernel does.
    if (!(lu.matrixLU().diagonal().cwiseAbs().minCoeff() > T(0))) throw InvalidArgumentError("Input is not invertible.");
    o.noalias() = lu.inverse();
  }
}

// ---- MatrixDeterminant(input): sign · exp(log|det|) from the LU factors,
// as TF's SLogDet computes it (so float32 results round as TF's do, not as a
// product of the pivots would).

std::vector<TensorSpec> infer_determinant(const InferContext& c) {
  check_float(c);
  const Shape& s = c.inputs[0].shape;
  check_matrices(s, true);
  if (!s.rank_known()) return {{c.inputs[0].dtype, Shape::unknown_rank()}};
  Shape out;
  for (int d = 0; d < s.rank() - 2; ++d) out.push_back(s.dim(d));
  return {{c.inputs[0].dtype, out}};
}

template <class T>
void determinant(const Tensor& in, Tensor& out) {
  Batch b(in.shape());
  const int64_t n = b.rows;
  for (int64_t i = 0; i < b.count; ++i) {
    T sign = 1, log_abs_det = 0;
    if (n > 0) {
      ConstMap<T> a(in.data<T>() + i * n * n, n, n);
      Eigen::PartialPivLU<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>> lu(a);
      Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic> factors = lu.matrixLU();
      sign = static_cast<T>(lu.permutationP().determinant());
      auto diag = factors.diagonal().array().eval();
      auto abs_diag = diag.cwiseAbs().eval();
      log_abs_det += abs_diag.log().sum();
      sign *= (diag / abs_diag).prod();
    }
    if (!std::isfinite(log_abs_det)) {
      sign = 0;
      log_abs_det = log_abs_det > 0 ? -std::log(T(0)) : std::log(T(0));
    }
    out.data<T>()[i] = sign * std::exp(log_abs_det);
  }
}

// ---- MatrixSolve(matrix [..., N, N], rhs [..., N, K]; adjoint)

std::vector<TensorSpec> infer_solve(const InferContext& c) {
  check_float(c);
  if (c.inputs[1].dtype != c.inputs[0].dtype) {
    throw InvalidArgumentError(std::string("Inconsistent values for attr 'T' ") + dtype_tf_string(c.inputs[0].dtype) +
                               " vs. " + dtype_tf_string(c.inputs[1].dtype) + " while building NodeDef 'MatrixSolve'");
  }
  const Shape& m = c.inputs[0].shape;
  const Shape& r = c.inputs[1].shape;
  check_matrices(m, true);
  check_matrices(r, false, 1);
  if (m.rank_known() && r.rank_known()) {
    if (m.rank() != r.rank()) {
      throw InvalidArgumentError("Input tensors must have the same rank, got " + std::to_string(m.rank()) + " and " +
                                 std::to_string(r.rank()));
    }
    const int64_t n = m.dim(m.rank() - 2), rn = r.dim(r.rank() - 2);
    if (n >= 0 && rn >= 0 && n != rn) {
      throw InvalidArgumentError("Input matrix and right-hand side must have the same number of rows.");
    }
    for (int d = 0; d < m.rank() - 2; ++d) {
      if (m.dim(d) >= 0 && r.dim(d) >= 0 && m.dim(d) != r.dim(d)) {
        throw InvalidArgumentError("All input tensors must have the same outer dimensions.");
      }
    }
  }
  return {c.inputs[1]};
}

template <class T>
void solve(const Tensor& m, const Tensor& rhs, Tensor& out, bool adjoint) {
  Batch b(m.shape());
  const int64_t n = b.rows, k = rhs.shape().dim(rhs.rank() - 1);
  for (int64_t i = 0; i < b.count; ++i) {
    if (n == 0 || k == 0) continue;
    ConstMap<T> a(m.data<T>() + i * n * n, n, n);
    ConstMap<T> y(rhs.data<T>() + i * n * k, n, k);
    Map<T> o(out.data<T>() + i * n * k, n, k);
    Eigen::PartialPivLU<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>> lu(n);
    if (adjoint) lu.compute(a.adjoint());
    else lu.compute(a);
    if (!(lu.matrixLU().diagonal().cwiseAbs().minCoeff() > T(0))) {
      throw InvalidArgumentError("Input matrix is not invertible.");
    }
    o.noalias() = lu.solve(y);
  }
}

// ---- Cholesky(input): the lower triangular L with L·Lᴴ = input (its lower triangle read).

template <class T>
void cholesky(const Tensor& in, Tensor& out) {
  Batch b(in.shape());
  const int64_t n = b.rows;
  for (int64_t i = 0; i < b.count; ++i) {
    if (n == 0) continue;
    ConstMap<T> a(in.data<T>() + i * n * n, n, n);
    Map<T> o(out.data<T>() + i * n * n, n, n);
    Eigen::LLT<Matrix<T>, Eigen::Lower> llt(a);
    if (llt.info() != Eigen::Success) {
      throw InvalidArgumentError("Cholesky decomposition was not successful. The input might not be valid.");
    }
    o = llt.matrixL();
  }
}

// ---- Qr(input; full_matrices) -> q, r

std::vector<TensorSpec> infer_qr(const InferContext& c) {
  check_float(c);
  const Shape& s = c.inputs[0].shape;
  check_matrices(s, false);
  DType t = c.inputs[0].dtype;
  if (!s.rank_known()) return {{t, Shape::unknown_rank()}, {t, Shape::unknown_rank()}};
  const int64_t m = s.dim(s.rank() - 2), n = s.dim(s.rank() - 1);
  const bool full = c.attrs.get_or<bool>("full_matrices", false);
  const int64_t p = m < 0 || n < 0 ? kUnknownDim : std::min(m, n);
  return {{t, with_matrix_dims(s, m, full ? m : p)}, {t, with_matrix_dims(s, full ? m : p, n)}};
}

template <class T>
void qr(const Tensor& in, Tensor& q, Tensor& r, bool full) {
  Batch b(in.shape());
  const int64_t m = b.rows, n = b.cols, p = std::min(m, n);
  const int64_t qc = full ? m : p, rr = full ? m : p;
  for (int64_t i = 0; i < b.count; ++i) {
    ConstMap<T> a(in.data<T>() + i * m * n, m, n);
    Map<T> qo(q.data<T>() + i * m * qc, m, qc);
    Map<T> ro(r.data<T>() + i * rr * n, rr, n);
    if (m == 0 || n == 0) {
      qo.setIdentity();
      ro.setZero();
      continue;
    }
    Eigen::HouseholderQR<Matrix<T>> h(a);
    if (full) {
      qo = h.householderQ();
      ro = h.matrixQR().template triangularView<Eigen::Upper>();
    } else {
      qo = h.householderQ() * Matrix<T>::Identity(m, p);
      ro = h.matrixQR().block(0, 0, p, n).template triangularView<Eigen::Upper>();
    }
  }
}

// ---- gradients (TF's linalg_grad.py); batched products through BatchMatMulV2.

GradTensor mm(GradContext& c, GradTensor a, GradTensor b, bool adj_a = false, bool adj_b = false) {
  return c.apply1(op::BatchMatMulV2, {a, b}, Attrs{{"adj_x", adj_a}, {"adj_y", adj_b}});
}
GradTensor inv(GradContext& c, GradTensor a) { return c.apply1(op::MatrixInverse, {a}, Attrs{{"adjoint", false}}); }
/// aᴴ of a batch of matrices.
GradTensor adjoint(GradContext& c, GradTensor a) {
  const Shape& s = c.spec(a).shape;
  if (!s.rank_known()) throw UnimplementedError("The gradient of " + c.op().name + " needs its input's rank known while tracing");
  std::vector<int64_t> perm;
  for (int d = 0; d < s.rank() - 2; ++d) perm.push_back(d);
  perm.push_back(s.rank() - 1);
  perm.push_back(s.rank() - 2);
  return c.apply1(op::Transpose, {a, c.ints(perm)});
}
GradTensor band(GradContext& c, GradTensor a, int64_t lower, int64_t upper) {
  return c.apply1(op::MatrixBandPart, {a, c.constant(Tensor::scalar(lower)), c.constant(Tensor::scalar(upper))});
}

/// MatrixInverse: -A⁻ᴴ·g·A⁻ᴴ (adjoint: the other way round).
std::vector<GradTensor> inverse_grad(GradContext& c) {
  const bool adj = c.attrs().get_or<bool>("adjoint", false);
  GradTensor ainv = c.output(0);
  return grads({c.neg(mm(c, ainv, mm(c, c.grad(0), ainv, adj, !adj), !adj))});
}

/// MatrixDeterminant: g · det · A⁻ᴴ.
std::vector<GradTensor> determinant_grad(GradContext& c) {
  GradTensor a_adj_inv = c.apply1(op::MatrixInverse, {c.input(0)}, Attrs{{"adjoint", true}});
  GradTensor scaled = c.mul(c.grad(0), c.output(0));
  GradTensor shape = c.apply(op::ConcatV2, std::vector<GradTensor>{c.shape_of(c.output(0)), c.ints({1, 1}),
                                                                  c.constant(Tensor::scalar(int32_t{0}))})[0];
  return grads({c.mul(c.reshape(scaled, shape), a_adj_inv)});
}

/// MatrixSolve: rhs gets A⁻ᴴ·g; the matrix -(that)·xᴴ (adjoint: -x·(that)ᴴ).
std::vector<GradTensor> solve_grad(GradContext& c) {
  const bool adj = c.attrs().get_or<bool>("adjoint", false);
  GradTensor x = c.output(0);
  GradTensor grad_b = c.apply1(op::MatrixSolve, {c.input(0), c.grad(0)}, Attrs{{"adjoint", !adj}});
  GradTensor grad_a = adj ? c.neg(mm(c, x, grad_b, false, true)) : c.neg(mm(c, grad_b, x, false, true));
  return grads({grad_a, grad_b});
}

/// Cholesky (TF's _CholeskyGrad): with L⁻¹, φ(Lᴴ·g) (the lower triangle,
/// diagonal halved) sandwiched as L⁻ᴴ·φ·L⁻¹, symmetrized and halved.
std::vector<GradTensor> cholesky_grad(GradContext& c) {
  GradTensor l = c.output(0);
  GradTensor l_inv = inv(c, l);
  GradTensor middle = mm(c, l, c.grad(0), true, false);
  GradTensor half_diag = c.mul(c.scalar_like(middle, 0.5),
                               c.apply1(op::MatrixDiagPartV3, {middle, c.constant(Tensor::scalar(int32_t{0})),
                                                               c.scalar_like(middle, 0)},
                                        Attrs{{"align", std::string("RIGHT_LEFT")}}));
  middle = c.apply1(op::MatrixSetDiagV3, {middle, half_diag, c.constant(Tensor::scalar(int32_t{0}))},
                    Attrs{{"align", std::string("RIGHT_LEFT")}});
  middle = band(c, middle, -1, 0);
  GradTensor grad_a = mm(c, mm(c, l_inv, middle, true, false), l_inv);
  grad_a = c.add(grad_a, adjoint(c, grad_a));
  return grads({c.mul(grad_a, c.scalar_like(grad_a, 0.5))});
}

/// x·r⁻ᴴ (TF's _TriangularSolve in _QrGrad, r upper triangular).
GradTensor right_solve(GradContext& c, GradTensor x, GradTensor r) { return mm(c, x, inv(c, r), false, true); }

/// Qr for a square or deep input (TF's _QrGradSquareAndDeepMatrices).
GradTensor qr_grad_deep(GradContext& c, GradTensor q, GradTensor r, GradTensor dq, GradTensor dr) {
  GradTensor qdq = mm(c, q, dq, true, false);
  GradTensor qdq_ = c.sub(qdq, adjoint(c, qdq));
  GradTensor rdr = mm(c, r, dr, false, true);
  GradTensor rdr_ = c.sub(rdr, adjoint(c, rdr));
  GradTensor tril = band(c, c.add(qdq_, rdr_), -1, 0);
  GradTensor grad_a = mm(c, q, c.add(dr, right_solve(c, tril, r)));
  GradTensor grad_b = right_solve(c, c.sub(dq, mm(c, q, qdq)), r);
  return c.add(grad_a, grad_b);
}

/// Qr (TF's _QrGrad): a wide input [x, y] is reduced to the square case.
std::vector<GradTensor> qr_grad(GradContext& c) {
  GradTensor a = c.input(0), q = c.output(0), r = c.output(1), dq = c.grad(0), dr = c.grad(1);
  const Shape& qs = c.spec(q).shape;
  const Shape& rs = c.spec(r).shape;
  if (!rs.rank_known() || rs.dim(rs.rank() - 2) < 0 || rs.dim(rs.rank() - 1) < 0 || qs.dim(qs.rank() - 2) < 0) {
    throw UnimplementedError("QrGrad not implemented with dynamic shapes. Received r.shape: " + rs.str());
  }
  const int64_t rows = qs.dim(qs.rank() - 2), cols = rs.dim(rs.rank() - 1);
  if (rs.dim(rs.rank() - 2) > cols && qs.dim(qs.rank() - 1) == rows) {
    throw UnimplementedError("QrGrad not implemented when nrows > ncols and full_matrices is true. Received r.shape=" +
                             rs.str() + " with nrows=" + std::to_string(rows) + "and ncols=" + std::to_string(cols) + ".");
  }
  if (rows >= cols) return grads({qr_grad_deep(c, q, r, dq, dr)});
  // a = [x, y], r = [u, v]: the first `rows` columns are square.
  const int rank = rs.rank();
  auto columns = [&](GradTensor t, int64_t from, int64_t count) {
    std::vector<int64_t> begin(static_cast<size_t>(rank), 0), size(static_cast<size_t>(rank), -1);
    begin.back() = from;
    size.back() = count;
    return c.apply1(op::Slice, {t, c.ints(begin), c.ints(size)});
  };
  GradTensor y = columns(a, rows, -1);
  GradTensor u = columns(r, 0, rows);
  GradTensor dv = columns(dr, rows, -1);
  GradTensor du = columns(dr, 0, rows);
  GradTensor dy = mm(c, q, dv);
  GradTensor dx = qr_grad_deep(c, q, u, c.add(dq, mm(c, y, dv, false, true)), du);
  return grads({c.apply(op::ConcatV2, std::vector<GradTensor>{dx, dy, c.constant(Tensor::scalar(int32_t{-1}))})[0]});
}

}  // namespace

void register_matrix_factor_ops(OpRegistry& reg) {
  reg.op("MatrixInverse")
      .tf_signature("input: T -> output: T")
      .inputs(1)
      .infer(infer_square)
      .cpu([](const KernelSpec& s) {
        const bool adjoint = s.attrs.get_or<bool>("adjoint", false);
        return dispatch_float(s.inputs[0].dtype, [&]<class T>() -> Kernel {
          return [adjoint](KernelContext& k) {
            const Tensor& in = k.input(0);
            check_matrices(in.shape(), true);
            inverse<T>(in, k.allocate_output(0, in.dtype(), in.shape()), adjoint);
          };
        });
      })
      .cost(CostKind::Elementwise)
      .tpu_unsupported("no LU decomposition on the TPU")
      .grad(inverse_grad);
  reg.op("MatrixDeterminant")
      .tf_signature("input: T -> output: T")
      .inputs(1)
      .infer(infer_determinant)
      .cpu([](const KernelSpec& s) {
        return dispatch_float(s.inputs[0].dtype, [&]<class T>() -> Kernel {
          return [](KernelContext& k) {
            const Tensor& in = k.input(0);
            check_matrices(in.shape(), true);
            Shape out;
            for (int d = 0; d < in.rank() - 2; ++d) out.push_back(in.shape().dim(d));
            determinant<T>(in, k.allocate_output(0, in.dtype(), out));
          };
        });
      })
      .cost(CostKind::Elementwise)
      .tpu_unsupported("no LU decomposition on the TPU")
      .grad(determinant_grad);
  reg.op("MatrixSolve")
      .tf_signature("matrix: T, rhs: T -> output: T")
      .inputs(2)
      .infer(infer_solve)
      .cpu([](const KernelSpec& s) {
        const bool adjoint = s.attrs.get_or<bool>("adjoint", false);
        return dispatch_float(s.inputs[0].dtype, [&]<class T>() -> Kernel {
          return [adjoint](KernelContext& k) {
            const Tensor& m = k.input(0);
            const Tensor& rhs = k.input(1);
            TensorSpec specs[2] = {{m.dtype(), m.shape()}, {rhs.dtype(), rhs.shape()}};
            Attrs none;
            std::vector<const Tensor*> consts{nullptr, nullptr};
            (void)infer_solve(InferContext{"MatrixSolve", specs, none, consts});
            solve<T>(m, rhs, k.allocate_output(0, rhs.dtype(), rhs.shape()), adjoint);
          };
        });
      })
      .cost(CostKind::Elementwise)
      .tpu_unsupported("no LU decomposition on the TPU")
      .grad(solve_grad);
  reg.op("Cholesky")
      .tf_signature("input: T -> output: T")
      .inputs(1)
      .infer(infer_square)
      .cpu([](const KernelSpec& s) {
        return dispatch_float(s.inputs[0].dtype, [&]<class T>() -> Kernel {
          return [](KernelContext& k) {
            const Tensor& in = k.input(0);
            check_matrices(in.shape(), true);
            cholesky<T>(in, k.allocate_output(0, in.dtype(), in.shape()));
          };
        });
      })
      .cost(CostKind::Elementwise)
      .tpu_unsupported("no Cholesky decomposition on the TPU")
      .grad(cholesky_grad);
  reg.op("Qr")
      .tf_signature("input: T -> q: T, r: T")
      .inputs(1)
      .outputs(2)
      .infer(infer_qr)
      .cpu([](const KernelSpec& s) {
        const bool full = s.attrs.get_or<bool>("full_matrices", false);
        return dispatch_float(s.inputs[0].dtype, [&]<class T>() -> Kernel {
          return [full](KernelContext& k) {
            const Tensor& in = k.input(0);
            check_matrices(in.shape(), false);
            const int64_t m = in.shape().dim(in.rank() - 2), n = in.shape().dim(in.rank() - 1), p = std::min(m, n);
            Tensor& q = k.allocate_output(0, in.dtype(), with_matrix_dims(in.shape(), m, full ? m : p));
            Tensor& r = k.allocate_output(1, in.dtype(), with_matrix_dims(in.shape(), full ? m : p, n));
            qr<T>(in, q, r, full);
          };
        });
      })
      .cost(CostKind::Elementwise)
      .tpu_unsupported("no QR decomposition on the TPU")
      .grad(qr_grad);
}

}  // namespace ag
