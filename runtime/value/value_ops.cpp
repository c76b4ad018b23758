// Python's arithmetic, comparison and truthiness on Values. ints are Python
// ints within int64: a result that does not fit is an OverflowError, never a
// wrapped value. Any tensor operand hands the operator to tensor_dispatch.
#include <algorithm>
#include <cmath>
#include <limits>

#include "runtime/value/bytes_value.h"
#include "runtime/value/composite_tensor.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/ndarray_math.h"
#include "runtime/value/numpy_dtype.h"
#include "runtime/value/object_model.h"
#include "runtime/value/set_value.h"
#include "runtime/value/tensor_dispatch.h"
#include "runtime/value/variable_value.h"

namespace ag {

using bytes_value::is_bytes;

using detail::BinOp;

namespace {

const char* op_symbol(BinOp op) {
  switch (op) {
    case BinOp::Add: return "+";
    case BinOp::Sub: return "-";
    case BinOp::Mul: return "*";
    case BinOp::TrueDiv: return "/";
    case BinOp::FloorDiv: return "//";
    case BinOp::Mod: return "%";
    case BinOp::Pow: return "** or pow()";
    case BinOp::Less: return "<";
    case BinOp::LessEqual: return "<=";
    case BinOp::Greater: return ">";
    case BinOp::GreaterEqual: return ">=";
    case BinOp::Equal: return "==";
    case BinOp::NotEqual: return "!=";
    case BinOp::And: return "&";
    case BinOp::Or: return "|";
    case BinOp::Xor: return "^";
  }
  return "?";
}

[[noreturn]] void unsupported(BinOp op, const Value& a, const Value& b) {
  throw TypeError(std::string("unsupported operand type(s) for ") + op_symbol(op) + ": '" + a.type_name() + "' and '" +
                  b.type_name() + "'");
}

/// The special methods of a binary operator and of its reflection ("__add__",
/// "__radd__"; for < the reflection is >'s "__gt__").
std::pair<const char*, const char*> special_names(BinOp op) {
  switch (op) {
    case BinOp::Add: return {"__add__", "__radd__"};
    case BinOp::Sub: return {"__sub__", "__rsub__"};
    case BinOp::Mul: return {"__mul__", "__rmul__"};
    case BinOp::TrueDiv: return {"__truediv__", "__rtruediv__"};
    case BinOp::FloorDiv: return {"__floordiv__", "__rfloordiv__"};
    case BinOp::Mod: return {"__mod__", "__rmod__"};
    case BinOp::Pow: return {"__pow__", "__rpow__"};
    case BinOp::Less: return {"__lt__", "__gt__"};
    case BinOp::LessEqual: return {"__le__", "__ge__"};
    case BinOp::Greater: return {"__gt__", "__lt__"};
    case BinOp::GreaterEqual: return {"__ge__", "__le__"};
    case BinOp::Equal: return {"__eq__", "__eq__"};
    case BinOp::NotEqual: return {"__ne__", "__ne__"};
    case BinOp::And: return {"__and__", "__rand__"};
    case BinOp::Or: return {"__or__", "__ror__"};
    case BinOp::Xor: return {"__xor__", "__rxor__"};
  }
  return {"", ""};
}

/// `a op b` by an instance operand's special methods (object_binary).
std::optional<Value> by_special_method(BinOp op, const Value& a, const Value& b) {
  if (!a.is_object() && !b.is_object()) return std::nullopt;
  auto [method, reflected] = special_names(op);
  return object_binary(a, b, method, reflected);
}

[[noreturn]] void overflow(const char* what, int64_t a, int64_t b) {
  throw OverflowError("integer overflow: " + std::to_string(a) + " " + what + " " + std::to_string(b) +
                      " does not fit in 64 bits (agc's Python ints are int64)");
}

bool is_intlike(const Value& v) { return v.is_int() || v.is_bool(); }
bool is_seq(const Value& v) { return v.is_list() || v.is_tuple() || v.is_str(); }

int64_t int_floordiv(int64_t a, int64_t b) {
  if (b == 0) throw ZeroDivisionError("integer division or modulo by zero");
  if (a == std::numeric_limits<int64_t>::min() && b == -1) overflow("//", a, b);
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t int_mod(int64_t a, int64_t b) {
  if (b == 0) throw ZeroDivisionError("integer modulo by zero");
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

// CPython's float_divmod.
void float_divmod(double vx, double wx, double& floordiv, double& mod) {
  mod = std::fmod(vx, wx);
  double div = (vx - mod) / wx;
  if (mod != 0.0) {
    if ((wx < 0) != (mod < 0)) {
      mod += wx;
      div -= 1.0;
    }
  } else {
    mod = std::copysign(0.0, wx);
  }
  if (div != 0.0) {
    floordiv = std::floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
  } else {
    floordiv = std::copysign(0.0, vx / wx);
  }
}

Value float_pow(double x, double y) {
  if (x == 0.0 && y < 0.0) throw ZeroDivisionError("0.0 cannot be raised to a negative power");
  if (x < 0.0 && std::isfinite(x) && std::isfinite(y) && y != std::floor(y)) {
    throw ValueError("math domain error: a negative number raised to a fractional power is complex, which agc does "
                     "not support");
  }
  double r = std::pow(x, y);
  if (std::isinf(r) && std::isfinite(x) && std::isfinite(y)) {
    throw OverflowError("(34, 'Numerical result out of range')");
  }
  return Value(r);
}

Value int_pow(int64_t base, int64_t exp) {
  if (exp < 0) {
    if (base == 0) throw ZeroDivisionError("0.0 cannot be raised to a negative power");
    return Value(std::pow(static_cast<double>(base), static_cast<double>(exp)));
  }
  int64_t result = 1, b = base, e = exp;
  while (e > 0) {
    if (e & 1) {
      if (__builtin_mul_overflow(result, b, &result)) overflow("**", base, exp);
    }
    e >>= 1;
    if (e > 0 && __builtin_mul_overflow(b, b, &b)) overflow("**", base, exp);
  }
  return Value(result);
}

Value repeat(const Value& seq, int64_t n) {
  if (n < 0) n = 0;
  if (seq.is_str()) {
    const std::string& s = seq.as_str();
    if (!s.empty() && static_cast<uint64_t>(n) > (uint64_t{1} << 40) / s.size()) {
      throw OverflowError("repeated string is too long");
    }
    std::string r;
    r.reserve(s.size() * static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) r += s;
    return Value(std::move(r));
  }
  const std::vector<Value>& items = seq.items();
  if (!items.empty() && static_cast<uint64_t>(n) > (uint64_t{1} << 32) / items.size()) {
    throw OverflowError("repeated " + seq.type_name() + " is too long");
  }
  std::vector<Value> r;
  r.reserve(items.size() * static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) r.insert(r.end(), items.begin(), items.end());
  return seq.is_list() ? Value::list(std::move(r)) : Value::tuple(std::move(r));
}

Value concat(const Value& a, const Value& b) {
  if (a.is_str()) {
    if (!b.is_str()) throw TypeError("can only concatenate str (not \"" + b.type_name() + "\") to str");
    return Value(a.as_str() + b.as_str());
  }
  if (a.kind() != b.kind()) {
    throw TypeError("can only concatenate " + a.type_name() + " (not \"" + b.type_name() + "\") to " + a.type_name());
  }
  std::vector<Value> r = a.items();
  r.insert(r.end(), b.items().begin(), b.items().end());
  return a.is_list() ? Value::list(std::move(r)) : Value::tuple(std::move(r));
}

// ---- NumPy operands (after tensors: a tensor's operators win over NumPy's).

ndarray::Binary numpy_ufunc(BinOp op) {
  switch (op) {
    case BinOp::Add: return ndarray::Binary::Add;
    case BinOp::Sub: return ndarray::Binary::Subtract;
    case BinOp::Mul: return ndarray::Binary::Multiply;
    case BinOp::TrueDiv: return ndarray::Binary::TrueDivide;
    case BinOp::FloorDiv: return ndarray::Binary::FloorDivide;
    case BinOp::Mod: return ndarray::Binary::Remainder;
    case BinOp::Pow: return ndarray::Binary::Power;
    case BinOp::Less: return ndarray::Binary::Less;
    case BinOp::LessEqual: return ndarray::Binary::LessEqual;
    case BinOp::Greater: return ndarray::Binary::Greater;
    case BinOp::GreaterEqual: return ndarray::Binary::GreaterEqual;
    case BinOp::Equal: return ndarray::Binary::Equal;
    case BinOp::NotEqual: return ndarray::Binary::NotEqual;
    case BinOp::And: return ndarray::Binary::BitwiseAnd;
    case BinOp::Or: return ndarray::Binary::BitwiseOr;
    case BinOp::Xor: return ndarray::Binary::BitwiseXor;
  }
  throw InternalError("unknown binary operator");
}

/// What a NumPy operator reads as an array: ndarrays, Python numbers, and
/// lists and tuples (np.array([1, 2]) + [3, 4]).
bool numpy_operand(const Value& v) { return ndarray::ufunc_operand(v) || v.is_list() || v.is_tuple(); }

/// `a op b` with a NumPy operand: NumPy's ufunc; bytes concatenate as Python's.
Value numpy_binary(BinOp op, const Value& a, const Value& b) {
  if (is_bytes(a) || is_bytes(b)) {
    if (std::optional<Value> r = bytes_value::binary(op, a, b)) return *r;
    unsupported(op, a, b);
  }
  // list * np.int64(2) repeats the list (Python asks the list first).
  if (op == BinOp::Mul && is_seq(a) && b.is_ndarray() && ndarray::is_scalar(b) && is_integer(ndarray::tensor(b).dtype())) {
    return repeat(a, b.as_int());
  }
  if (!numpy_operand(a) || !numpy_operand(b)) unsupported(op, a, b);
  return ndarray::apply(numpy_ufunc(op), a, b);
}

Value arith(BinOp op, const Value& a, const Value& b) {
  // A composite tensor operand (a RaggedTensor) applies the op itself, as
  // TF dispatches ops on composites, before any conversion to a tensor.
  if (composite_state(a) != nullptr || composite_state(b) != nullptr) {
    if (std::optional<Value> r = by_special_method(op, a, b)) return *r;
  }
  if (detail::tensor_like(a) || detail::tensor_like(b)) return detail::tensor_binary(op, a, b);
  if (a.is_ndarray() || b.is_ndarray()) return numpy_binary(op, a, b);
  if (a.is_set() && b.is_set()) {
    char sym = op == BinOp::Or ? '|' : op == BinOp::And ? '&' : op == BinOp::Xor ? '^' : op == BinOp::Sub ? '-' : 0;
    if (std::optional<Value> r = set_value::binary(sym, a, b)) return *r;
  }
  if (is_intlike(a) && is_intlike(b)) {
    int64_t x = a.as_int(), y = b.as_int(), r = 0;
    switch (op) {
      case BinOp::Add:
        if (__builtin_add_overflow(x, y, &r)) overflow("+", x, y);
        return Value(r);
      case BinOp::Sub:
        if (__builtin_sub_overflow(x, y, &r)) overflow("-", x, y);
        return Value(r);
      case BinOp::Mul:
        if (__builtin_mul_overflow(x, y, &r)) overflow("*", x, y);
        return Value(r);
      case BinOp::TrueDiv:
        if (y == 0) throw ZeroDivisionError("division by zero");
        return Value(static_cast<double>(x) / static_cast<double>(y));
      case BinOp::FloorDiv: return Value(int_floordiv(x, y));
      case BinOp::Mod: return Value(int_mod(x, y));
      case BinOp::Pow: return int_pow(x, y);
      case BinOp::And:
        if (a.is_bool() && b.is_bool()) return Value(a.as_bool() && b.as_bool());
        return Value(x & y);
      case BinOp::Or:
        if (a.is_bool() && b.is_bool()) return Value(a.as_bool() || b.as_bool());
        return Value(x | y);
      case BinOp::Xor:
        if (a.is_bool() && b.is_bool()) return Value(a.as_bool() != b.as_bool());
        return Value(x ^ y);
      default: break;
    }
    unsupported(op, a, b);
  }
  if (a.is_number() && b.is_number()) {
    double x = a.as_float(), y = b.as_float();
    switch (op) {
      case BinOp::Add: return Value(x + y);
      case BinOp::Sub: return Value(x - y);
      case BinOp::Mul: return Value(x * y);
      case BinOp::TrueDiv:
        if (y == 0.0) throw ZeroDivisionError("float division by zero");
        return Value(x / y);
      case BinOp::FloorDiv: {
        if (y == 0.0) throw ZeroDivisionError("float floor division by zero");
        double q, m;
        float_divmod(x, y, q, m);
        return Value(q);
      }
      case BinOp::Mod: {
        if (y == 0.0) throw ZeroDivisionError("float modulo by zero");
        double q, m;
        float_divmod(x, y, q, m);
        return Value(m);
      }
      case BinOp::Pow: return float_pow(x, y);
      default: break;
    }
    unsupported(op, a, b);
  }
  if (op == BinOp::Add && is_seq(a)) return concat(a, b);
  if (op == BinOp::Mul) {
    if (is_seq(a) && is_intlike(b)) return repeat(a, b.as_int());
    if (is_intlike(a) && is_seq(b)) return repeat(b, a.as_int());
    if (is_seq(a) || is_seq(b)) {
      const Value& other = is_seq(a) ? b : a;
      throw TypeError("can't multiply sequence by non-int of type '" + other.type_name() + "'");
    }
  }
  if (op == BinOp::Or && a.is_dict() && b.is_dict()) {
    Value r = Value::dict(a.as_dict().entries);
    for (auto& [k, v] : b.as_dict().entries) r.as_dict().set(k, v);
    return r;
  }
  if (std::optional<Value> r = by_special_method(op, a, b)) return *r;
  unsupported(op, a, b);
}

// Three-way comparison of non-tensor values for < <= > >=; TypeError as Python's.
int compare(BinOp op, const Value& a, const Value& b) {
  if (is_intlike(a) && is_intlike(b)) {
    int64_t x = a.as_int(), y = b.as_int();
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (a.is_number() && b.is_number()) {
    double x = a.as_float(), y = b.as_float();
    if (std::isnan(x) || std::isnan(y)) return 2;  // unordered: every comparison is false
    return x < y ? -1 : (x > y ? 1 : 0);
  }
  if (a.is_str() && b.is_str()) {
    int c = a.as_str().compare(b.as_str());
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  if ((a.is_list() && b.is_list()) || (a.is_tuple() && b.is_tuple())) {
    const auto& x = a.items();
    const auto& y = b.items();
    for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
      if (py_equal(x[i], y[i])) continue;
      return compare(op, x[i], y[i]);
    }
    return x.size() < y.size() ? -1 : (x.size() > y.size() ? 1 : 0);
  }
  throw TypeError(std::string("'") + op_symbol(op) + "' not supported between instances of '" + a.type_name() +
                  "' and '" + b.type_name() + "'");
}

Value ordering(BinOp op, const Value& a, const Value& b) {
  if (detail::tensor_like(a) || detail::tensor_like(b)) return detail::tensor_binary(op, a, b);
  if (is_bytes(a) || is_bytes(b)) {
    if (std::optional<Value> r = bytes_value::binary(op, a, b)) return *r;
    throw TypeError(std::string("'") + op_symbol(op) + "' not supported between instances of '" + a.type_name() +
                    "' and '" + b.type_name() + "'");
  }
  if ((a.is_ndarray() || b.is_ndarray()) && numpy_operand(a) && numpy_operand(b)) {
    return ndarray::apply(numpy_ufunc(op), a, b);
  }
  if (a.is_set() && b.is_set()) {
    const char* sym = op == BinOp::Less ? "<" : op == BinOp::LessEqual ? "<=" : op == BinOp::Greater ? ">" : ">=";
    return Value(set_value::compare(sym, a, b));
  }
  if (std::optional<Value> r = by_special_method(op, a, b)) return *r;
  int c = compare(op, a, b);
  if (c == 2) return Value(false);
  switch (op) {
    case BinOp::Less: return Value(c < 0);
    case BinOp::LessEqual: return Value(c <= 0);
    case BinOp::Greater: return Value(c > 0);
    default: return Value(c >= 0);
  }
}

}  // namespace

Value operator+(const Value& a, const Value& b) { return arith(BinOp::Add, a, b); }
Value operator-(const Value& a, const Value& b) { return arith(BinOp::Sub, a, b); }
Value operator*(const Value& a, const Value& b) { return arith(BinOp::Mul, a, b); }
Value operator/(const Value& a, const Value& b) { return arith(BinOp::TrueDiv, a, b); }
Value operator%(const Value& a, const Value& b) {
  if (a.is_str()) return Value(percent_format(a.as_str(), b));
  return arith(BinOp::Mod, a, b);
}
Value floordiv(const Value& a, const Value& b) { return arith(BinOp::FloorDiv, a, b); }
Value pow(const Value& a, const Value& b) { return arith(BinOp::Pow, a, b); }
Value operator&(const Value& a, const Value& b) { return arith(BinOp::And, a, b); }
Value operator|(const Value& a, const Value& b) { return arith(BinOp::Or, a, b); }
Value operator^(const Value& a, const Value& b) { return arith(BinOp::Xor, a, b); }

Value operator<<(const Value& a, const Value& b) {
  if (!is_intlike(a) || !is_intlike(b)) {
    throw TypeError("unsupported operand type(s) for <<: '" + a.type_name() + "' and '" + b.type_name() + "'");
  }
  int64_t x = a.as_int(), n = b.as_int();
  if (n < 0) throw ValueError("negative shift count");
  if (x == 0) return Value(int64_t{0});
  if (n >= 63) overflow("<<", x, n);
  int64_t r = static_cast<int64_t>(static_cast<uint64_t>(x) << n);
  if ((r >> n) != x) overflow("<<", x, n);
  return Value(r);
}

Value operator>>(const Value& a, const Value& b) {
  if (!is_intlike(a) || !is_intlike(b)) {
    throw TypeError("unsupported operand type(s) for >>: '" + a.type_name() + "' and '" + b.type_name() + "'");
  }
  int64_t x = a.as_int(), n = b.as_int();
  if (n < 0) throw ValueError("negative shift count");
  if (n >= 63) return Value(int64_t{x < 0 ? -1 : 0});
  return Value(x >> n);  // arithmetic shift: floor division by 2**n, as Python
}

Value operator-(const Value& a) {
  if (detail::tensor_like(a)) return detail::tensor_neg(a);
  if (a.is_ndarray() && !is_bytes(a)) return ndarray::apply(ndarray::Unary::Negative, a);
  if (is_intlike(a)) {
    int64_t x = a.as_int();
    if (x == std::numeric_limits<int64_t>::min()) {
      throw OverflowError("integer overflow: -(" + std::to_string(x) + ") does not fit in 64 bits (agc's Python ints "
                          "are int64)");
    }
    return Value(-x);
  }
  if (a.is_float()) return Value(-a.as_float());
  if (std::optional<Value> m = special_method(a, "__neg__")) return (*m)({}, {});
  throw TypeError("bad operand type for unary -: '" + a.type_name() + "'");
}

Value operator+(const Value& a) {
  if (a.is_tensor()) return a;
  if (a.is_ndarray() && !is_bytes(a)) return ndarray::apply(ndarray::Unary::Positive, a);
  if (a.is_variable()) return Value(variable_value::read(a));
  if (is_intlike(a)) return Value(a.as_int());
  if (a.is_float()) return a;
  if (std::optional<Value> m = special_method(a, "__pos__")) return (*m)({}, {});
  throw TypeError("bad operand type for unary +: '" + a.type_name() + "'");
}

Value operator~(const Value& a) {
  if (detail::tensor_like(a)) return detail::tensor_invert(a);
  if (a.is_ndarray() && !is_bytes(a)) return ndarray::apply(ndarray::Unary::Invert, a);
  if (is_intlike(a)) return Value(~a.as_int());
  throw TypeError("bad operand type for unary ~: '" + a.type_name() + "'");
}

Value abs(const Value& a) {
  if (detail::tensor_like(a)) return detail::tensor_abs(a);
  if (a.is_ndarray() && !is_bytes(a)) return ndarray::apply(ndarray::Unary::Absolute, a);
  if (is_intlike(a)) {
    int64_t x = a.as_int();
    if (x == std::numeric_limits<int64_t>::min()) {
      throw OverflowError("integer overflow: abs(" + std::to_string(x) + ") does not fit in 64 bits (agc's Python "
                          "ints are int64)");
    }
    return Value(x < 0 ? -x : x);
  }
  if (a.is_float()) return Value(std::fabs(a.as_float()));
  if (std::optional<Value> m = special_method(a, "__abs__")) return (*m)({}, {});
  throw TypeError("bad operand type for abs(): '" + a.type_name() + "'");
}

Value augmented_assign(const Value& target, Value result, std::string_view op) {
  if (target.is_list() && result.is_list()) {
    if (!result.is(target)) target.items() = result.items();
    return target;
  }
  // set's |= &= -= ^= change it in place (a frozenset's make a new one).
  if (target.is_set() && !target.as_set().frozen && result.is_set()) {
    if (!result.is(target)) target.as_set() = result.as_set();
    target.as_set().frozen = false;
    return target;
  }
  if (!target.is_ndarray() || ndarray::is_scalar(target) || !result.is_ndarray()) return result;
  Tensor& t = target.as_ndarray().data;
  const Tensor& r = ndarray::tensor(result);
  if (!numpy::can_cast_same_kind(r.dtype(), t.dtype())) {
    // The ufunc the operator is, by its symbol, for NumPy's message.
    std::string ufunc = std::string(op);
    for (BinOp b : {BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::TrueDiv, BinOp::FloorDiv, BinOp::Mod, BinOp::Pow,
                    BinOp::And, BinOp::Or, BinOp::Xor}) {
      if (op_symbol(b) == op || (b == BinOp::Pow && op == "**")) ufunc = ndarray::ufunc_name(numpy_ufunc(b));
    }
    throw TypeError("Cannot cast ufunc '" + ufunc + "' output from dtype('" + numpy::dtype_name(r.dtype()) +
                    "') to dtype('" + numpy::dtype_name(t.dtype()) + "') with casting rule 'same_kind'");
  }
  if (r.shape() != t.shape()) {
    // NumPy prints the broadcast shape without spaces: (2,4).
    std::string dims;
    for (int i = 0; i < r.rank(); ++i) dims += (i ? "," : "") + std::to_string(r.shape().dim(i));
    throw ValueError("non-broadcastable output operand with shape " + t.shape().str() +
                     " doesn't match the broadcast shape (" + dims + (r.rank() == 1 ? ",)" : ")"));
  }
  t = ndarray::cast(r, t.dtype());
  return target;
}

bool py_equal(const Value& a, const Value& b) {
  if (is_intlike(a) && is_intlike(b)) return a.as_int() == b.as_int();
  if (a.is_ndarray() || b.is_ndarray()) return ndarray::equal(a, b);
  if (std::optional<DType> t = numpy::dtype_of_object(a)) return numpy::dtype_equals(*t, b);
  if (std::optional<DType> t = numpy::dtype_of_object(b)) return numpy::dtype_equals(*t, a);
  if (a.is_number() && b.is_number()) {
    if (a.is_float() && b.is_float()) return a.as_float() == b.as_float();
    // int vs float: exact, as Python compares them.
    double f = a.is_float() ? a.as_float() : b.as_float();
    int64_t i = a.is_float() ? b.as_int() : a.as_int();
    if (!std::isfinite(f) || f != std::floor(f)) return false;
    if (f >= 9223372036854775808.0 || f < -9223372036854775808.0) return false;
    return static_cast<int64_t>(f) == i;
  }
  // a.__eq__(b), else b.__eq__(a) (Python's reflected try), else identity.
  for (const auto& [x, y] : {std::pair<const Value&, const Value&>{a, b}, {b, a}}) {
    if (std::optional<Value> eq = special_method(x, "__eq__")) return truthy((*eq)({y}, {}));
  }
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Kind::None: return true;
    case Kind::Str: return a.as_str() == b.as_str();
    case Kind::List:
    case Kind::Tuple: {
      if (a.is(b)) return true;
      const auto& x = a.items();
      const auto& y = b.items();
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i) {
        if (!x[i].is(y[i]) && !py_equal(x[i], y[i])) return false;
      }
      return true;
    }
    case Kind::Dict: {
      const DictObj& x = a.as_dict();
      const DictObj& y = b.as_dict();
      if (x.size() != y.size()) return false;
      for (const auto& [k, v] : x.entries) {
        int64_t j = y.find(k);
        if (j < 0) return false;
        const Value& w = y.entries[static_cast<size_t>(j)].second;
        if (!v.is(w) && !py_equal(v, w)) return false;
      }
      return true;
    }
    case Kind::Set: return set_value::equal(a, b);
    default: return a.is(b);
  }
}

namespace {

/// `a == b` / `a != b` with a NumPy operand: elementwise (NumPy 1.24 compares
/// with None elementwise, and answers a str or an unbroadcastable shape with
/// a plain False / True, as its deprecated fallback does).
Value numpy_equality(bool equal, const Value& a, const Value& b) {
  const Value& arr = a.is_ndarray() ? a : b;
  const Value& other = a.is_ndarray() ? b : a;
  if (is_bytes(a) || is_bytes(b)) return Value(ndarray::equal(a, b) == equal);
  if (other.is_none()) {
    Tensor r = Tensor::zeros(DType::Bool, ndarray::tensor(arr).shape());
    if (!equal) std::fill(r.data<bool>(), r.data<bool>() + r.num_elements(), true);
    return ndarray::result(std::move(r));
  }
  if (!numpy_operand(other)) return Value(!equal);
  ndarray::Binary f = equal ? ndarray::Binary::Equal : ndarray::Binary::NotEqual;
  try {
    return ndarray::apply(f, a, b);
  } catch (const ValueError&) {
    return Value(!equal);  // shapes that do not broadcast
  }
}

}  // namespace

Value operator==(const Value& a, const Value& b) {
  if ((detail::tensor_like(a) && b.is_none()) || (a.is_none() && detail::tensor_like(b))) return Value(false);
  if (detail::tensor_like(a) || detail::tensor_like(b)) return detail::tensor_binary(BinOp::Equal, a, b);
  if (a.is_ndarray() || b.is_ndarray()) return numpy_equality(true, a, b);
  return Value(py_equal(a, b));
}

Value operator!=(const Value& a, const Value& b) {
  if ((detail::tensor_like(a) && b.is_none()) || (a.is_none() && detail::tensor_like(b))) return Value(true);
  if (detail::tensor_like(a) || detail::tensor_like(b)) return detail::tensor_binary(BinOp::NotEqual, a, b);
  if (a.is_ndarray() || b.is_ndarray()) return numpy_equality(false, a, b);
  return Value(!py_equal(a, b));
}

Value operator<(const Value& a, const Value& b) { return ordering(BinOp::Less, a, b); }
Value operator<=(const Value& a, const Value& b) { return ordering(BinOp::LessEqual, a, b); }
Value operator>(const Value& a, const Value& b) { return ordering(BinOp::Greater, a, b); }
Value operator>=(const Value& a, const Value& b) { return ordering(BinOp::GreaterEqual, a, b); }

bool truthy(const Value& v) {
  switch (v.kind()) {
    case Kind::None: return false;
    case Kind::Bool: return v.as_bool();
    case Kind::Int: return v.as_int() != 0;
    case Kind::Float: return v.as_float() != 0.0;
    case Kind::Str: return !v.as_str().empty();
    case Kind::Tensor: return detail::tensor_truthy(v.as_tensor());
    case Kind::List:
    case Kind::Tuple: return !v.items().empty();
    case Kind::Dict: return v.as_dict().size() != 0;
    case Kind::Object:
      if (std::optional<Value> b = special_method(v, "__bool__")) {
        Value r = (*b)({}, {});
        if (!r.is_bool()) throw TypeError("__bool__ should return bool, returned " + r.type_name());
        return r.as_bool();
      }
      return special_method(v, "__len__") ? len(v) != 0 : true;
    case Kind::Callable:
    case Kind::TensorArray: return true;
    // bool(variable) is bool of its value, as for a tensor.
    case Kind::Variable: return detail::tensor_truthy(variable_value::read(v));
    case Kind::NDArray: return ndarray::truthy(v);
    case Kind::Set: return v.as_set().size() != 0;
  }
  return true;
}

Value::operator bool() const { return truthy(*this); }

Value not_(const Value& v) { return Value(!truthy(v)); }

}  // namespace ag
