// TF's ragged dispatch (ragged_dispatch.py, ragged_math_ops.py,
// ragged_concat_ops.py) for the tf.* functions users call on what
// tf.strings.split and tf.ragged.constant return: elementwise unary ops and
// tf.cast map the flat values; reductions segment the values by row
// (axis=1) or by column (axis=0) with the unsorted_segment ops, so an empty
// row reduces to the op's identity (0 for sum, the dtype's lowest for max),
// as TF's do; concat joins rows (axis=0) or each row (axis=1). Each is
// composed of tf.* ops, so it traces as TF's does.
#include "runtime/api/ragged_dispatch.h"

#include "runtime/api/python_api.h"
#include "runtime/api/ragged_tensor.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/value/convert.h"

namespace ag {
namespace {

Value with_flat_values(const RaggedParts& p, Value values) {
  RaggedParts out = p;
  out.flat_values = to_tensor(values);
  return make_ragged(std::move(out));
}

/// The rows of ragged rank 1 parts as (values, value_rowids, row_starts,
/// row_lengths, nrows), all int64 but values.
struct Rows {
  Value values, rowids, starts, lengths, nrows;
};

Rows rows_of(const RaggedParts& p) {
  Rows r;
  r.values = Value(p.flat_values);
  r.starts = getslice(Value(p.splits[0]), SliceSpec{Value(), Value(-1), Value()});
  r.lengths = ragged_row_lengths(p);
  r.nrows = tf::api::size({r.lengths}, {{"out_type", dtype_value(DType::Int64)}});
  r.rowids = ragged_row_ids(r.lengths);
  return r;
}

const char* segment_function(OpType op) {
  if (op == OpType("Sum") || op == OpType("Mean")) return "sum";
  if (op == OpType("Prod")) return "prod";
  if (op == OpType("Max")) return "max";
  if (op == OpType("Min")) return "min";
  return nullptr;
}

Value unsorted_segment(const char* fn, const Value& data, const Value& ids, const Value& n) {
  std::string f = fn;
  if (f == "sum") return tf::api::unsorted_segment_sum({data, ids, n}, {});
  if (f == "prod") return tf::api::unsorted_segment_prod({data, ids, n}, {});
  if (f == "max") return tf::api::unsorted_segment_max({data, ids, n}, {});
  return tf::api::unsorted_segment_min({data, ids, n}, {});
}

}  // namespace

std::optional<Value> ragged_unary(OpType op, const Value& x, std::string_view name) {
  const RaggedParts* p = ragged_parts(x);
  if (!p) return std::nullopt;
  return with_flat_values(*p, tf::unary_op(op, Value(p->flat_values), name));
}

std::optional<Value> ragged_cast(const Value& x, DType dtype, std::string_view name) {
  const RaggedParts* p = ragged_parts(x);
  if (!p) return std::nullopt;
  return with_flat_values(*p, tf::cast(Value(p->flat_values), dtype, name));
}

std::optional<Value> ragged_reduce(OpType op, const Value& x, const Value& axis, bool keepdims,
                                   const std::function<Value(const Value&, const Value&)>& dense) {
  const RaggedParts* p = ragged_parts(x);
  if (!p) return std::nullopt;
  const char* fn = segment_function(op);
  if (!fn) throw NotImplementedError("agc reduces a RaggedTensor with reduce_sum, reduce_mean, reduce_prod, reduce_max "
                                     "and reduce_min only");
  if (keepdims) throw NotImplementedError("agc reduces a RaggedTensor without keepdims only");
  // axis=None: every value (TF reduces the flat values).
  if (axis.is_none()) return dense(Value(p->flat_values), Value());
  if (!axis.is_index()) throw NotImplementedError("agc reduces a RaggedTensor along one int axis");
  const int64_t rank = static_cast<int64_t>(p->splits.size()) + (p->flat_values.shape().rank_known() ? p->flat_values.shape().rank() : 1);
  int64_t a = axis.as_int();
  if (a < 0) a += rank;
  if (a < 0 || a >= rank) {
    throw ValueError("axis=" + std::to_string(axis.as_int()) + " out of bounds: expected " + std::to_string(-rank) +
                     "<=axis<" + std::to_string(rank));
  }
  tf::common::NameScope scope(std::string("Ragged") + (op == OpType("Mean") ? "ReduceMean" : "Reduce"));
  if (a > static_cast<int64_t>(p->splits.size())) {
    // A uniform inner axis: reduce the flat values along it.
    return with_flat_values(*p, dense(Value(p->flat_values), Value(a - static_cast<int64_t>(p->splits.size()))));
  }
  if (p->splits.size() > 1) throw NotImplementedError("agc reduces a RaggedTensor of ragged rank 1 along its rows or columns");
  Rows r = rows_of(*p);
  Value ids, n;
  if (a == 1) {
    ids = r.rowids;
    n = r.nrows;
  } else {
    // Column j of every row: the value's position in its row.
    ids = tf::api::range({tf::api::size({r.values}, {{"out_type", dtype_value(DType::Int64)}})},
                         {{"dtype", dtype_value(DType::Int64)}}) -
          tf::api::gather({r.starts, r.rowids}, {});
    n = tf::api::maximum({tf::api::reduce_max({r.lengths}, {}), Value(int64_t{0})}, {});
  }
  Value out = unsorted_segment(fn, r.values, ids, n);
  if (op != OpType("Mean")) return out;
  Value count = unsorted_segment("sum", tf::api::ones_like({r.values}, {}), ids, n);
  return out / count;
}

std::optional<Value> ragged_concat(const Value& values, const Value& axis, std::string_view name) {
  if (!values.is_list() && !values.is_tuple()) return std::nullopt;
  const std::vector<Value>& items = values.items();
  bool any = false;
  for (const Value& v : items) any = any || ragged_parts(v) != nullptr;
  if (!any) return std::nullopt;
  if (!axis.is_index()) throw NotImplementedError("agc concatenates RaggedTensors along an int axis");
  int64_t a = axis.as_int();
  std::vector<RaggedParts> parts;
  for (const Value& v : items) {
    const RaggedParts* p = ragged_parts(v);
    // A dense operand is a RaggedTensor with uniform rows (RaggedTensor.from_tensor).
    if (!p) {
      TensorHandle t = to_tensor(v);
      if (!t.shape().rank_known() || t.shape().rank() < 2) {
        throw ValueError("concat of a RaggedTensor needs operands of rank at least 2");
      }
      Value n = getitem(tf::shape(Value(t), DType::Int64), Value(0));
      Value m = getitem(tf::shape(Value(t), DType::Int64), Value(1));
      Value lengths = tf::api::fill({tf::api::reshape({n, Value::list({Value(1)})}, {}), m}, {});
      Value flat = tf::api::reshape({Value(t), Value::list({Value(-1)})}, {});
      if (t.shape().rank() > 2) throw NotImplementedError("agc concatenates a RaggedTensor with rank-2 tensors only");
      parts.push_back(*ragged_parts(ragged_from_row_lengths(flat, lengths)));
      continue;
    }
    if (p->splits.size() != 1) throw NotImplementedError("agc concatenates RaggedTensors of ragged rank 1 only");
    parts.push_back(*p);
  }
  const int64_t rank = 1 + (parts[0].flat_values.shape().rank_known() ? parts[0].flat_values.shape().rank() : 1);
  if (a < 0) a += rank;
  tf::common::NameScope scope("RaggedConcat");
  std::vector<Value> flat;
  for (const RaggedParts& p : parts) flat.emplace_back(p.flat_values);
  if (a == 0) {
    // The rows one after the other: the values joined, the row lengths too.
    std::vector<Value> lengths;
    for (const RaggedParts& p : parts) lengths.push_back(ragged_row_lengths(p));
    return ragged_from_row_lengths(tf::concat(Value::list(std::move(flat)), Value(0), name),
                                   tf::concat(Value::list(std::move(lengths)), Value(0)));
  }
  if (a != 1) throw NotImplementedError("agc concatenates RaggedTensors along axis 0 or 1");
  // Row i of the result is row i of each operand in turn: order the values
  // by (row, operand), which a stable sort of the row ids does.
  std::vector<Value> rowids;
  Value total_lengths;
  for (const RaggedParts& p : parts) {
    Value lengths = ragged_row_lengths(p);
    rowids.push_back(ragged_row_ids(lengths));
    total_lengths = total_lengths.is_none() ? lengths : total_lengths + lengths;
  }
  Value all_values = tf::concat(Value::list(std::move(flat)), Value(0), name);
  Value all_rowids = tf::concat(Value::list(std::move(rowids)), Value(0));
  Value order = tf::api::argsort({all_rowids}, {{"stable", Value(true)}});
  return ragged_from_row_lengths(tf::api::gather({all_values, order}, {}), total_lengths);
}

}  // namespace ag
