// Linear algebra ops on the diagonals and bands of (batches of) matrices,
// TF's matrix_diag_op.cc and matrix_band_part_op.cc, part of the linalg
// family: MatrixDiagPartV3 (diagonals k = [lo, hi] of a matrix),
// MatrixDiagV3 (a matrix holding given diagonals), MatrixSetDiagV3 (a matrix
// with some diagonals replaced), MatrixBandPart (zeros outside a band).
//
// A band of diagonals is laid out as TF's V3 ops lay it: diagonal d = hi - j
// is row j, all rows max_len long; a shorter diagonal is padded on the left or
// the right as `align` says for superdiagonals ("RIGHT_LEFT": super right,
// sub left; the main diagonal counts as both).
#include <algorithm>
#include <string>
#include <vector>

#include "runtime/ops/grad_context.h"
#include "runtime/ops/kernels/array_common.h"
#include "runtime/ops/registry.h"

namespace ag {

void register_matrix_diag_ops(OpRegistry& reg);

namespace {

using array::one;

/// The diagonals [lo, hi] of rows × cols matrices.
struct DiagBand {
  int64_t rows = 0, cols = 0, lo = 0, hi = 0;
  bool left_super = false, left_sub = true;  // RIGHT_LEFT

  int64_t count() const { return hi - lo + 1; }
  int64_t len(int64_t d) const { return std::min(rows + std::min<int64_t>(0, d), cols - std::max<int64_t>(0, d)); }
  int64_t max_len() const { return std::min(rows + std::min<int64_t>(hi, 0), cols - std::max<int64_t>(lo, 0)); }
  /// Where diagonal d starts in its row of max_len.
  int64_t offset(int64_t d) const {
    const bool left = (d >= 0 && left_super) || (d <= 0 && left_sub);
    return left ? 0 : max_len() - len(d);
  }
  /// f(band position j·max_len + p, matrix position r·cols + c) for every
  /// element of the band that is on the matrix.
  template <class F>
  void for_each(F&& f) const {
    const int64_t m = max_len();
    for (int64_t j = 0; j < count(); ++j) {
      const int64_t d = hi - j, off = offset(d), n = len(d);
      for (int64_t t = 0; t < n; ++t) {
        const int64_t r = t + std::max<int64_t>(0, -d), c = t + std::max<int64_t>(0, d);
        f(j * m + off + t, r * cols + c);
      }
    }
  }
};

void set_align(DiagBand& b, const Attrs& attrs) {
  const std::string align = attrs.get_or<std::string>("align", "RIGHT_LEFT");
  if (align != "RIGHT_LEFT" && align != "LEFT_RIGHT" && align != "LEFT_LEFT" && align != "RIGHT_RIGHT") {
    throw InvalidArgumentError("Value for attr 'align' of \"" + align + "\" is not in the list of allowed values: "
                               "\"LEFT_RIGHT\", \"RIGHT_LEFT\", \"LEFT_LEFT\", \"RIGHT_RIGHT\"");
  }
  b.left_super = align.starts_with("LEFT");
  b.left_sub = align.ends_with("LEFT");
}

/// k: one diagonal or a [lo, hi] pair.
std::pair<int64_t, int64_t> diag_range(const Tensor& k) {
  if (k.rank() > 1) throw InvalidArgumentError("diag_index must be a scalar or vector, received shape: " + k.shape().debug_string());
  std::vector<int64_t> v = array::int_values(k);
  if (v.empty() || v.size() > 2) {
    throw InvalidArgumentError("diag_index must have only one or two elements, received " + std::to_string(v.size()) +
                               " elements.");
  }
  const int64_t lo = v[0], hi = v.size() == 2 ? v[1] : v[0];
  if (lo > hi) {
    throw InvalidArgumentError("lower_diag_index must not be larger than upper_diag_index: " + std::to_string(lo) +
                               " > " + std::to_string(hi));
  }
  return {lo, hi};
}

/// The diagonals' range checked against a matrix (MatrixDiagPartV3, MatrixSetDiagV3).
void check_range_on(const DiagBand& b) {
  for (auto [name, d] : {std::pair{"lower_diag_index", b.lo}, std::pair{"upper_diag_index", b.hi}}) {
    if (!((-b.rows < d && d < b.cols) || d == 0)) {
      throw InvalidArgumentError(std::string(name) + " is out of bound: " + std::to_string(d) + ". It must be between " +
                                 std::to_string(-b.rows) + " and " + std::to_string(b.cols));
    }
  }
}

/// The band's shape: batch + [max_len], or batch + [count, max_len].
Shape band_shape(const Shape& batch, const DiagBand& b) {
  Shape s = batch;
  if (b.count() > 1) s.push_back(b.count());
  s.push_back(b.max_len());
  return s;
}

Shape batch_of(const Shape& s, int tail) {
  Shape b;
  for (int d = 0; d < s.rank() - tail; ++d) b.push_back(s.dim(d));
  return b;
}

void check_matrix(const Shape& s) {
  if (s.rank_known() && s.rank() < 2) {
    throw InvalidArgumentError("input must be at least 2-dim, received shape: " + s.debug_string());
  }
}

template <class T>
T scalar_padding(const Tensor& p) {
  if (p.num_elements() != 1) throw InvalidArgumentError("padding_value must be a scalar, received shape: " + p.shape().debug_string());
  return p.data<T>()[0];
}

// ---- MatrixDiagPartV3(input, k, padding_value) -> diagonal

DiagBand part_band(const Shape& in, const Tensor& k, const Attrs& attrs) {
  DiagBand b;
  b.rows = in.dim(in.rank() - 2);
  b.cols = in.dim(in.rank() - 1);
  std::tie(b.lo, b.hi) = diag_range(k);
  set_align(b, attrs);
  check_range_on(b);
  return b;
}

std::vector<TensorSpec> infer_diag_part(const InferContext& c) {
  const Shape& in = c.inputs[0].shape;
  check_matrix(in);
  const Tensor* k = c.constant(1);
  if (!in.rank_known() || k == nullptr) return one(c.inputs[0].dtype, Shape::unknown_rank());
  if (in.dim(in.rank() - 1) >= 0 && in.dim(in.rank() - 2) >= 0) {
    return one(c.inputs[0].dtype, band_shape(batch_of(in, 2), part_band(in, *k, c.attrs)));
  }
  // The matrix dims unknown: the band's length is too.
  auto [lo, hi] = diag_range(*k);
  Shape out = batch_of(in, 2);
  if (lo < hi) out.push_back(hi - lo + 1);
  out.push_back(kUnknownDim);
  return one(c.inputs[0].dtype, out);
}

KernelFactory diag_part_kernel() {
  return [](const KernelSpec& s) {
    return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
      return Kernel([attrs = s.attrs](KernelContext& k) {
        const Tensor& in = k.input(0);
        check_matrix(in.shape());
        DiagBand b = part_band(in.shape(), k.input(1), attrs);
        const T pad = scalar_padding<T>(k.input(2));
        Tensor& out = k.allocate_output(0, dtype_of<T>(), band_shape(batch_of(in.shape(), 2), b));
        const int64_t per = b.count() * b.max_len(), mat = b.rows * b.cols;
        const int64_t batch = per > 0 ? out.num_elements() / per : 0;
        T* o = out.data<T>();
        std::fill_n(o, out.num_elements(), pad);
        const T* x = in.data<T>();
        for (int64_t i = 0; i < batch; ++i) {
          b.for_each([&](int64_t band, int64_t m) { o[i * per + band] = x[i * mat + m]; });
        }
      });
    });
  };
}

