#include "runtime/value/tensor_dispatch.h"

#include "runtime/value/variable_value.h"

#include "runtime/ops/registry.h"
#include "runtime/value/convert.h"
#include "runtime/value/symbolic_dispatch.h"

namespace ag::detail {
namespace {

struct OpInfo {
  OpType op;         // TF op type
  const char* name;  // node name hint, as tf.Tensor's operator names it
};

OpInfo info(BinOp bop) {
  switch (bop) {
    case BinOp::Add: return {op::AddV2, "add"};
    case BinOp::Sub: return {op::Sub, "sub"};
    case BinOp::Mul: return {op::Mul, "mul"};
    case BinOp::TrueDiv: return {op::RealDiv, "truediv"};
    case BinOp::FloorDiv: return {op::FloorDiv, "floordiv"};
    case BinOp::Mod: return {op::FloorMod, "mod"};
    case BinOp::Pow: return {op::Pow, "pow"};
    case BinOp::Less: return {op::Less, "Less"};
    case BinOp::LessEqual: return {op::LessEqual, "LessEqual"};
    case BinOp::Greater: return {op::Greater, "Greater"};
    case BinOp::GreaterEqual: return {op::GreaterEqual, "GreaterEqual"};
    case BinOp::Equal: return {op::Equal, "Equal"};
    case BinOp::NotEqual: return {op::NotEqual, "NotEqual"};
    case BinOp::And: return {op::LogicalAnd, "and"};
    case BinOp::Or: return {op::LogicalOr, "or"};
    case BinOp::Xor: return {op::LogicalAnd, "xor"};
  }
  throw InternalError("unknown binary operator");
}

// `4 < t` is t.__gt__(4) in Python: the tensor becomes the left operand.
BinOp mirrored(BinOp bop) {
  switch (bop) {
    case BinOp::Less: return BinOp::Greater;
    case BinOp::LessEqual: return BinOp::GreaterEqual;
    case BinOp::Greater: return BinOp::Less;
    case BinOp::GreaterEqual: return BinOp::LessEqual;
    default: return bop;
  }
}

bool is_comparison(BinOp bop) {
  return bop == BinOp::Less || bop == BinOp::LessEqual || bop == BinOp::Greater || bop == BinOp::GreaterEqual ||
         bop == BinOp::Equal || bop == BinOp::NotEqual;
}

TensorHandle apply2(OpType op, const TensorHandle& x, const TensorHandle& y, const char* name,
                    const Attrs& attrs = {}) {
  // While tracing, TF's op_def_library rejects operands of different dtypes
  // with a TypeError; eagerly the op's own check speaks (InvalidArgumentError).
  if (current_graph() != nullptr && x.dtype() != y.dtype()) {
    throw TypeError("Input 'y' of '" + std::string(op.name()) + "' Op has type " + dtype_repr(y.dtype()) +
                    " that does not match type " + dtype_repr(x.dtype()) + " of argument 'x'.");
  }
  TensorHandle in[2] = {x, y};
  return apply_op1(op, in, attrs, name);
}

TensorHandle apply1(OpType op, const TensorHandle& x, const char* name, const Attrs& attrs = {}) {
  TensorHandle in[1] = {x};
  return apply_op1(op, in, attrs, name);
}

TensorHandle cast(const TensorHandle& x, DType to) {
  return apply1(op::Cast, x, "Cast", Attrs{{"SrcT", x.dtype()}, {"DstT", to}, {"Truncate", false}});
}

// TF's _TRUEDIV_TABLE: integers become floats before RealDiv.
std::optional<DType> truediv_cast(DType t) {
  switch (t) {
    case DType::Int8:
    case DType::UInt8: return DType::Float32;
    case DType::Int32:
    case DType::Int64: return DType::Float64;
    case DType::Float32:
    case DType::Float64:
    case DType::BFloat16: return std::nullopt;
    default: break;
  }
  throw TypeError("Invalid dtype tf." + dtype_repr(t) + " in __truediv__. Expected one of {tf.uint8, tf.int8, "
                  "tf.uint16, tf.int16, tf.uint32, tf.int32, tf.uint64, tf.int64, tf.bfloat16, tf.float16, "
                  "tf.float32, tf.float64, tf.complex64, tf.complex128}.");
}

Value apply_binary(BinOp bop, const TensorHandle& x, const TensorHandle& y) {
  OpInfo oi = info(bop);
  switch (bop) {
    case BinOp::Add:
      // TF adds strings with Add; agc's AddV2 concatenates them too.
      return Value(apply2(op::AddV2, x, y, "add"));
    case BinOp::TrueDiv: {
      if (x.dtype() != y.dtype()) {
        throw TypeError("`x` and `y` must have the same dtype, got tf." + dtype_repr(x.dtype()) + " != tf." +
                        dtype_repr(y.dtype()) + ".");
      }
      std::optional<DType> to = truediv_cast(x.dtype());
      if (!to) return Value(apply2(op::RealDiv, x, y, "truediv"));
      TensorHandle cx = cast(x, *to);
      TensorHandle cy = cast(y, *to);
      return Value(apply2(op::RealDiv, cx, cy, "truediv"));
    }
    case BinOp::Equal:
    case BinOp::NotEqual:
      return Value(apply2(oi.op, x, y, oi.name, Attrs{{"incompatible_shape_error", false}}));
    case BinOp::And:
    case BinOp::Or:
      if (x.dtype() != DType::Bool) {
        return Value(apply2(bop == BinOp::And ? op::BitwiseAnd : op::BitwiseOr, x, y, oi.name));
      }
      return Value(apply2(oi.op, x, y, oi.name));
    case BinOp::Xor: {
      if (x.dtype() != DType::Bool) return Value(apply2(op::BitwiseXor, x, y, "xor"));
      // TF's logical_xor: (x | y) & ~(x & y).
      TensorHandle o = apply2(op::LogicalOr, x, y, "LogicalOr");
      TensorHandle n = apply1(op::LogicalNot, apply2(op::LogicalAnd, x, y, "LogicalAnd"), "LogicalNot");
      return Value(apply2(op::LogicalAnd, o, n, "xor"));
    }
    default:
      return Value(apply2(oi.op, x, y, oi.name));
  }
}

}  // namespace

/// A variable operand as its value.
Value deref(const Value& v) { return v.is_variable() ? Value(variable_value::read(v)) : v; }

namespace {

bool symbolic_tensor(const Value& v) { return v.is_tensor() && v.as_tensor().symbolic(); }

/// The TF API symbol Keras names an operator's TFOpLambda after (the
/// dispatching function tf.Tensor's overload calls); nullptr for == and !=,
/// which KerasTensors leave to Python.
const char* operator_symbol(BinOp bop) {
  switch (bop) {
    case BinOp::Add: return "__operators__.add";
    case BinOp::Sub: return "math.subtract";
    case BinOp::Mul: return "math.multiply";
    case BinOp::TrueDiv: return "math.truediv";
    case BinOp::FloorDiv: return "math.floordiv";
    case BinOp::Mod: return "math.floormod";
    case BinOp::Pow: return "math.pow";
    case BinOp::Less: return "math.less";
    case BinOp::LessEqual: return "math.less_equal";
    case BinOp::Greater: return "math.greater";
    case BinOp::GreaterEqual: return "math.greater_equal";
    case BinOp::And: return "math.logical_and";
    case BinOp::Or: return "math.logical_or";
    case BinOp::Xor: return "math.logical_xor";
    case BinOp::Equal:
    case BinOp::NotEqual: return nullptr;
  }
  return nullptr;
}

template <BinOp bop>
Value binary_again(std::vector<Value> args, Kwargs) { return tensor_binary(bop, args.at(0), args.at(1)); }

DispatchedFn binary_fn(BinOp bop) {
  switch (bop) {
    case BinOp::Add: return binary_again<BinOp::Add>;
    case BinOp::Sub: return binary_again<BinOp::Sub>;
    case BinOp::Mul: return binary_again<BinOp::Mul>;
    case BinOp::TrueDiv: return binary_again<BinOp::TrueDiv>;
    case BinOp::FloorDiv: return binary_again<BinOp::FloorDiv>;
    case BinOp::Mod: return binary_again<BinOp::Mod>;
    case BinOp::Pow: return binary_again<BinOp::Pow>;
    case BinOp::Less: return binary_again<BinOp::Less>;
    case BinOp::LessEqual: return binary_again<BinOp::LessEqual>;
    case BinOp::Greater: return binary_again<BinOp::Greater>;
    case BinOp::GreaterEqual: return binary_again<BinOp::GreaterEqual>;
    case BinOp::Equal: return binary_again<BinOp::Equal>;
    case BinOp::NotEqual: return binary_again<BinOp::NotEqual>;
    case BinOp::And: return binary_again<BinOp::And>;
    case BinOp::Or: return binary_again<BinOp::Or>;
    case BinOp::Xor: return binary_again<BinOp::Xor>;
  }
  return nullptr;
}

Value neg_again(std::vector<Value> args, Kwargs) { return tensor_neg(args.at(0)); }
Value abs_again(std::vector<Value> args, Kwargs) { return tensor_abs(args.at(0)); }
Value invert_again(std::vector<Value> args, Kwargs) { return tensor_invert(args.at(0)); }

/// The symbolic dispatch of a unary operator on `a`, when it is a symbolic tensor.
std::optional<Value> dispatch_unary(const char* symbol, DispatchedFn fn, const Value& a) {
  if (!symbolic_tensor(a)) return std::nullopt;
  return symbolic_dispatch(symbol, fn, {a}, {});
}

}  // namespace

Value tensor_binary(BinOp bop, const Value& a, const Value& b) {
  if (symbolic_tensor(a) || symbolic_tensor(b)) {
    if (const char* symbol = operator_symbol(bop)) {
      if (std::optional<Value> d = symbolic_dispatch(symbol, binary_fn(bop), {a, b}, {})) return *d;
    }
  }
  if (a.is_variable() || b.is_variable()) return tensor_binary(bop, deref(a), deref(b));
  if (a.is_tensor()) {
    const TensorHandle& x = a.as_tensor();
    if (b.is_tensor()) return apply_binary(bop, x, b.as_tensor());
    // x.__op__(b): `+` and `/` convert b with x's dtype as a hint; the other
    // ops convert it as the op's argument of x's type.
    if (bop == BinOp::Add || bop == BinOp::TrueDiv) return apply_binary(bop, x, to_tensor_hint(b, x.dtype()));
    return apply_binary(bop, x, to_tensor_for_op(b, x.dtype(), info(bop).op.name(), "y"));
  }
  const TensorHandle& y = b.as_tensor();
  if (is_comparison(bop)) {
    // Python asks the tensor: 4 < t is t.__gt__(4), 4 == t is t.__eq__(4).
    return apply_binary(mirrored(bop), y, to_tensor_for_op(a, y.dtype(), info(mirrored(bop)).op.name(), "y"));
  }
  // y.__rop__(a): TF converts `a` to y's dtype strictly (force_same_dtype).
  return apply_binary(bop, to_tensor(a, y.dtype()), y);
}

Value tensor_neg(const Value& a) {
  if (std::optional<Value> d = dispatch_unary("math.negative", neg_again, a)) return *d;
  return Value(apply1(op::Neg, deref(a).as_tensor(), "Neg"));
}

Value tensor_abs(const Value& a) {
  if (std::optional<Value> d = dispatch_unary("math.abs", abs_again, a)) return *d;
  return Value(apply1(op::Abs, deref(a).as_tensor(), "Abs"));
}

Value tensor_invert(const Value& a) {
  if (std::optional<Value> d = dispatch_unary("math.logical_not", invert_again, a)) return *d;
  Value v = deref(a);
  const TensorHandle& x = v.as_tensor();
  if (x.dtype() == DType::Bool) return Value(apply1(op::LogicalNot, x, "LogicalNot"));
  return Value(apply1(op::Invert, x, "Invert"));
}

bool tensor_truthy(const TensorHandle& t) {
  if (t.symbolic()) {
    throw OperatorNotAllowedInGraphError(
        "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. You can attempt the following resolutions "
        "to the problem: If you are running in Graph mode, use Eager execution mode or decorate this function with "
        "@tf.function. If you are using AutoGraph, you can try decorating this function with @tf.function. If that "
        "does not work, then you may be using an unsupported feature or your source code may not be visible to "
        "AutoGraph. See https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/g3doc/"
        "reference/limitations.md#access-to-source-code for more information.");
  }
  const Tensor& v = t.value();
  if (v.num_elements() > 1) {
    throw ValueError("The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()");
  }
  if (v.num_elements() == 0) return false;
  return dispatch_dtype(v.dtype(), [&]<class T>() -> bool {
    if constexpr (std::is_same_v<T, std::string>) {
      return !v.data<T>()[0].empty();
    } else if constexpr (std::is_same_v<T, bfloat16>) {
      return static_cast<float>(v.data<T>()[0]) != 0.0f;
    } else {
      return v.data<T>()[0] != T{};
    }
  });
}

}  // namespace ag::detail
