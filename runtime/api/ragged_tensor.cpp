#include "runtime/api/ragged_tensor.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/api/binding.h"
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/core/tensor_format.h"
#include "runtime/value/composite_tensor.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/object_model.h"
#include "runtime/value/tensor_shape_value.h"

namespace ag {
namespace {

Shape ragged_static_shape(const RaggedParts& p);

/// A RaggedTensor's state: TF's composite of flat values and row splits.
struct RaggedState : CompositeState {
  explicit RaggedState(RaggedParts p) : parts(std::move(p)) {}
  std::vector<const TensorHandle*> components() const override {
    std::vector<const TensorHandle*> out{&parts.flat_values};
    for (const TensorHandle& s : parts.splits) out.push_back(&s);
    return out;
  }
  /// RaggedTensorSpec.from_value: the static shape, the values' dtype, the
  /// ragged rank and the row splits' dtype.
  Value type_spec() const override {
    return make_ragged_spec(ragged_static_shape(parts), parts.flat_values.dtype(),
                            static_cast<int>(parts.splits.size()), parts.splits[0].dtype());
  }
  RaggedParts parts;
};

const RaggedParts& self_parts(const std::vector<Value>& args, const char* method) {
  if (!args.empty()) {
    if (const RaggedParts* p = ragged_parts(args[0])) return *p;
  }
  throw TypeError(std::string("descriptor '") + method + "' requires a 'RaggedTensor' object");
}

/// rt.values: the flat values below the outermost partition.
Value ragged_values(const RaggedParts& p) {
  if (p.splits.size() == 1) return Value(p.flat_values);
  return make_ragged({p.flat_values, std::vector<TensorHandle>(p.splits.begin() + 1, p.splits.end())});
}

bool all_eager(const RaggedParts& p) {
  if (p.flat_values.symbolic()) return false;
  for (const TensorHandle& s : p.splits) {
    if (s.symbolic()) return false;
  }
  return true;
}

std::vector<int64_t> splits_of(const Tensor& t) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    out.push_back(t.dtype() == DType::Int64 ? t.data<int64_t>()[i] : t.data<int32_t>()[i]);
  }
  return out;
}

// ---- .numpy() as NumPy builds it, and printed as TF's _formatter prints it.

/// A NumPy array of leaves (the elements' str()) or of arrays (object dtype).
struct NpArray {
  std::vector<int64_t> shape;
  std::vector<std::string> leaves;      // when !object
  std::vector<NpArray> items;           // when object
  bool object = false;

  int64_t size() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    return n;
  }
};

NpArray dense_np_array(const Tensor& t) {
  NpArray a;
  for (int64_t d : t.shape().dims()) a.shape.push_back(d);
  dispatch_dtype(t.dtype(), [&]<class T>() {
    const T* x = t.data<T>();
    for (int64_t i = 0; i < t.num_elements(); ++i) a.leaves.push_back(numpy_repr(Tensor::scalar<T>(x[i])));
  });
  return a;
}

/// a[b:e] along axis 0.
NpArray np_slice_rows(const NpArray& a, int64_t b, int64_t e) {
  NpArray r;
  r.object = a.object;
  r.shape = a.shape;
  r.shape[0] = e - b;
  int64_t inner = 1;
  for (size_t d = 1; d < a.shape.size(); ++d) inner *= a.shape[d];
  if (a.object) {
    r.items.assign(a.items.begin() + b * inner, a.items.begin() + e * inner);
  } else {
    r.leaves.assign(a.leaves.begin() + b * inner, a.leaves.begin() + e * inner);
  }
  return r;
}

