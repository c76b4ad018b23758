// NumPy indexing on ndarrays: integers, slices, `...`, None (np.newaxis),
// and one advanced index (an integer list or array, or a boolean mask).
// Reading and item assignment share one plan: the flat source offsets of
// the selected elements, in the result's row-major order.
#include <algorithm>
#include <limits>

#include "runtime/value/ndarray.h"

namespace ag::ndarray {
namespace {

/// A run of output dims and, for each of its positions (row-major), the
/// offset it adds to the source element: one dim for an int-free basic
/// index, the index array's dims for an advanced index.
struct Group {
  std::vector<int64_t> dims;
  std::vector<int64_t> offsets;
};

struct Plan {
  Shape shape;                // the result's shape
  int64_t base = 0;           // offset of the integer indices
  std::vector<Group> groups;  // in output order
  bool scalar_result = false;

  /// Every selected element's source offset, in the result's order.
  std::vector<int64_t> offsets() const {
    std::vector<int64_t> out{base};
    for (const Group& g : groups) {
      std::vector<int64_t> next;
      next.reserve(out.size() * g.offsets.size());
      for (int64_t o : out) {
        for (int64_t d : g.offsets) next.push_back(o + d);
      }
      out = std::move(next);
    }
    return out;
  }
};

[[noreturn]] void invalid_index() {
  throw IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean "
                   "arrays are valid indices");
}

int64_t normalize(int64_t i, int64_t n, int axis) {
  if (i < -n || i >= n) {
    throw IndexError("index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(axis) +
                     " with size " + std::to_string(n));
  }
  return i < 0 ? i + n : i;
}

int64_t slice_bound(const Value& v) {
  if (v.is_index()) return v.as_int();
  throw TypeError("slice indices must be integers or None or have an __index__ method");
}

/// Python's slice.indices(n): the positions a slice selects.
std::vector<int64_t> slice_positions(const SliceSpec& s, int64_t n) {
  int64_t step = s.step.is_none() ? 1 : slice_bound(s.step);
  if (step == 0) throw ValueError("slice step cannot be zero");
  int64_t lower = step < 0 ? -1 : 0, upper = step < 0 ? n - 1 : n;
  auto clamp = [&](const Value& part, int64_t dflt) {
    if (part.is_none()) return dflt;
    int64_t i = slice_bound(part);
    if (i < 0) return std::max(i + n, lower);
    return std::min(i, upper);
  };
  int64_t start = clamp(s.start, step < 0 ? upper : lower);
  int64_t stop = clamp(s.stop, step < 0 ? lower : upper);
  std::vector<int64_t> out;
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) out.push_back(i);
  return out;
}

/// An index part that is an integer (Python's or NumPy's; a bool is a mask).
bool integer_index(const Value& v) { return v.is_index() && !v.is_bool(); }

/// An index part that is an array index: a list or tuple, an ndarray or an
/// eager tensor of integers or bools (their array, or nullopt).
std::optional<Tensor> array_index(const Value& v) {
  bool candidate = v.is_list() || v.is_tuple() || v.is_tensor() || v.is_variable() || (v.is_ndarray() && !is_scalar(v));
  if (!candidate) return std::nullopt;
  Tensor t = to_array(v);
  if (t.dtype() == DType::Float64 && t.num_elements() == 0) return cast(t, DType::Int64);  // a[[]]
  if (!is_integer(t.dtype()) && t.dtype() != DType::Bool) invalid_index();
  return t;
}

int consumed_dims(const IndexPart& p) {
  if (std::holds_alternative<SliceSpec>(p)) return 1;
  const Value& v = std::get<Value>(p);
  if (v.is_none() || v.is_ellipsis()) return 0;
  if (std::optional<Tensor> a = array_index(v)) return a->dtype() == DType::Bool ? std::max(a->rank(), 1) : 1;
  return 1;
}

