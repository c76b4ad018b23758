// ag::Value: the dynamic Python value generated code computes with. Python
// semantics at trace time: `3 + 4` is a Python int (overflow is an
// OverflowError, never a wrap), `tensor + 4` is a TF op through apply_op()
// (eager now, or a node of the graph being traced). Lists, dicts and objects
// are shared by reference as in Python; tuples are immutable.
//
// Operators: value_ops.cpp (arithmetic, comparison, truthiness), value_index.cpp
// (indexing, slicing, len, in), value_str.cpp (str/repr), value_format.cpp
// (f-string format specs), value_dict.cpp (dict, hashing), value_methods.cpp
// (list/dict/str methods), value.cpp (accessors, attributes, calls);
// tensor_dispatch.cpp (tensor operands), convert.cpp (literals to tensors).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/graph/tracing.h"

namespace ag {

class Value;

/// The kinds of Python values. The order is the alternative order of
/// Value's storage; later kinds are appended.
enum class Kind : uint8_t {
  None, Bool, Int, Float, Str, Tensor, List, Tuple, Dict, Callable, Object, TensorArray, Variable, NDArray, Set
};

/// Keyword arguments of a call, in call order.
using Kwargs = std::vector<std::pair<std::string, Value>>;
using CallFn = std::function<Value(std::vector<Value> args, Kwargs kwargs)>;

struct ListObj;
struct TupleObj;
struct DictObj;
struct CallableObj;
struct ObjectObj;
struct TensorArrayObj;  // runtime/value/tensor_array.h
class Variable;         // runtime/core/variable.h; operations in runtime/value/variable_value.h
struct UserFunction;    // runtime/value/user_function.h
struct NativeState;     // runtime/value/object_model.h
struct NDArrayObj;      // runtime/value/ndarray.h: a NumPy array or scalar
struct SetObj;          // runtime/value/set_value.h: a set or frozenset

/// A slice `start:stop:step`; each part may be None.
struct SliceSpec;

class Value {
 public:
  /// None.
  Value() = default;
  // Out of line (value.cpp): copying, moving or destroying the variant is a
  // visit over its 15 alternatives, which inlined into every generated
  // function was most of a generated file's compile time.
  Value(const Value& other);
  Value(Value&& other) noexcept;
  Value& operator=(const Value& other);
  Value& operator=(Value&& other) noexcept;
  ~Value();
  Value(std::nullptr_t) {}                             // NOLINT: None
  Value(bool b) : v_(b) {}                             // NOLINT
  Value(int i) : v_(static_cast<int64_t>(i)) {}        // NOLINT
  Value(long i) : v_(static_cast<int64_t>(i)) {}       // NOLINT
  Value(long long i) : v_(static_cast<int64_t>(i)) {}  // NOLINT
  Value(double f) : v_(f) {}                           // NOLINT
  Value(float f) : v_(static_cast<double>(f)) {}       // NOLINT
  Value(const char* s) : v_(std::make_shared<const std::string>(s)) {}             // NOLINT
  Value(std::string s) : v_(std::make_shared<const std::string>(std::move(s))) {}  // NOLINT
  Value(std::string_view s) : v_(std::make_shared<const std::string>(s)) {}        // NOLINT
  Value(TensorHandle t) : v_(std::move(t)) {}          // NOLINT
  Value(Tensor t) : v_(TensorHandle(std::move(t))) {}  // NOLINT
  Value(Output o) : v_(TensorHandle(o)) {}             // NOLINT

  /// A new list (shared by reference from then on).
  static Value list(std::vector<Value> items = {});
  static Value tuple(std::vector<Value> items = {});
  /// A new dict; later duplicates of a key replace earlier ones, as in `{...}`.
  static Value dict(std::vector<std::pair<Value, Value>> items = {});
  /// `user`: set for a Python function (runtime/function/function_value.h).
  static Value callable(std::string name, CallFn fn, std::shared_ptr<UserFunction> user = nullptr);
  /// One of Python's builtins: a type (`is_type`: int, list, ...) or a function.
  static Value builtin(std::string name, CallFn fn, bool is_type);
  /// A new object of class `class_name` with no attributes.
  static Value object(std::string class_name);
  /// Python's `...` (Ellipsis): one object of class 'ellipsis' per process.
  static Value ellipsis();
  /// A tf.TensorArray (make one with tensor_array::create()).
  static Value tensor_array(std::shared_ptr<TensorArrayObj> ta);
  /// A tf.Variable (make one with variable_value::create()).
  static Value variable(std::shared_ptr<Variable> var);
  /// A NumPy array or scalar (make one with ndarray::array() / ndarray::scalar()).
  static Value ndarray(std::shared_ptr<NDArrayObj> a);
  /// A set or frozenset (make one with set_value::make()).
  static Value set(std::shared_ptr<SetObj> s);

