#include "runtime/value/ndarray_shape.h"

#include <algorithm>

#include "runtime/value/ndarray.h"
#include "runtime/value/ndarray_reduce.h"
#include "runtime/value/numpy_dtype.h"

namespace ag::ndarray {
namespace {

std::vector<int64_t> strides_of(const Shape& s) {
  std::vector<int64_t> st(static_cast<size_t>(s.rank()), 1);
  for (int i = s.rank() - 2; i >= 0; --i) st[static_cast<size_t>(i)] = st[static_cast<size_t>(i) + 1] * s.dim(i + 1);
  return st;
}

/// out[i] = in[offset(i)] with per-output-dim strides into `in` (a strided copy).
Tensor gather_strided(const Tensor& in, const Shape& out_shape, const std::vector<int64_t>& in_strides) {
  Tensor out(in.dtype(), out_shape);
  dispatch_dtype(in.dtype(), [&]<class T>() {
    const T* src = in.data<T>();
    T* dst = out.data<T>();
    std::vector<int64_t> pos(static_cast<size_t>(out_shape.rank()), 0);
    int64_t off = 0;
    for (int64_t i = 0; i < out.num_elements(); ++i) {
      dst[i] = src[off];
      for (int k = out_shape.rank() - 1; k >= 0; --k) {
        auto ku = static_cast<size_t>(k);
        off += in_strides[ku];
        if (++pos[ku] < out_shape.dim(k)) break;
        off -= in_strides[ku] * out_shape.dim(k);
        pos[ku] = 0;
      }
    }
  });
  return out;
}

std::string shape_text(const std::vector<int64_t>& dims) {
  std::string s = "(";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ",";
    s += dims[i] < 0 ? "newaxis" : std::to_string(dims[i]);
  }
  return s + (dims.size() == 1 ? ",)" : ")");
}

int checked_axis(int64_t axis, int rank) {
  if (axis < -rank || axis >= rank) {
    throw ValueError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " + std::to_string(rank));
  }
  return static_cast<int>(axis < 0 ? axis + rank : axis);
}

}  // namespace

std::vector<int64_t> shape_argument(const Value& v) {
  std::vector<int64_t> dims;
  if (v.is_int() || (v.is_ndarray() && is_scalar(v))) {
    dims.push_back(v.as_int());
    return dims;
  }
  if (v.is_list() || v.is_tuple()) {
    for (const Value& d : v.items()) dims.push_back(d.as_int());
    return dims;
  }
  if (v.is_ndarray()) {
    for (const Value& d : ndarray::iterate(v)) dims.push_back(d.as_int());
    return dims;
  }
  throw TypeError("'" + v.type_name() + "' object cannot be interpreted as an integer");
}

Tensor reshape(const Tensor& a, std::vector<int64_t> dims) {
  int unknown = -1;
  int64_t known = 1;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) {
      if (dims[i] != -1) throw ValueError("negative dimensions not allowed");
      if (unknown >= 0) throw ValueError("can only specify one unknown dimension");
      unknown = static_cast<int>(i);
    } else {
      known *= dims[i];
    }
  }
  int64_t n = a.num_elements();
  bool ok = unknown >= 0 ? (known != 0 && n % known == 0) : known == n;
  if (!ok) {
    throw ValueError("cannot reshape array of size " + std::to_string(n) + " into shape " + shape_text(dims));
  }
  if (unknown >= 0) dims[static_cast<size_t>(unknown)] = n / known;
  if (dims.size() > static_cast<size_t>(kMaxRank)) throw ValueError("agc's arrays have at most 8 dimensions");
  return a.reshaped(Shape(std::span<const int64_t>(dims)));
}

Tensor transpose(const Tensor& a, const Value& axes_arg) {
  int r = a.rank();
  std::vector<int> perm;
  if (axes_arg.is_none()) {
    for (int i = r - 1; i >= 0; --i) perm.push_back(i);
  } else {
    std::vector<int64_t> given = shape_argument(axes_arg);
    if (static_cast<int>(given.size()) != r) throw ValueError("axes don't match array");
    for (int64_t g : given) {
      int ax = checked_axis(g, r);
      if (std::find(perm.begin(), perm.end(), ax) != perm.end()) throw ValueError("repeated axis in transpose");
      perm.push_back(ax);
    }
  }
  std::vector<int64_t> st = strides_of(a.shape()), out_st;
  Shape out;
  for (int p : perm) {
    out.push_back(a.shape().dim(p));
    out_st.push_back(st[static_cast<size_t>(p)]);
  }
  return gather_strided(a, out, out_st);
}