/// RaggedTensor.numpy(): rows of the values' array; ragged rows make a 1-D
/// object array, rows of one length a stacked array.
NpArray ragged_np(const RaggedParts& p, size_t level) {
  NpArray values = level + 1 == p.splits.size() ? dense_np_array(p.flat_values.value()) : ragged_np(p, level + 1);
  std::vector<int64_t> splits = splits_of(p.splits[level].value());
  std::vector<NpArray> rows;
  for (size_t i = 0; i + 1 < splits.size(); ++i) rows.push_back(np_slice_rows(values, splits[i], splits[i + 1]));
  NpArray out;
  if (rows.empty()) {
    out.shape = {0, 0};
    for (size_t d = 1; d < values.shape.size(); ++d) out.shape.push_back(values.shape[d]);
    out.object = values.object;
    return out;
  }
  bool ragged = false;
  for (const NpArray& r : rows) ragged = ragged || r.shape[0] != rows[0].shape[0];
  if (ragged) {
    out.object = true;
    out.shape = {static_cast<int64_t>(rows.size())};
    out.items = std::move(rows);
    return out;
  }
  out.object = values.object;
  out.shape = {static_cast<int64_t>(rows.size())};
  for (int64_t d : rows[0].shape) out.shape.push_back(d);
  for (NpArray& r : rows) {
    if (out.object) {
      for (NpArray& it : r.items) out.items.push_back(std::move(it));
    } else {
      for (std::string& l : r.leaves) out.leaves.push_back(std::move(l));
    }
  }
  return out;
}

std::string tf_formatter(const NpArray& a);

/// repr(a.tolist()) for an empty array: nested empty lists.
std::string empty_list_repr(const std::vector<int64_t>& shape, size_t d) {
  if (d == shape.size() || shape[d] == 0) return "[]";
  std::string out = "[";
  for (int64_t i = 0; i < shape[d]; ++i) out += (i ? ", " : "") + empty_list_repr(shape, d + 1);
  return out + "]";
}