// ---- MatrixDiagV3(diagonal, k, num_rows, num_cols, padding_value) -> matrices

/// The output's [rows, cols] from the diagonal's length and k (TF's rule: an
/// unspecified (-1) count fits the diagonals; one of the two must be minimal).
DiagBand diag_band(const Shape& diag, int64_t lo, int64_t hi, int64_t num_rows, int64_t num_cols) {
  if (diag.rank() < 1) throw InvalidArgumentError("diagonal must be at least 1-dim, received shape: " + diag.debug_string());
  if (lo < hi && (diag.rank() < 2 || diag.dim(diag.rank() - 2) != hi - lo + 1)) {
    throw InvalidArgumentError("The number of diagonals provided in the input does not match the lower_diag_index and "
                               "upper_diag_index range.");
  }
  const int64_t max_len = diag.dim(diag.rank() - 1);
  const int64_t min_rows = max_len - std::min<int64_t>(hi, 0);
  const int64_t min_cols = max_len + std::max<int64_t>(lo, 0);
  if (num_rows == -1 && num_cols == -1) {
    num_rows = num_cols = std::max(min_rows, min_cols);
  } else if (num_rows == -1) {
    num_rows = min_rows;
  } else if (num_cols == -1) {
    num_cols = min_cols;
  }
  if (num_rows < min_rows || num_cols < min_cols || (num_rows != min_rows && num_cols != min_cols)) {
    throw InvalidArgumentError("The number of rows or columns is not consistent with the specified d_lower, d_upper, "
                               "and diagonal.");
  }
  DiagBand b;
  b.rows = num_rows;
  b.cols = num_cols;
  b.lo = lo;
  b.hi = hi;
  return b;
}