Plan make_plan(const Shape& shape, const std::vector<IndexPart>& parts_in) {
  int rank = shape.rank();
  std::vector<int64_t> strides(static_cast<size_t>(rank), 1);
  for (int i = rank - 2; i >= 0; --i) strides[static_cast<size_t>(i)] = strides[static_cast<size_t>(i) + 1] * shape.dim(i + 1);

  // Expand `...` (at most one) to the dims the other parts leave.
  int used = 0, ellipses = 0;
  for (const IndexPart& p : parts_in) {
    used += consumed_dims(p);
    if (const Value* v = std::get_if<Value>(&p); v && v->is_ellipsis()) ++ellipses;
  }
  if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (used > rank) {
    throw IndexError("too many indices for array: array is " + std::to_string(rank) + "-dimensional, but " +
                     std::to_string(used) + " were indexed");
  }
  std::vector<IndexPart> parts;
  for (const IndexPart& p : parts_in) {
    if (const Value* v = std::get_if<Value>(&p); v && v->is_ellipsis()) {
      for (int i = 0; i < rank - used; ++i) parts.emplace_back(SliceSpec{});
    } else {
      parts.push_back(p);
    }
  }
  for (int i = used; ellipses == 0 && i < rank; ++i) parts.emplace_back(SliceSpec{});

  Plan plan;
  int axis = 0;
  bool advanced_seen = false;
  for (const IndexPart& p : parts) {
    if (const SliceSpec* s = std::get_if<SliceSpec>(&p)) {
      Group g;
      for (int64_t i : slice_positions(*s, shape.dim(axis))) g.offsets.push_back(i * strides[static_cast<size_t>(axis)]);
      g.dims = {static_cast<int64_t>(g.offsets.size())};
      plan.groups.push_back(std::move(g));
      ++axis;
      continue;
    }
    const Value& v = std::get<Value>(p);
    if (v.is_none()) {
      plan.groups.push_back(Group{{1}, {0}});
      continue;
    }
    if (integer_index(v)) {
      plan.base += normalize(v.as_int(), shape.dim(axis), axis) * strides[static_cast<size_t>(axis)];
      ++axis;
      continue;
    }
    if (v.is_bool()) throw NotImplementedError("boolean scalar indices are not supported by agc");
    std::optional<Tensor> a = array_index(v);
    if (!a) invalid_index();
    if (advanced_seen) {
      throw NotImplementedError("indexing with more than one array (NumPy's combined advanced indexing) is not "
                                "supported by agc; index with one array at a time");
    }
    advanced_seen = true;
    Group g;
    if (a->dtype() == DType::Bool) {
      // A mask over the next dims: the positions where it is true, as one dim.
      int k = std::max(a->rank(), 1);
      for (int i = 0; i < a->rank(); ++i) {
        if (a->shape().dim(i) != shape.dim(axis + i)) {
          throw IndexError("boolean index did not match indexed array along dimension " + std::to_string(axis + i) +
                           "; dimension is " + std::to_string(shape.dim(axis + i)) +
                           " but corresponding boolean dimension is " + std::to_string(a->shape().dim(i)));
        }
      }
      const bool* m = a->data<bool>();
      for (int64_t flat = 0; flat < a->num_elements(); ++flat) {
        if (!m[flat]) continue;
        int64_t off = 0, rest = flat;
        for (int i = a->rank() - 1; i >= 0; --i) {
          int64_t d = a->shape().dim(i);
          off += (rest % d) * strides[static_cast<size_t>(axis + i)];
          rest /= d;
        }
        g.offsets.push_back(off);
      }
      g.dims = {static_cast<int64_t>(g.offsets.size())};
      axis += k;
    } else {
      Tensor idx = cast(*a, DType::Int64);
      const int64_t* d = idx.data<int64_t>();
      for (int64_t i = 0; i < idx.num_elements(); ++i) {
        g.offsets.push_back(normalize(d[i], shape.dim(axis), axis) * strides[static_cast<size_t>(axis)]);
      }
      g.dims.assign(idx.shape().dims().begin(), idx.shape().dims().end());
      ++axis;
    }
    plan.groups.push_back(std::move(g));
  }
  for (const Group& g : plan.groups) {
    for (int64_t d : g.dims) {
      if (plan.shape.rank() >= kMaxRank) throw IndexError("agc's arrays have at most 8 dimensions");
      plan.shape.push_back(d);
    }
  }
  plan.scalar_result = plan.shape.rank() == 0 && ellipses == 0;
  return plan;
}

}  // namespace

Value getitem(const Value& v, const std::vector<IndexPart>& parts) {
  if (is_scalar(v)) throw IndexError("invalid index to scalar variable.");
  const Tensor& t = tensor(v);
  Plan plan = make_plan(t.shape(), parts);
  std::vector<int64_t> offsets = plan.offsets();
  Tensor out(t.dtype(), plan.shape);
  dispatch_dtype(t.dtype(), [&]<class T>() {
    const T* src = t.data<T>();
    T* dst = out.data<T>();
    for (size_t i = 0; i < offsets.size(); ++i) dst[i] = src[offsets[i]];
  });
  return plan.scalar_result ? scalar(std::move(out)) : array(std::move(out));
}

void setitem(const Value& v, const std::vector<IndexPart>& parts, const Value& x) {
  if (is_scalar(v)) throw TypeError("'" + type_name(v) + "' object does not support item assignment");
  Tensor& t = v.as_ndarray().data;
  Plan plan = make_plan(t.shape(), parts);
  std::vector<int64_t> offsets = plan.offsets();
  Tensor value = to_array(x, t.dtype());
  // NumPy broadcasts the value to the selection's shape.
  const Shape& to = plan.shape;
  const Shape& from = value.shape();
  bool ok = from.rank() <= to.rank();
  std::vector<int64_t> vstrides(static_cast<size_t>(to.rank()), 0);
  int64_t stride = 1;
  for (int i = from.rank() - 1; ok && i >= 0; --i) {
    int j = to.rank() - from.rank() + i;
    if (from.dim(i) == to.dim(j)) {
      vstrides[static_cast<size_t>(j)] = from.dim(i) == 1 ? 0 : stride;
    } else if (from.dim(i) != 1) {
      ok = false;
    }
    stride *= from.dim(i);
  }
  if (!ok) {
    throw ValueError("could not broadcast input array from shape " + from.str() + " into shape " + to.str());
  }
  if (!t.owns_storage_uniquely()) t = t.clone();  // the tensor .numpy() read keeps its value
  dispatch_dtype(t.dtype(), [&]<class T>() {
    const T* src = value.data<T>();
    T* dst = t.data<T>();
    std::vector<int64_t> pos(static_cast<size_t>(to.rank()), 0);
    for (size_t i = 0; i < offsets.size(); ++i) {
      int64_t vo = 0;
      for (size_t k = 0; k < pos.size(); ++k) vo += pos[k] * vstrides[k];
      dst[offsets[i]] = src[vo];
      for (int k = to.rank() - 1; k >= 0; --k) {
        if (++pos[static_cast<size_t>(k)] < to.dim(k)) break;
        pos[static_cast<size_t>(k)] = 0;
      }
    }
  });
}

}  // namespace ag::ndarray