Tensor squeeze(const Tensor& a, const Value& axis) {
  std::vector<int> axes;
  if (axis.is_none()) {
    for (int i = 0; i < a.rank(); ++i) {
      if (a.shape().dim(i) == 1) axes.push_back(i);
    }
  } else {
    axes = axes_argument(axis, a.rank());
    for (int ax : axes) {
      if (a.shape().dim(ax) != 1) throw ValueError("cannot select an axis to squeeze out which has size not equal to one");
    }
  }
  Shape out;
  for (int i = 0; i < a.rank(); ++i) {
    if (std::find(axes.begin(), axes.end(), i) == axes.end()) out.push_back(a.shape().dim(i));
  }
  return a.reshaped(out);
}

Tensor expand_dims(const Tensor& a, const Value& axis) {
  std::vector<int64_t> given = shape_argument(axis);
  int r = a.rank() + static_cast<int>(given.size());
  if (r > kMaxRank) throw ValueError("agc's arrays have at most 8 dimensions");
  std::vector<bool> is_new(static_cast<size_t>(r), false);
  for (int64_t g : given) {
    int ax = checked_axis(g, r);
    if (is_new[static_cast<size_t>(ax)]) throw ValueError("repeated axis");
    is_new[static_cast<size_t>(ax)] = true;
  }
  Shape out;
  int k = 0;
  for (int i = 0; i < r; ++i) out.push_back(is_new[static_cast<size_t>(i)] ? 1 : a.shape().dim(k++));
  return a.reshaped(out);
}

Tensor concatenate(const std::vector<Tensor>& arrays_in, const Value& axis_arg) {
  if (arrays_in.empty()) throw ValueError("need at least one array to concatenate");
  std::vector<Tensor> arrays = arrays_in;
  if (axis_arg.is_none()) {
    for (Tensor& t : arrays) t = t.reshaped(Shape{t.num_elements()});
  }
  int r = arrays[0].rank();
  if (r == 0) throw ValueError("zero-dimensional arrays cannot be concatenated");
  int axis = checked_axis(axis_arg.is_none() ? 0 : axis_arg.as_int(), r);
  DType dt = arrays[0].dtype();
  Shape out = arrays[0].shape();
  int64_t total = 0;
  for (size_t k = 0; k < arrays.size(); ++k) {
    const Tensor& t = arrays[k];
    if (t.rank() != r) {
      throw ValueError("all the input arrays must have same number of dimensions, but the array at index 0 has " +
                       std::to_string(r) + " dimension(s) and the array at index " + std::to_string(k) + " has " +
                       std::to_string(t.rank()) + " dimension(s)");
    }
    for (int i = 0; i < r; ++i) {
      if (i != axis && t.shape().dim(i) != out.dim(i)) {
        throw ValueError("all the input array dimensions except for the concatenation axis must match exactly, but "
                         "along dimension " + std::to_string(i) + ", the array at index 0 has size " +
                         std::to_string(out.dim(i)) + " and the array at index " + std::to_string(k) + " has size " +
                         std::to_string(t.shape().dim(i)));
      }
    }
    total += t.shape().dim(axis);
    if (k > 0 && t.dtype() != dt) dt = numpy::promote_types(dt, t.dtype());
  }
  out.set_dim(axis, total);
  Tensor result(dt, out);
  int64_t outer = 1;
  for (int i = 0; i < axis; ++i) outer *= out.dim(i);
  int64_t row = out.num_elements() / std::max<int64_t>(outer, 1);
  int64_t written = 0;
  dispatch_dtype(dt, [&]<class T>() {
    T* dst = result.data<T>();
    for (const Tensor& t_in : arrays) {
      Tensor t = cast(t_in, dt);
      int64_t piece = outer == 0 ? 0 : t.num_elements() / outer;
      const T* src = t.data<T>();
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < piece; ++i) dst[o * row + written + i] = src[o * piece + i];
      }
      written += piece;
    }
  });
  return result;
}

Tensor stack(const std::vector<Tensor>& arrays, int64_t axis) {
  if (arrays.empty()) throw ValueError("need at least one array to stack");
  for (const Tensor& t : arrays) {
    if (t.shape() != arrays[0].shape()) throw ValueError("all input arrays must have the same shape");
  }
  int r = arrays[0].rank() + 1;
  int ax = checked_axis(axis, r);
  std::vector<Tensor> expanded;
  for (const Tensor& t : arrays) expanded.push_back(expand_dims(t, Value(static_cast<int64_t>(ax))));
  return concatenate(expanded, Value(static_cast<int64_t>(ax)));
}

}  // namespace ag::ndarray