int64_t scalar_count(const Tensor& t, const char* what) {
  if (t.rank() != 0) throw InvalidArgumentError(std::string(what) + " must be a scalar, received shape: " + t.shape().debug_string());
  return array::int_at(t, 0);
}

std::vector<TensorSpec> infer_diag(const InferContext& c) {
  const Shape& diag = c.inputs[0].shape;
  const Tensor *k = c.constant(1), *rows = c.constant(2), *cols = c.constant(3);
  if (!diag.rank_known() || k == nullptr) return one(c.inputs[0].dtype, Shape::unknown_rank());
  auto [lo, hi] = diag_range(*k);
  Shape out = batch_of(diag, lo < hi ? 2 : 1);
  if (diag.fully_defined() && rows != nullptr && cols != nullptr) {
    DiagBand b = diag_band(diag, lo, hi, scalar_count(*rows, "num_rows"), scalar_count(*cols, "num_cols"));
    out.push_back(b.rows);
    out.push_back(b.cols);
  } else {
    // The diagonal's length or the counts unknown: a given count still is.
    const int64_t r = rows != nullptr ? scalar_count(*rows, "num_rows") : -1;
    const int64_t n = cols != nullptr ? scalar_count(*cols, "num_cols") : -1;
    out.push_back(r >= 0 ? r : kUnknownDim);
    out.push_back(n >= 0 ? n : kUnknownDim);
  }
  return one(c.inputs[0].dtype, out);
}

KernelFactory diag_kernel() {
  return [](const KernelSpec& s) {
    return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
      return Kernel([attrs = s.attrs](KernelContext& k) {
        const Tensor& diag = k.input(0);
        auto [lo, hi] = diag_range(k.input(1));
        DiagBand b = diag_band(diag.shape(), lo, hi, scalar_count(k.input(2), "num_rows"),
                               scalar_count(k.input(3), "num_cols"));
        set_align(b, attrs);
        const T pad = scalar_padding<T>(k.input(4));
        Shape os = batch_of(diag.shape(), lo < hi ? 2 : 1);
        os.push_back(b.rows);
        os.push_back(b.cols);
        Tensor& out = k.allocate_output(0, dtype_of<T>(), os);
        const int64_t per = b.count() * b.max_len(), mat = b.rows * b.cols;
        const int64_t batch = mat > 0 ? out.num_elements() / mat : 0;
        T* o = out.data<T>();
        std::fill_n(o, out.num_elements(), pad);
        const T* x = diag.data<T>();
        for (int64_t i = 0; i < batch; ++i) {
          b.for_each([&](int64_t band, int64_t m) { o[i * mat + m] = x[i * per + band]; });
        }
      });
    });
  };
}

