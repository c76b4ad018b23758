// Shared pieces of the array ops: reading int32/int64 index inputs, axis
// canonicalization, TF-worded type errors, and copy_nd, the one strided copy
// that Transpose, ReverseV2, StridedSlice, Concat, Split, Pad and friends reduce to.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/core/tensor.h"
#include "runtime/ops/op_def.h"

namespace ag {

class OpRegistry;

// The array family is split by concept; register_array_ops() calls each.
void register_shape_ops(OpRegistry& reg);   // shape_ops.cpp: Reshape, ExpandDims, Squeeze, Transpose, ReverseV2
void register_concat_ops(OpRegistry& reg);  // concat_ops.cpp: ConcatV2, Pack, Unpack, Split, SplitV
void register_pad_ops(OpRegistry& reg);     // pad_ops.cpp: Tile, Pad, PadV2
void register_gather_ops(OpRegistry& reg);  // gather_ops.cpp: GatherV2, GatherNd, OneHot, UnsortedSegmentSum, ScatterNd
void register_slice_ops(OpRegistry& reg);   // slice_ops.cpp: StridedSlice, StridedSliceGrad, Slice

namespace array {

/// TF's op-def type error: "Value for attr 'Tidx' of float is not in the list
/// of allowed values: int32, int64".
[[noreturn]] inline void bad_attr_type(const char* attr, DType got, const char* allowed) {
  throw InvalidArgumentError(std::string("Value for attr '") + attr + "' of " + dtype_tf_string(got) +
                             " is not in the list of allowed values: " + allowed);
}

/// Checks that an index input (perm, axis, shape, ...) is int32 or int64.
inline void check_index_dtype(DType t, const char* attr = "Tidx") {
  if (t != DType::Int32 && t != DType::Int64) bad_attr_type(attr, t, "int32, int64");
}

/// The elements of an int32 or int64 tensor, widened to int64.
inline std::vector<int64_t> int_values(const Tensor& t) {
  std::vector<int64_t> v(static_cast<size_t>(t.num_elements()));
  if (t.dtype() == DType::Int32) {
    const int32_t* p = t.data<int32_t>();
    for (size_t i = 0; i < v.size(); ++i) v[i] = p[i];
  } else if (t.dtype() == DType::Int64) {
    const int64_t* p = t.data<int64_t>();
    for (size_t i = 0; i < v.size(); ++i) v[i] = p[i];
  } else {
    bad_attr_type("Tidx", t.dtype(), "int32, int64");
  }
  return v;
}

/// Element `i` of an int32 or int64 tensor.
inline int64_t int_at(const Tensor& t, int64_t i) {
  return t.dtype() == DType::Int32 ? static_cast<int64_t>(t.data<int32_t>()[i]) : t.data<int64_t>()[i];
}

/// The one element of `t`, which must be a scalar: "<what> must be a scalar, not shape [2]".
/// Kernels call it too: in a graph an input's shape may be known only at run time.
template <class T>
const T& scalar_of(const Tensor& t, const char* what) {
  if (t.rank() != 0) {
    throw InvalidArgumentError(std::string(what) + " must be a scalar, not shape " + t.shape().debug_string());
  }
  return t.scalar_value<T>();
}

/// Row-major strides (in elements) of a fully defined shape.
inline std::vector<int64_t> strides_of(const Shape& s) {
  std::vector<int64_t> st(static_cast<size_t>(s.rank()));
  int64_t acc = 1;
  for (int i = s.rank() - 1; i >= 0; --i) {
    st[static_cast<size_t>(i)] = acc;
    acc *= s.dim(i);
  }
  return st;
}

/// Product of dims [from, to) of a fully defined shape (overflow already
/// excluded: the shape's num_elements() was checked when it was made).
inline int64_t dims_product(const Shape& s, int from, int to) {
  int64_t n = 1;
  for (int i = from; i < to; ++i) n *= s.dim(i);
  return n;
}

/// Input `i` of a shape rule read as a shape (TF's MakeShapeFromShapeTensor):
/// a constant's values (a negative one an unknown dim), else the partial
/// shape the graph being built knows (InferContext::partial_shapes), else
/// nullopt.
inline std::optional<Shape> shape_input(const InferContext& c, size_t i) {
  if (i < 64) c.requested_shapes |= uint64_t{1} << i;
  if (i < c.constants.size() && c.constants[i] != nullptr) {
    std::vector<int64_t> dims = int_values(*c.constants[i]);
    for (int64_t& d : dims) d = d < 0 ? kUnknownDim : d;
    return Shape{std::span<const int64_t>(dims)};
  }
  if (c.partial_shapes != nullptr) return (*c.partial_shapes)(i);
  return std::nullopt;
}

/// A shape from dims, checking that each is >= 0 ("Dimension -1 must be >= 0")
/// and that the element count fits int64.
inline Shape checked_shape(const std::vector<int64_t>& dims) {
  for (int64_t d : dims) {
    if (d < 0) throw InvalidArgumentError("Dimension " + std::to_string(d) + " must be >= 0");
  }
  Shape s{std::span<const int64_t>(dims)};
  (void)s.num_elements();
  return s;
}

/// dst[dst_off + sum(i_k * dst_st[k])] = src[src_off + sum(i_k * src_st[k])]
/// for every index i of `shape` (fully defined). Strides may be negative (ReverseV2,
/// StridedSlice with negative steps). Nothing is read when `shape` has no elements.
template <class T>
void copy_nd(const Shape& shape, const T* src, int64_t src_off, const int64_t* src_st, T* dst, int64_t dst_off,
             const int64_t* dst_st) {
  const int r = shape.rank();
  for (int i = 0; i < r; ++i) {
    if (shape.dim(i) == 0) return;
  }
  if (r == 0) {
    dst[dst_off] = src[src_off];
    return;
  }
  const int64_t n = shape.dim(r - 1);
  const int64_t ss = src_st[r - 1], ds = dst_st[r - 1];
  int64_t idx[kMaxRank] = {};
  int64_t s = src_off, d = dst_off;
  for (;;) {
    if (ss == 1 && ds == 1) {
      std::copy_n(src + s, n, dst + d);
    } else {
      for (int64_t j = 0; j < n; ++j) dst[d + j * ds] = src[s + j * ss];
    }
    // Advance the outer index like an odometer.
    int k = r - 2;
    for (; k >= 0; --k) {
      s += src_st[k];
      d += dst_st[k];
      if (++idx[k] < shape.dim(k)) break;
      s -= src_st[k] * shape.dim(k);
      d -= dst_st[k] * shape.dim(k);
      idx[k] = 0;
    }
    if (k < 0) return;
  }
}

/// "[2,3]" for error texts, from a list of ints.
inline std::string int_list_string(const std::vector<int64_t>& v, const char* sep = ",") {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0) s += sep;
    s += std::to_string(v[i]);
  }
  return s;
}

/// Canonical axis in [0, rank) from one in [-rank, rank); false when out of range.
inline bool canonical_axis(int64_t axis, int64_t rank, int64_t& out) {
  if (axis < -rank || axis >= rank) return false;
  out = axis < 0 ? axis + rank : axis;
  return true;
}

/// One output spec.
inline std::vector<TensorSpec> one(DType dt, Shape s) { return std::vector<TensorSpec>{{dt, std::move(s)}}; }

}  // namespace array
}  // namespace ag