  Kind kind() const { return static_cast<Kind>(v_.index()); }
  bool is_none() const { return kind() == Kind::None; }
  bool is_bool() const { return kind() == Kind::Bool; }
  bool is_int() const { return kind() == Kind::Int; }
  bool is_float() const { return kind() == Kind::Float; }
  bool is_str() const { return kind() == Kind::Str; }
  bool is_tensor() const { return kind() == Kind::Tensor; }
  bool is_list() const { return kind() == Kind::List; }
  bool is_tuple() const { return kind() == Kind::Tuple; }
  bool is_dict() const { return kind() == Kind::Dict; }
  bool is_callable() const { return kind() == Kind::Callable; }
  bool is_object() const { return kind() == Kind::Object; }
  bool is_ellipsis() const;
  bool is_tensor_array() const { return kind() == Kind::TensorArray; }
  bool is_variable() const { return kind() == Kind::Variable; }
  bool is_ndarray() const { return kind() == Kind::NDArray; }
  /// A set or a frozenset (SetObj::frozen tells them apart).
  bool is_set() const { return kind() == Kind::Set; }
  /// bool, int or float (Python's numbers.Real).
  bool is_number() const { return is_bool() || is_int() || is_float(); }
  /// What Python's __index__ accepts (list indices, range()): an int, a bool
  /// or a NumPy integer scalar; as_int() reads it.
  bool is_index() const;

  /// The payload; TypeError naming the actual type when the kind differs.
  bool as_bool() const;
  /// An int or a bool (True is 1, as Python's int subclass), or a NumPy
  /// integer or bool scalar (what Python's __index__ accepts).
  int64_t as_int() const;
  /// A float, int or bool as a double, or a NumPy number scalar (__float__).
  double as_float() const;
  const std::string& as_str() const;
  const TensorHandle& as_tensor() const;
  /// The items of a list (mutable: the list is shared) or tuple.
  std::vector<Value>& items() const;
  DictObj& as_dict() const;
  const CallableObj& as_callable() const;
  ObjectObj& as_object() const;
  TensorArrayObj& as_tensor_array() const;
  const std::shared_ptr<Variable>& as_variable() const;
  NDArrayObj& as_ndarray() const;
  SetObj& as_set() const;

  /// Python's type name: "NoneType", "bool", "int", "float", "str", "list",
  /// "tuple", "dict", "function", the class name of an object, for
  /// tensors TF's class ("EagerTensor" / "SymbolicTensor"), for NumPy values
  /// "numpy.ndarray", "numpy.float32", ... (the names Python's errors print).
  std::string type_name() const;

  /// Python truthiness, so `if (v)` reads as Python's `if v:` (truthy()).
  explicit operator bool() const;

  /// `a is b`: same object for reference kinds, same value for the others.
  bool is(const Value& o) const;

  // Attributes (an object's, a builtin kind's methods, a tensor's dtype/shape/
  // name/ndim) and calls.
  Value getattr(std::string_view name) const;
  void setattr(std::string_view name, Value v) const;
  bool hasattr(std::string_view name) const;
  Value operator()(std::vector<Value> args = {}, Kwargs kwargs = {}) const;

 private:
  // strs are immutable and shared (cheap copies; also keeps GCC 12's
  // -Wmaybe-uninitialized false positive on variant<std::string> away).
  using Storage =
      std::variant<std::monostate, bool, int64_t, double, std::shared_ptr<const std::string>, TensorHandle,
                   std::shared_ptr<ListObj>, std::shared_ptr<TupleObj>, std::shared_ptr<DictObj>,
                   std::shared_ptr<CallableObj>, std::shared_ptr<ObjectObj>, std::shared_ptr<TensorArrayObj>,
                   std::shared_ptr<Variable>, std::shared_ptr<NDArrayObj>, std::shared_ptr<SetObj>>;
  static_assert(std::variant_size_v<Storage> == static_cast<size_t>(Kind::Set) + 1,
                "Kind lists the storage alternatives in order");
  Storage v_;