// ---- MatrixSetDiagV3(input, diagonal, k) -> input with the band replaced

std::vector<TensorSpec> infer_set_diag(const InferContext& c) {
  check_matrix(c.inputs[0].shape);
  if (c.inputs[1].dtype != c.inputs[0].dtype) {
    throw InvalidArgumentError(std::string("Inconsistent values for attr 'T' ") + dtype_tf_string(c.inputs[0].dtype) +
                               " vs. " + dtype_tf_string(c.inputs[1].dtype) + " while building NodeDef 'MatrixSetDiagV3'");
  }
  return {c.inputs[0]};
}

KernelFactory set_diag_kernel() {
  return [](const KernelSpec& s) {
    return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
      return Kernel([attrs = s.attrs](KernelContext& k) {
        const Tensor& in = k.input(0);
        const Tensor& diag = k.input(1);
        check_matrix(in.shape());
        DiagBand b = part_band(in.shape(), k.input(2), attrs);
        Shape expected = band_shape(batch_of(in.shape(), 2), b);
        if (!(expected == diag.shape())) {
          throw InvalidArgumentError("Either first dimensions of diagonal don't match input.shape[:-2], or "
                                     "diagonal.shape[:-1] is not equal to the longests diagonal in range "
                                     "[lower_diag_index:upper_diag_index].\nInput shape: " + in.shape().debug_string() +
                                     "\nDiagonal shape: " + diag.shape().debug_string() +
                                     "\nExpected diagonal shape: " + expected.debug_string());
        }
        Tensor& out = k.allocate_output(0, dtype_of<T>(), in.shape());
        std::copy_n(in.data<T>(), in.num_elements(), out.data<T>());
        const int64_t per = b.count() * b.max_len(), mat = b.rows * b.cols;
        const int64_t batch = mat > 0 ? out.num_elements() / mat : 0;
        T* o = out.data<T>();
        const T* x = diag.data<T>();
        for (int64_t i = 0; i < batch; ++i) {
          b.for_each([&](int64_t band, int64_t m) { o[i * mat + m] = x[i * per + band]; });
        }
      });
    });
  };
}

// ---- MatrixBandPart(input, num_lower, num_upper): zeros outside the band
// (a negative count keeps that whole triangle).

std::vector<TensorSpec> infer_band_part(const InferContext& c) {
  check_matrix(c.inputs[0].shape);
  array::check_index_dtype(c.inputs[1].dtype, "Tindex");
  for (size_t i : {size_t{1}, size_t{2}}) {
    const Shape& s = c.inputs[i].shape;
    if (s.rank_known() && s.rank() != 0) throw InvalidArgumentError("Shape must be rank 0 but is rank " + std::to_string(s.rank()));
  }
  return {c.inputs[0]};
}

KernelFactory band_part_kernel() {
  return [](const KernelSpec& s) {
    return dispatch_dtype(s.inputs[0].dtype, [&]<class T>() {
      return Kernel([](KernelContext& k) {
        const Tensor& in = k.input(0);
        check_matrix(in.shape());
        const int64_t rows = in.shape().dim(in.rank() - 2), cols = in.shape().dim(in.rank() - 1);
        const int64_t lower = scalar_count(k.input(1), "num_lower"), upper = scalar_count(k.input(2), "num_upper");
        if (lower > rows) {
          throw InvalidArgumentError("num_lower must be negative or less or equal to number of rows (" +
                                     std::to_string(rows) + ") got: " + std::to_string(lower));
        }
        if (upper > cols) {
          throw InvalidArgumentError("num_upper must be negative or less or equal to number of columns (" +
                                     std::to_string(cols) + ") got: " + std::to_string(upper));
        }
        Tensor& out = k.allocate_output(0, dtype_of<T>(), in.shape());
        const int64_t mat = rows * cols, batch = mat > 0 ? in.num_elements() / mat : 0;
        const T* x = in.data<T>();
        T* o = out.data<T>();
        for (int64_t i = 0; i < batch; ++i) {
          for (int64_t r = 0; r < rows; ++r) {
            for (int64_t c = 0; c < cols; ++c) {
              const bool keep = (lower < 0 || r - c <= lower) && (upper < 0 || c - r <= upper);
              o[i * mat + r * cols + c] = keep ? x[i * mat + r * cols + c] : T{};
            }
          }
        }
      });
    });
  };
}

