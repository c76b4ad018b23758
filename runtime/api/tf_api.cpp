// tf.constant, tf.convert_to_tensor, the plain op wrappers' conversions
// (unary_op, binary_op) and the elementwise functions with logic of their own.
#include "runtime/api/ragged_dispatch.h"
#include "runtime/api/tf_api.h"
#include "runtime/value/variable_value.h"

#include "runtime/ops/registry.h"
#include "runtime/value/convert.h"

namespace ag::tf {
namespace {

TensorHandle apply1(OpType op, const TensorHandle& x, std::string_view name, const Attrs& attrs = {}) {
  TensorHandle in[1] = {x};
  return apply_op1(op, in, attrs, name);
}

// The operands of an op whose inputs share one type attr, converted as TF's
// op_def_library does: the first tensor sets the dtype (else the first
// operand's inferred one) and literals adopt it.
std::vector<TensorHandle> same_type(const std::vector<const Value*>& args, OpType op) {
  std::optional<DType> dt;
  for (const Value* a : args) {
    if (a->is_tensor()) {
      dt = a->as_tensor().dtype();
      break;
    }
  }
  static const char* kParams[] = {"x", "y", "z"};
  std::vector<TensorHandle> out;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!dt) dt = to_tensor(*args[i]).dtype();
    out.push_back(to_tensor_for_op(*args[i], *dt, op.name(), kParams[i < 3 ? i : 2]));
  }
  if (current_graph() != nullptr) {
    for (size_t i = 1; i < out.size(); ++i) {
      if (out[i].dtype() != out[0].dtype()) {
        throw TypeError("Input '" + std::string(kParams[i < 3 ? i : 2]) + "' of '" + std::string(op.name()) + "' Op has type " +
                        dtype_repr(out[i].dtype()) + " that does not match type " + dtype_repr(out[0].dtype()) +
                        " of argument 'x'.");
      }
    }
  }
  return out;
}

}  // namespace

Value constant(const Value& value, OptDType dtype, std::string_view name) {
  if (value.is_tensor()) {
    // tf.constant of a tensor: the value itself, cast-checked as convert_to_tensor.
    return Value(to_tensor(value, dtype));
  }
  Tensor t = literal_to_tensor(value, dtype);
  if (Graph* g = current_graph()) return Value(g->constant(t, name));
  return Value(std::move(t));
}

Value Variable(const Value& initial_value, OptDType dtype, const Value& name, const Value& shape, bool trainable) {
  return variable_value::create(initial_value, dtype, name, shape, trainable);
}

Value convert_to_tensor(const Value& value, OptDType dtype, OptDType dtype_hint) {
  if (!dtype && dtype_hint) return Value(to_tensor_hint(value, *dtype_hint));
  return Value(to_tensor(value, dtype));
}

Value unary_op(OpType op, const Value& x, std::string_view name) {
  if (std::optional<Value> r = ragged_unary(op, x, name)) return *r;
  return Value(apply1(op, to_tensor(x), name));
}

Value binary_op(OpType op, const Value& x, const Value& y, std::string_view name) {
  std::vector<TensorHandle> in = same_type({&x, &y}, op);
  return Value(apply_op1(op, in, {}, name));
}

Value add(const Value& x, const Value& y, std::string_view name) {
  // math_ops.add: y converted with x's dtype as a hint; AddV2 (TF's Add for
  // strings: agc's AddV2 concatenates them too).
  TensorHandle tx = to_tensor(x);
  TensorHandle ty = to_tensor_hint(y, tx.dtype());
  return binary_op(op::AddV2, Value(tx), Value(ty), name);
}

Value divide(const Value& x, const Value& y) {
  // math_ops.divide: a literal x takes y's dtype, then Python's `/`.
  if (!x.is_tensor() && y.is_tensor()) return Value(to_tensor(x, y.as_tensor().dtype())) / y;
  return Value(to_tensor(x)) / y;
}

Value truediv(const Value& x, const Value& y) { return Value(to_tensor(x)) / y; }

Value where(const Value& cond, const Value& x, const Value& y, std::string_view name) {
  if (x.is_none() && y.is_none()) return Value(apply1(op::Where, to_tensor(cond), name.empty() ? "Where" : name));
  if (x.is_none() || y.is_none()) throw ValueError("x and y must both be non-None or both be None.");
  TensorHandle c = to_tensor(cond, DType::Bool);
  std::vector<TensorHandle> xy = same_type({&x, &y}, op::SelectV2);
  TensorHandle in[3] = {c, xy[0], xy[1]};
  return Value(apply_op1(op::SelectV2, in, {}, name.empty() ? "SelectV2" : name));
}

Value cast(const Value& x, DType dtype, std::string_view name) {
  if (x.is_tensor() && x.as_tensor().dtype() == dtype) return x;
  if (std::optional<Value> r = ragged_cast(x, dtype, name)) return *r;
  TensorHandle t = to_tensor(x);
  if (t.dtype() == dtype) return Value(t);
  return Value(apply1(op::Cast, t, name, Attrs{{"SrcT", t.dtype()}, {"DstT", dtype}, {"Truncate", false}}));
}

Value round(const Value& x, std::string_view name) {
  // math_ops.round: integers are already round.
  TensorHandle t = to_tensor(x);
  if (is_integer(t.dtype())) return Value(t);
  return Value(apply1(op::Round, t, name));
}

}  // namespace ag::tf