  friend class WeakValue;
};

/// A reference that does not keep an object (a class instance) or a function
/// alive, as Python's weakref.ref: lock() gives it, or None once it is gone.
/// Values of other kinds are held as they are (Python cannot reference them
/// weakly either).
class WeakValue {
 public:
  WeakValue() = default;
  explicit WeakValue(const Value& v);
  Value lock() const;
  bool expired() const;

 private:
  std::weak_ptr<ObjectObj> object_;
  std::weak_ptr<CallableObj> callable_;
  Value other_;
};

struct ListObj {
  std::vector<Value> items;
};
struct TupleObj {
  std::vector<Value> items;
};

/// An insertion-ordered dict. Keys must be hashable (None, bool, int, float,
/// str, tuples of those; a tensor key is TF's TypeError). Change entries only
/// through set() and erase(): they keep the hash index.
struct DictObj {
  std::vector<std::pair<Value, Value>> entries;
  /// A dict of one of the collections module's dict subclasses: what a
  /// missing key does, its methods and how it prints (value_dict.cpp).
  enum class Flavor : uint8_t { Dict, DefaultDict, OrderedDict, Counter };
  Flavor flavor = Flavor::Dict;
  /// defaultdict's default_factory (None: a missing key is a KeyError).
  Value default_factory;

  /// The entry index of `key`, or -1.
  int64_t find(const Value& key) const;
  /// d[key]; KeyError (Python's text: the key's repr) when absent.
  const Value& at(const Value& key) const;
  /// d[key] as a subscript evaluates it: a defaultdict adds a missing key's
  /// default_factory(), a Counter gives 0 for it, others raise KeyError.
  Value subscript(const Value& key);
  void set(const Value& key, Value v);
  /// del d[key]; KeyError when absent.
  void erase(const Value& key);
  void clear() {
    entries.clear();
    index_.clear();
  }
  size_t size() const { return entries.size(); }