// ---- gradients (TF's array_grad.py)

Attrs align_of(GradContext& c) { return Attrs{{"align", c.attrs().get_or<std::string>("align", "RIGHT_LEFT")}}; }

GradTensor zero_padding(GradContext& c) { return c.scalar_like(c.grad(0), 0); }

/// MatrixDiagPartV3: g laid back on its diagonals of a zero matrix.
std::vector<GradTensor> diag_part_grad(GradContext& c) {
  GradTensor x = c.input(0), k = c.input(1);
  const Shape& xs = c.spec(x).shape;
  GradTensor back;
  if (xs.rank_known() && xs.dim(xs.rank() - 2) >= 0 && xs.dim(xs.rank() - 1) >= 0) {
    GradTensor rows = c.constant(Tensor::scalar(static_cast<int32_t>(xs.dim(xs.rank() - 2))));
    GradTensor cols = c.constant(Tensor::scalar(static_cast<int32_t>(xs.dim(xs.rank() - 1))));
    back = c.apply1(op::MatrixDiagV3, {c.grad(0), k, rows, cols, zero_padding(c)}, align_of(c));
  } else {
    back = c.apply1(op::MatrixSetDiagV3, {c.zeros_like(x), c.grad(0), k}, align_of(c));
  }
  return grads({back, GradTensor{}, GradTensor{}});
}

/// MatrixDiagV3: g's diagonals.
std::vector<GradTensor> diag_grad(GradContext& c) {
  GradTensor part = c.apply1(op::MatrixDiagPartV3, {c.grad(0), c.input(1), zero_padding(c)}, align_of(c));
  return grads({part, GradTensor{}, GradTensor{}, GradTensor{}, GradTensor{}});
}

/// MatrixSetDiagV3: g off the band for the input, g's band for the diagonal.
std::vector<GradTensor> set_diag_grad(GradContext& c) {
  GradTensor g = c.grad(0), k = c.input(2);
  GradTensor input = c.apply1(op::MatrixSetDiagV3, {g, c.zeros_like(c.input(1)), k}, align_of(c));
  GradTensor diag = c.apply1(op::MatrixDiagPartV3, {g, k, zero_padding(c)}, align_of(c));
  return grads({input, diag, GradTensor{}});
}

std::vector<GradTensor> band_part_grad(GradContext& c) {
  return grads({c.apply1(op::MatrixBandPart, {c.grad(0), c.input(1), c.input(2)}), GradTensor{}, GradTensor{}});
}

}  // namespace

void register_matrix_diag_ops(OpRegistry& reg) {
  reg.op("MatrixDiagPartV3").tf_signature("input: T, k: int32, padding_value: T -> diagonal: T").inputs(3).infer(infer_diag_part).cpu(diag_part_kernel()).cost(CostKind::DataMovement).tpu()
      .grad(diag_part_grad);
  reg.op("MatrixDiagV3").tf_signature("diagonal: T, k: int32, num_rows: int32, num_cols: int32, padding_value: T -> output: T").inputs(5).infer(infer_diag).cpu(diag_kernel()).cost(CostKind::DataMovement).tpu()
      .grad(diag_grad);
  reg.op("MatrixSetDiagV3").tf_signature("input: T, diagonal: T, k: int32 -> output: T").inputs(3).infer(infer_set_diag).cpu(set_diag_kernel()).cost(CostKind::DataMovement).tpu()
      .grad(set_diag_grad);
  reg.op("MatrixBandPart").tf_signature("input: T, num_lower: Tindex, num_upper: Tindex -> band: T").inputs(3).infer(infer_band_part).cpu(band_part_kernel()).cost(CostKind::DataMovement).tpu()
      .grad(band_part_grad);
}

}  // namespace ag