/// NumPy's _extendLine_pretty (numpy/core/arrayprint.py, not legacy mode).
void np_extend_line(std::string& s, std::string& line, const std::string& word, size_t width, const std::string& indent) {
  std::vector<std::string> words;
  size_t start = 0;
  for (;;) {
    size_t nl = word.find('\n', start);
    words.push_back(word.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  auto rstrip = [](std::string t) {
    while (!t.empty() && t.back() == ' ') t.pop_back();
    return t;
  };
  if (words.size() == 1) {
    bool wrap = line.size() + word.size() > width && line.size() > indent.size();
    if (wrap) {
      s += rstrip(line) + "\n";
      line = indent;
    }
    line += word;
    return;
  }
  size_t longest = 0;
  for (const std::string& w : words) longest = std::max(longest, w.size());
  std::string hang;
  if (line.size() + longest > width && line.size() > indent.size()) {
    s += rstrip(line) + "\n";
    line = indent + words[0];
    hang = indent;
  } else {
    hang = std::string(line.size(), ' ');
    line += words[0];
  }
  for (size_t i = 1; i < words.size(); ++i) {
    s += rstrip(line) + "\n";
    line = hang + words[i];
  }
  line += std::string(longest - words.back().size(), ' ');
}

/// NumPy's _formatArray with separator ", ", line width 75, every element
/// formatted by TF's _formatter (no summarization: agc prints every row).
std::string np_format_array(const NpArray& a, std::vector<int64_t>& index, const std::string& hanging, size_t width) {
  size_t axis = index.size();
  if (axis == a.shape.size()) {
    int64_t flat = 0;
    for (size_t d = 0; d < a.shape.size(); ++d) flat = flat * a.shape[d] + index[d];
    return a.object ? tf_formatter(a.items[static_cast<size_t>(flat)]) : a.leaves[static_cast<size_t>(flat)];
  }
  std::string next_hanging = hanging + " ";
  size_t next_width = width - 1;
  int64_t n = a.shape[axis];
  size_t left = a.shape.size() - axis;
  std::string s;
  if (left == 1) {
    size_t elem_width = width - 1;
    std::string line = hanging;
    for (int64_t i = 0; i < n; ++i) {
      index.push_back(i);
      std::string word = np_format_array(a, index, next_hanging, next_width);
      index.pop_back();
      np_extend_line(s, line, word, i + 1 < n ? elem_width : width - 1, hanging);
      if (i + 1 < n) line += ", ";
    }
    s += line;
  } else {
    std::string line_sep = "," + std::string(left - 1, '\n');
    for (int64_t i = 0; i < n; ++i) {
      index.push_back(i);
      std::string nested = np_format_array(a, index, next_hanging, next_width);
      index.pop_back();
      s += hanging + nested + (i + 1 < n ? line_sep : "");
    }
  }
  return "[" + s.substr(hanging.size()) + "]";
}

/// TF's ragged_tensor._formatter: array2string(x, separator=", ") for a
/// non-empty array, repr(x.tolist()) for an empty one.
std::string tf_formatter(const NpArray& a) {
  if (a.size() == 0) return empty_list_repr(a.shape, 0);
  std::vector<int64_t> index;
  return np_format_array(a, index, " ", 75);
}

std::string ragged_repr(const RaggedParts& p) {
  if (all_eager(p)) return "<tf.RaggedTensor " + tf_formatter(ragged_np(p, 0)) + ">";
  Value row_splits(p.splits[0]);
  return "tf.RaggedTensor(values=" + str(ragged_values(p)) + ", row_splits=" + str(row_splits) + ")";
}

Value ragged_to_list(const RaggedParts& p) {
  if (!all_eager(p)) throw ValueError("RaggedTensor.to_list() is only supported in eager mode.");
  std::vector<int64_t> splits = splits_of(p.splits[0].value());
  Value values = p.splits.size() == 1 ? ndarray::tolist(p.flat_values.value())
                                      : ragged_to_list(*ragged_parts(ragged_values(p)));
  std::vector<Value> rows;
  for (size_t i = 0; i + 1 < splits.size(); ++i) {
    rows.push_back(getslice(values, SliceSpec{Value(splits[i]), Value(splits[i + 1]), Value()}));
  }
  return Value::list(std::move(rows));
}

Shape ragged_static_shape(const RaggedParts& p) {
  Shape s;
  const Shape& s0 = p.splits[0].shape();
  s.push_back(s0.rank_known() && s0.rank() == 1 && s0.dim(0) >= 0 ? s0.dim(0) - 1 : -1);
  for (size_t i = 0; i < p.splits.size(); ++i) s.push_back(-1);
  const Shape& vs = p.flat_values.shape();
  if (!vs.rank_known()) return Shape::unknown_rank();
  for (int d = 1; d < vs.rank(); ++d) s.push_back(vs.dim(d));
  return s;
}

}  // namespace

Value ragged_row_lengths(const RaggedParts& p) {
  tf::common::NameScope scope("RaggedRowLengths");
  Value splits(p.splits[0]);
  return getslice(splits, SliceSpec{Value(1), Value(), Value()}) - getslice(splits, SliceSpec{Value(), Value(-1), Value()});
}

Value ragged_row_ids(const Value& lengths) {
  Value n = tf::api::size({lengths}, {{"out_type", dtype_value(DType::Int64)}});
  return tf::api::repeat({tf::api::range({n}, {{"dtype", dtype_value(DType::Int64)}}), lengths}, {});
}

namespace {

/// rt.nrows(): shape(row_splits)[0] - 1 (TF's scope "RaggedNRows").
Value ragged_nrows(const RaggedParts& p) {
  tf::common::NameScope scope("RaggedNRows");
  Value n = getitem(tf::shape(Value(p.splits[0]), DType::Int64), Value(0));
  return n - Value(1);
}

/// rt[start:stop] over rows (step 1): TF's _slice_ragged_row_dimension.
Value slice_rows_of(const RaggedParts& p, const Value& start, const Value& stop, const Value& step) {
  if (!step.is_none() && !(step.is_int() && step.as_int() == 1)) {
    throw NotImplementedError("agc slices a RaggedTensor's rows with step 1 only");
  }
  if (start.is_none() && stop.is_none()) return make_ragged(p);
  tf::common::NameScope scope("RaggedGetItem");
  Value splits(p.splits[0]);
  SliceSpec key{start, stop, Value()};
  Value starts = getslice(getslice(splits, SliceSpec{Value(), Value(-1), Value()}), key);
  Value limits = getslice(getslice(splits, SliceSpec{Value(1), Value(), Value()}), key);
  Value zero_pad(TensorHandle(Tensor::from_vector<int64_t>(Shape{1}, {0})));
  Value new_splits = tf::concat(Value::list({getslice(zero_pad, SliceSpec{tf::size(starts, DType::Int32), Value(), Value()}),
                                             getslice(starts, SliceSpec{Value(), Value(1), Value()}), limits}),
                                Value(0));
  Value first = getitem(new_splits, Value(0));
  Value last = getitem(new_splits, Value(-1));
  Value values = ragged_values(p);
  Value sliced = getslice(values, SliceSpec{first, last, Value()});
  return ragged_from_row_splits(sliced, new_splits - first);
}

/// rt[i]: row i (TF's _ragged_getitem for an int key).
Value row_of(const RaggedParts& p, const Value& key) {
  tf::common::NameScope scope("RaggedGetItem");
  Value splits(p.splits[0]);
  Value starts = getslice(splits, SliceSpec{Value(), Value(-1), Value()});
  Value limits = getslice(splits, SliceSpec{Value(1), Value(), Value()});
  return getslice(ragged_values(p), SliceSpec{getitem(starts, key), getitem(limits, key), Value()});
}

/// rt[k0, k1]: TF's _ragged_getitem. An int first key picks a row and
/// indexes it with the rest; a slice first key slices the rows, then indexes
/// in each row: an int gives each row's k1-th value (a tensor; TF's
/// InvalidArgumentError when a row is too short), a slice (step 1) each
/// row's values (a RaggedTensor).
Value index_rows(const RaggedParts& p, const std::vector<Value>& keys) {
  if (keys.empty()) return make_ragged(p);
  const Value& first = keys[0];
  std::vector<Value> rest(keys.begin() + 1, keys.end());
  if (first.is_index() || first.is_tensor()) {
    Value row = row_of(p, first);
    if (rest.empty()) return row;
    return rest.size() == 1 ? getitem(row, rest[0]) : getitem(row, Value::tuple(rest));
  }
  std::optional<SliceSpec> rows_key = as_slice(first);
  if (!rows_key || rest.size() != 1 || p.splits.size() != 1) {
    throw NotImplementedError("agc indexes a RaggedTensor of ragged rank 1 by an int or a slice, then one more key");
  }
  const RaggedParts rows = *ragged_parts(slice_rows_of(p, rows_key->start, rows_key->stop, rows_key->step));
  tf::common::NameScope scope("RaggedGetItem");
  Value splits(rows.splits[0]);
  Value starts = getslice(splits, SliceSpec{Value(), Value(-1), Value()});
  Value limits = getslice(splits, SliceSpec{Value(1), Value(), Value()});
  Value lengths = limits - starts;
  const Value& inner = rest[0];
  Value values(rows.flat_values);
  if (inner.is_index()) {
    const int64_t i = inner.as_int();
    // Eagerly TF's error for a short row; traced, the gather's.
    Value ok = tf::api::reduce_all({i >= 0 ? Value(i) < lengths : Value(-i) <= lengths}, {});
    if (!ok.as_tensor().symbolic() && !truthy(ok)) {
      throw InvalidArgumentError("slice index " + std::to_string(i) + " of dimension 1 out of bounds.");
    }
    return tf::api::gather({values, i >= 0 ? starts + Value(i) : limits + Value(i)}, {});
  }
  std::optional<SliceSpec> inner_key = as_slice(inner);
  if (!inner_key || !(inner_key->step.is_none() || (inner_key->step.is_int() && inner_key->step.as_int() == 1))) {
    throw NotImplementedError("agc indexes inside a RaggedTensor's rows by an int or a slice with step 1");
  }
  // Each row's [a:b], clamped to the row as Python clamps a slice.
  auto bound = [&](const Value& k, const Value& dflt) {
    if (k.is_none()) return dflt;
    if (!k.is_index()) throw TypeError("slice indices must be integers or None");
    const int64_t b = k.as_int();
    Value at = b >= 0 ? Value(b) + tf::api::zeros_like({lengths}, {}) : lengths + Value(b);
    return tf::api::minimum({tf::api::maximum({at, Value(int64_t{0})}, {}), lengths}, {});
  };
  Value lo = bound(inner_key->start, tf::api::zeros_like({lengths}, {}));
  Value hi = tf::api::maximum({bound(inner_key->stop, lengths), lo}, {});
  Value new_lengths = hi - lo;
  Value out = ragged_from_row_lengths(values, new_lengths);  // for its row ids and splits
  const RaggedParts& o = *ragged_parts(out);
  Value out_splits(o.splits[0]);
  Value rowids = ragged_row_ids(new_lengths);
  Value total = getitem(out_splits, Value(-1));
  Value index = tf::api::gather({starts + lo, rowids}, {}) + tf::api::range({total}, {{"dtype", dtype_value(DType::Int64)}}) -
                tf::api::gather({out_splits, rowids}, {});
  return ragged_from_row_splits(tf::api::gather({values, index}, {}), out_splits);
}

Value ragged_to_dense(const RaggedParts& p, const Value& default_value) {
  tf::common::NameScope scope("RaggedToTensor");
  DType t = p.flat_values.dtype();
  std::vector<TensorHandle> in;
  in.push_back(TensorHandle(Tensor::scalar<int64_t>(-1)));
  in.push_back(p.flat_values);
  in.push_back(default_value.is_none() ? to_tensor(Value(t == DType::String ? Value("") : Value(0)), t)
                                       : to_tensor(default_value, t));
  std::vector<std::string> types;
  for (const TensorHandle& s : p.splits) {
    in.push_back(s);
    types.push_back("ROW_SPLITS");
  }
  return Value(apply_op1(op::RaggedTensorToTensor, in, Attrs{{"num_row_partition_tensors", static_cast<int64_t>(types.size())}, {"row_partition_types", types}},
                         "RaggedTensorToTensor"));
}

template <class F>
std::pair<std::string, Value> rt_method(const char* name, std::vector<Param> params, F fn) {
  params.insert(params.begin(), Param{"self"});
  return native_method(std::string("RaggedTensor.") + name, name, std::move(params),
                       [name, fn](const std::vector<Value>& a) { return fn(self_parts(a, name), a); });
}

template <class F>
std::pair<std::string, Value> rt_property(const char* name, F fn) {
  return {name, make_property(Value::callable(name, [name, fn](std::vector<Value> args, Kwargs) -> Value {
            return fn(self_parts(args, name));
          }))};
}

/// A class method (tf.RaggedTensor.from_row_splits): called on the class,
/// without self.
template <class F>
std::pair<std::string, Value> rt_class_method(const char* name, std::vector<Param> params, F fn) {
  return native_method(std::string("RaggedTensor.") + name, name, std::move(params), fn);
}

/// TF's ragged_binary_elementwise_op for `self op other` (reflected: `other
/// op self`): two RaggedTensors of one ragged structure, or a RaggedTensor
/// and a value of lower rank than its flat values (a scalar), apply `op` to
/// the flat values and keep the row splits.
Value ragged_binary(const RaggedParts& p, const Value& other, bool reflected, Value (*op)(const Value&, const Value&)) {
  Value mine(p.flat_values);
  Value theirs;
  if (const RaggedParts* q = ragged_parts(other)) {
    if (q->splits.size() != p.splits.size()) {
      throw InvalidArgumentError("Inputs must have identical ragged splits");
    }
    for (size_t i = 0; i < p.splits.size(); ++i) {
      const TensorHandle& a = p.splits[i];
      const TensorHandle& b = q->splits[i];
      if (!a.symbolic() && !b.symbolic() && splits_of(a.value()) != splits_of(b.value())) {
        throw InvalidArgumentError("Inputs must have identical ragged splits");
      }
    }
    theirs = Value(q->flat_values);
  } else {
    TensorHandle t = other.is_tensor() ? other.as_tensor() : to_tensor(other, p.flat_values.dtype());
    const Shape& fs = p.flat_values.shape();
    if (!(t.shape().rank_known() && fs.rank_known() && t.shape().rank() < fs.rank())) {
      throw UnimplementedError("agc's RaggedTensor operators broadcast only values of lower rank than the flat values");
    }
    theirs = Value(t);
  }
  Value out = reflected ? op(theirs, mine) : op(mine, theirs);
  return make_ragged(RaggedParts{out.as_tensor(), p.splits});
}

Value make_the_class() {
  std::vector<std::pair<std::string, Value>> attrs;
  using Args = const std::vector<Value>&;
  using P = const RaggedParts&;
  attrs.push_back(rt_method("__repr__", {}, [](P p, Args) { return Value(ragged_repr(p)); }));
  attrs.push_back(rt_method("__str__", {}, [](P p, Args) { return Value(ragged_repr(p)); }));
  attrs.push_back(rt_method("to_list", {}, [](P p, Args) { return ragged_to_list(p); }));
  // Python's arithmetic operators, TF's ragged elementwise dispatch.
  using BinaryFn = Value (*)(const Value&, const Value&);
  struct Operator {
    const char* method;
    const char* reflected;
    BinaryFn fn;
  };
  static const Operator kOperators[] = {
      {"__add__", "__radd__", [](const Value& a, const Value& b) { return a + b; }},
      {"__sub__", "__rsub__", [](const Value& a, const Value& b) { return a - b; }},
      {"__mul__", "__rmul__", [](const Value& a, const Value& b) { return a * b; }},
      {"__truediv__", "__rtruediv__", [](const Value& a, const Value& b) { return a / b; }},
      {"__floordiv__", "__rfloordiv__", [](const Value& a, const Value& b) { return floordiv(a, b); }},
      {"__mod__", "__rmod__", [](const Value& a, const Value& b) { return a % b; }},
      {"__pow__", "__rpow__", [](const Value& a, const Value& b) { return pow(a, b); }},
  };
  for (const Operator& o : kOperators) {
    BinaryFn fn = o.fn;
    attrs.push_back(rt_method(o.method, {{"other"}}, [fn](P p, Args a) { return ragged_binary(p, a[1], false, fn); }));
    attrs.push_back(rt_method(o.reflected, {{"other"}}, [fn](P p, Args a) { return ragged_binary(p, a[1], true, fn); }));
  }
  attrs.push_back(rt_method("__neg__", {}, [](P p, Args) { return make_ragged(RaggedParts{(-Value(p.flat_values)).as_tensor(), p.splits}); }));
  attrs.push_back(rt_method("numpy", {}, [](P p, Args) -> Value {
    if (!all_eager(p)) throw ValueError("RaggedTensor.numpy() is only supported in eager mode.");
    return ragged_to_list(p);  // agc has no object arrays: the rows as lists
  }));
  attrs.push_back(rt_method("to_tensor", {{"default_value", Value()}, {"name", Value()}, {"shape", Value()}},
                         [](P p, Args a) -> Value {
                           if (!a[3].is_none()) throw NotImplementedError("agc's RaggedTensor.to_tensor takes no shape");
                           return ragged_to_dense(p, a[1]);
                         }));
  attrs.push_back(rt_method("row_lengths", {{"axis", Value(1)}, {"name", Value()}}, [](P p, Args a) -> Value {
    if (!(a[1].is_int() && a[1].as_int() == 1)) throw NotImplementedError("agc's RaggedTensor.row_lengths takes axis=1 only");
    return ragged_row_lengths(p);
  }));
  attrs.push_back(rt_method("nrows", {{"out_type", Value()}, {"name", Value()}}, [](P p, Args) { return ragged_nrows(p); }));
  attrs.push_back(rt_method("__getitem__", {{"key"}}, [](P p, Args a) -> Value {
    const Value& key = a[1];
    if (key.is_index() || key.is_tensor()) return row_of(p, key);
    if (key.is_tuple()) return index_rows(p, key.items());
    throw TypeError("Ragged __getitem__ expects a ragged_tensor, int, slice, or tuple; got " + key.type_name());
  }));
  attrs.push_back(rt_method("bounding_shape", {{"axis", Value()}, {"name", Value()}, {"out_type", Value()}},
                            [](P p, Args a) -> Value {
    // [nrows, the longest row, the values' inner dims] (ragged rank 1).
    if (p.splits.size() != 1) throw NotImplementedError("agc's bounding_shape takes ragged rank 1 only");
    tf::common::NameScope scope("RaggedBoundingBox");
    Value lengths = ragged_row_lengths(p);
    Value longest = tf::api::maximum({tf::api::reduce_max({lengths}, {}), Value(int64_t{0})}, {});
    Value inner = getslice(tf::shape(Value(p.flat_values), DType::Int64), SliceSpec{Value(1), Value(), Value()});
    Value box = tf::concat(Value::list({tf::api::stack({Value::list({ragged_nrows(p), longest})}, {}), inner}), Value(0));
    return a[1].is_none() ? box : getitem(box, a[1]);
  }));
  attrs.push_back(rt_method("value_rowids", {{"name", Value()}},
                            [](P p, Args) { return ragged_row_ids(ragged_row_lengths(p)); }));
  attrs.push_back(rt_method("merge_dims", {{"outer_axis"}, {"inner_axis"}}, [](P p, Args a) -> Value {
    // The rows merged into one: the values (axes 0 and 1 of ragged rank 1).
    const Shape s = ragged_static_shape(p);
    int64_t outer = ag::api::int_arg(a[1], "outer_axis"), inner = ag::api::int_arg(a[2], "inner_axis");
    if (s.rank_known() && inner < 0) inner += s.rank();
    if (s.rank_known() && outer < 0) outer += s.rank();
    if (outer == inner) return make_ragged(p);
    if (outer != 0 || inner != 1) throw NotImplementedError("agc's merge_dims merges axes 0 and 1 only");
    return ragged_values(p);
  }));
  attrs.push_back(rt_method("with_values", {{"new_values"}}, [](P p, Args a) -> Value {
    return ragged_from_row_splits(a[1], Value(p.splits[0]));
  }));
  attrs.push_back(rt_method("with_flat_values", {{"new_values"}}, [](P p, Args a) -> Value {
    return make_ragged(RaggedParts{to_tensor(a[1]), p.splits});
  }));
  attrs.push_back(rt_method("__getslice__", {{"start"}, {"stop"}, {"step"}},
                         [](P p, Args a) { return slice_rows_of(p, a[1], a[2], a[3]); }));
  attrs.push_back(rt_property("values", [](P p) { return ragged_values(p); }));
  attrs.push_back(rt_property("flat_values", [](P p) { return Value(p.flat_values); }));
  attrs.push_back(rt_property("row_splits", [](P p) { return Value(p.splits[0]); }));
  attrs.push_back(rt_property("nested_row_splits", [](P p) {
    std::vector<Value> out;
    for (const TensorHandle& s : p.splits) out.emplace_back(s);
    return Value::tuple(std::move(out));
  }));
  attrs.push_back(rt_property("shape", [](P p) { return tensor_shape(ragged_static_shape(p)); }));
  attrs.push_back(rt_property("dtype", [](P p) { return dtype_value(p.flat_values.dtype()); }));
  attrs.push_back(rt_property("ragged_rank", [](P p) { return Value(static_cast<int64_t>(p.splits.size())); }));
  attrs.push_back(rt_property("ndim", [](P p) -> Value {
    Shape s = ragged_static_shape(p);
    return s.rank_known() ? Value(static_cast<int64_t>(s.rank())) : Value();
  }));
  attrs.push_back(rt_class_method("from_row_splits", {{"values"}, {"row_splits"}, {"name", Value()}, {"validate", Value(true)}},
                               [](Args a) { return ragged_from_row_splits(a[0], a[1]); }));
  attrs.push_back(rt_class_method("from_row_lengths", {{"values"}, {"row_lengths"}, {"name", Value()}, {"validate", Value(true)}},
                               [](Args a) { return ragged_from_row_lengths(a[0], a[1]); }));
  attrs.push_back(rt_class_method("from_value_rowids",
                               {{"values"}, {"value_rowids"}, {"nrows", Value()}, {"name", Value()}, {"validate", Value(true)}},
                               [](Args a) { return ragged_from_value_rowids(a[0], a[1], a[2]); }));
  return make_class("RaggedTensor", {}, std::move(attrs));
}

/// The values argument of a factory: a RaggedTensor's parts, or a tensor.
RaggedParts nest_values(const Value& values, TensorHandle splits) {
  if (const RaggedParts* inner = ragged_parts(values)) {
    RaggedParts p = *inner;
    p.splits.insert(p.splits.begin(), std::move(splits));
    return p;
  }
  TensorHandle v = to_tensor(values);
  if (v.shape().rank_known() && v.shape().rank() == 0) {
    throw ValueError("values must have rank at least 1");
  }
  return RaggedParts{v, {std::move(splits)}};
}

TensorHandle splits_vector(const Value& v) {
  TensorHandle t = to_tensor(v);
  if (t.dtype() != DType::Int64) t = tf::cast(Value(t), DType::Int64).as_tensor();
  return t;
}

}  // namespace

const Value& ragged_tensor_class() {
  static const Value* cls = new Value(make_the_class());  // never destroyed: no exit-order issues
  return *cls;
}

Value make_ragged(RaggedParts parts) {
  auto st = std::make_shared<RaggedState>(std::move(parts));
  return native_object(ragged_tensor_class(), std::move(st));
}

const RaggedParts* ragged_parts(const Value& v) {
  if (const RaggedState* st = native_state<RaggedState>(v)) return &st->parts;
  return nullptr;
}

Value ragged_from_row_splits(const Value& values, const Value& row_splits) {
  return make_ragged(nest_values(values, splits_vector(row_splits)));
}

Value ragged_from_row_lengths(const Value& values, const Value& row_lengths) {
  tf::common::NameScope scope("RaggedFromRowLengths");
  Value lengths(splits_vector(row_lengths));
  Value zero(TensorHandle(Tensor::from_vector<int64_t>(Shape{1}, {0})));
  Value splits = tf::concat(Value::list({zero, tf::cumsum(lengths)}), Value(0));
  return ragged_from_row_splits(values, splits);
}

Value ragged_from_value_rowids(const Value& values, const Value& value_rowids, const Value& nrows) {
  tf::common::NameScope scope("RaggedFromValueRowIds");
  Value ids(splits_vector(value_rowids));
  Value n = nrows.is_none() ? tf::reduce_max(ids) + Value(1) : Value(to_tensor(nrows, DType::Int64));
  // segment_ids_to_row_splits: the count per row, then its running sum after a 0.
  Value counts(tf::common::apply(op::UnsortedSegmentSum, {tf::ones_like(ids).as_tensor(), ids.as_tensor(), n.as_tensor()},
                                 "UnsortedSegmentSum"));
  Value zero(TensorHandle(Tensor::from_vector<int64_t>(Shape{1}, {0})));
  Value splits = tf::concat(Value::list({zero, tf::cumsum(counts)}), Value(0));
  return ragged_from_row_splits(values, splits);
}

namespace {

/// tf.ragged.constant's scan: every scalar must sit at one depth; empty
/// lists fit any depth.
void scan_depth(const Value& v, int depth, int& scalar_depth, int& max_depth) {
  if (v.is_list() || v.is_tuple()) {
    max_depth = std::max(max_depth, depth + 1);
    for (const Value& item : v.items()) scan_depth(item, depth + 1, scalar_depth, max_depth);
    return;
  }
  if (scalar_depth < 0) scalar_depth = depth;
  if (scalar_depth != depth) throw ValueError("all scalar values must have the same nesting depth");
}

int list_depth(const Value& v) {
  int scalar_depth = -1, max_depth = 0;
  scan_depth(v, 0, scalar_depth, max_depth);
  return scalar_depth >= 0 ? scalar_depth : max_depth;
}

}  // namespace

Value ragged_constant(const Value& pylist, const Value& dtype, const Value& ragged_rank) {
  if (!pylist.is_list() && !pylist.is_tuple()) {
    return Value(to_tensor(pylist, dtype.is_none() ? std::nullopt : std::optional<DType>(require_dtype(dtype))));
  }
  int depth = list_depth(pylist);
  int rr = ragged_rank.is_none() ? depth - 1 : static_cast<int>(ragged_rank.as_int());
  if (rr == 0) {
    return Value(to_tensor(pylist, dtype.is_none() ? std::nullopt : std::optional<DType>(require_dtype(dtype))));
  }
  if (rr < 0 || rr >= depth) {
    throw ValueError("Invalid pylist=" + repr(pylist) + ": incompatible with ragged_rank=" + std::to_string(rr));
  }
  // Each level's rows end where their items end in the level below.
  std::vector<std::vector<int64_t>> splits(static_cast<size_t>(rr), std::vector<int64_t>{0});
  std::vector<Value> leaves;
  // Level 0's rows are its items; record row ends for each level below.
  std::function<void(const Value&, int)> rows = [&](const Value& v, int level) {
    for (const Value& item : v.items()) {
      if (level + 1 == rr) {
        for (const Value& leaf : item.items()) leaves.push_back(leaf);
        splits[static_cast<size_t>(level)].push_back(static_cast<int64_t>(leaves.size()));
      } else {
        rows(item, level + 1);
        splits[static_cast<size_t>(level)].push_back(static_cast<int64_t>(splits[static_cast<size_t>(level) + 1].size()) - 1);
      }
    }
  };
  rows(pylist, 0);
  std::optional<DType> dt = dtype.is_none() ? std::nullopt : std::optional<DType>(require_dtype(dtype));
  TensorHandle flat = leaves.empty() ? TensorHandle(Tensor(dt.value_or(DType::Float32), Shape{0}))
                                     : to_tensor(Value::list(std::move(leaves)), dt);
  RaggedParts p{flat, {}};
  for (auto& s : splits) {
    int64_t n = static_cast<int64_t>(s.size());
    p.splits.emplace_back(Tensor::from_vector<int64_t>(Shape{n}, s));
  }
  return make_ragged(std::move(p));
}

}  // namespace ag