 private:
  void reindex();
  std::unordered_multimap<size_t, size_t> index_;  // hash -> entry
};

/// A Counter's entries most common first, ties in insertion order
/// (Counter.most_common()).
std::vector<std::pair<Value, Value>> counter_most_common(const Value& counter);

struct CallableObj {
  /// How Python prints it: a def's `<function f at 0x...>`, a builtin
  /// function's `<built-in function len>`, a builtin type's `<class 'int'>`.
  enum class Printed { Function, BuiltinFunction, BuiltinType };
  std::string name;
  CallFn fn;
  /// A user function's parameters and body (make_function in runtime/
  /// function/function_value.h), null for other callables: tf.function and
  /// method binding read them.
  std::shared_ptr<UserFunction> user = nullptr;
  Printed printed = Printed::Function;
};

/// An object: an instance of a class (runtime/value/object_model.h), a class
/// itself (class_name "type"), or one of the runtime's plain objects.
struct ObjectObj {
  std::string class_name;
  std::vector<std::pair<std::string, Value>> attrs;
  /// The object's class; None for the runtime's plain objects (TensorSpec,
  /// Undefined), whose attributes are their own only.
  Value cls = Value();
  /// The state of objects the runtime implements natively (a class's layout,
  /// a tf.function, a graph, an exception): their class's methods reach it.
  std::shared_ptr<NativeState> native = nullptr;
};

// ---- Python operators (value_ops.cpp). A tensor operand makes each a TF op.
Value operator+(const Value& a, const Value& b);
Value operator-(const Value& a, const Value& b);
Value operator*(const Value& a, const Value& b);
/// Python's `/`: int / int is a float; tensors use TF's truediv.
Value operator/(const Value& a, const Value& b);
/// Python's `%` (floor modulo: the sign of the divisor).
Value operator%(const Value& a, const Value& b);
Value operator-(const Value& a);
Value operator+(const Value& a);
/// Python's `~` on ints; logical not on bool tensors.
Value operator~(const Value& a);
Value operator&(const Value& a, const Value& b);
Value operator|(const Value& a, const Value& b);
Value operator^(const Value& a, const Value& b);
Value operator<<(const Value& a, const Value& b);
Value operator>>(const Value& a, const Value& b);
/// Python's `//`.
Value floordiv(const Value& a, const Value& b);
/// Python's `**`.
Value pow(const Value& a, const Value& b);
/// Python's abs().
Value abs(const Value& a);
/// What `target op= operand` leaves in the target, given `result`, the value
/// of `target op operand` (`op` is the operator's symbol, "+"): a NumPy array
/// or a list is changed in place to hold the result and returned, as their
/// __iadd__ and friends do, so every name for it sees the change (NumPy's
/// TypeError when the result's dtype cannot be cast to the array's by its
/// 'same_kind' rule, ValueError when its shape is not the array's); any other
/// target takes `result`.
Value augmented_assign(const Value& target, Value result, std::string_view op);

// Comparisons: a Python bool, or a bool tensor when an operand is a tensor.
Value operator==(const Value& a, const Value& b);
Value operator!=(const Value& a, const Value& b);
Value operator<(const Value& a, const Value& b);
Value operator<=(const Value& a, const Value& b);
Value operator>(const Value& a, const Value& b);
Value operator>=(const Value& a, const Value& b);

/// Python's == for non-tensor values as a C++ bool (tensors: identity).
bool py_equal(const Value& a, const Value& b);
/// Python's bool(v). A symbolic tensor raises OperatorNotAllowedInGraphError.
bool truthy(const Value& v);
/// Python's `not v`.
Value not_(const Value& v);

// ---- Indexing (value_index.cpp).
struct SliceSpec {
  Value start, stop, step;
};
/// Python's slice.indices(n): the normalized start, stop and step, and the
/// number of items the slice takes.
struct SliceRange {
  int64_t start, stop, step, count;
};
SliceRange slice_indices(int64_t n, const SliceSpec& s);
/// A slice object (Python's slice(start, stop, step)): what an object's
/// __getitem__ gets for the slices of `obj[a:b, k]`; as_slice reads one back.
Value slice_object(const SliceSpec& s);
std::optional<SliceSpec> as_slice(const Value& v);
/// len(v); TypeError "object of type 'int' has no len()".
int64_t len(const Value& v);
/// v[key] for lists, tuples, strs (ints, negative from the end) and dicts.
Value getitem(const Value& v, const Value& key);
/// One part of a subscript: an int (or None: tf.newaxis) or a slice.
using IndexPart = std::variant<Value, SliceSpec>;
/// v[p0, p1, ...] with slices, e.g. `x[:, 0]` (TF's StridedSlice for tensors).
Value getitem(const Value& v, const std::vector<IndexPart>& parts);
/// v[start:stop:step] for lists, tuples, strs and tensors.
Value getslice(const Value& v, const SliceSpec& s);
/// v[key] = x for lists, dicts and NumPy arrays.
void setitem(const Value& v, const Value& key, Value x);
/// v[p0, p1, ...] = x with slices: NumPy arrays (`a[:, 0] = 1`) and a list's
/// slice assignment (`l[1:3] = [7]`).
void setitem(const Value& v, const std::vector<IndexPart>& parts, Value x);
/// del v[key].
void delitem(const Value& v, const Value& key);
/// `item in container`.
bool contains(const Value& container, const Value& item);
/// Python's list(v) of the items of a list, tuple, str or dict (its keys).
std::vector<Value> iterate(const Value& v);

// ---- Hashing (value_containers.cpp).
/// Python's hash() for hashable kinds: 1, 1.0 and True hash alike. TypeError
/// "unhashable type: 'list'" for lists, dicts and objects used as keys.
size_t hash(const Value& v);

// ---- Text (value_str.cpp, value_format.cpp).
/// Python's str(v).
std::string str(const Value& v);
/// Python's repr(v).
std::string repr(const Value& v);
/// A pointer as CPython's reprs print addresses ("0x7f3a..."): `<function f at 0x...>`.
std::string address_text(const void* p);
/// The method `name` of a list, tuple, dict or str bound to `self` (list.append,
/// dict.get, str.join, str.format, ...), or nullopt (value_methods.cpp).
std::optional<Value> builtin_method(const Value& self, std::string_view name);

/// Python's repr(float): shortest round-trip digits (0.1, 1e+16, 1.0, inf, nan).
std::string float_repr(double d);
/// format(v, spec), what `f'{v:spec}'` prints.
std::string format(const Value& v, std::string_view spec);
/// The element of a one-element eager tensor as a Python value (bool, int,
/// float or str), as NumPy's scalars convert.
Value scalar_value(const Tensor& t);
/// `fmt % args`: printf-style formatting of str (percent_format.cpp).
std::string percent_format(const std::string& fmt, const Value& args);
/// Python's print(*args): str of each joined by `sep`, then `end`, to stdout.
void print(const std::vector<Value>& args, std::string_view sep = " ", std::string_view end = "\n");

}  // namespace ag
