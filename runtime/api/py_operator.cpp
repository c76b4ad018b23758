// Python's operator module (py_modules.def's operator rows): the operators as
// functions, computed by the same ag:: operators generated code uses for
// `a + b`, `a @ b`, `a[k]` (so tensors, NumPy arrays and Python values behave
// as they do in expressions), and itemgetter/attrgetter/methodcaller, which
// return callables as CPython's do.
#include <string>
#include <utility>
#include <vector>

#include "runtime/api/python_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/core/error.h"

namespace ag::pymod::impl {
namespace {

/// The row's operator (its `data`) applied to a and b.
Value binary(std::string_view op, const Value& a, const Value& b) {
  if (op == "add") return a + b;
  if (op == "sub") return a - b;
  if (op == "mul") return a * b;
  if (op == "truediv") return a / b;
  if (op == "floordiv") return floordiv(a, b);
  if (op == "mod") return a % b;
  if (op == "pow") return pow(a, b);
  if (op == "matmul") return matmul_operator(a, b);
  if (op == "and_") return a & b;
  if (op == "or_") return a | b;
  if (op == "xor") return a ^ b;
  if (op == "lshift") return a << b;
  if (op == "rshift") return a >> b;
  if (op == "eq") return a == b;
  if (op == "ne") return a != b;
  if (op == "lt") return a < b;
  if (op == "le") return a <= b;
  if (op == "gt") return a > b;
  if (op == "ge") return a >= b;
  if (op == "is_") return Value(a.is(b));
  if (op == "is_not") return Value(!a.is(b));
  throw InternalError("operator: unknown binary operator " + std::string(op));
}

/// getattr(obj, "a.b.c"): one lookup per dotted part, as attrgetter does.
Value dotted_getattr(Value obj, const std::string& path) {
  size_t start = 0;
  while (true) {
    size_t dot = path.find('.', start);
    obj = obj.getattr(std::string_view(path).substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return obj;
    start = dot + 1;
  }
}

}  // namespace

Value operator_binary(const TfCall& c) { return binary(c.data(), c.arg(0), c.arg(1)); }

Value operator_unary(const TfCall& c) {
  const Value& a = c.arg(0);
  std::string_view op = c.data();
  if (op == "neg") return -a;
  if (op == "pos") return +a;
  if (op == "abs") return abs(a);
  if (op == "invert") return ~a;
  if (op == "not_") return not_(a);
  if (op == "truth") return Value(truthy(a));
  if (op == "index") {
    if (!a.is_index()) throw TypeError("'" + a.type_name() + "' object cannot be interpreted as an integer");
    return Value(a.as_int());
  }
  throw InternalError("operator: unknown unary operator " + std::string(op));
}

Value operator_concat(const TfCall& c) {
  const Value& a = c.arg(0);
  // CPython's operator.concat requires a sequence on the left (__getitem__).
  if (!a.is_list() && !a.is_tuple() && !a.is_str()) {
    throw TypeError("'" + a.type_name() + "' object can't be concatenated");
  }
  return a + c.arg(1);
}

Value operator_contains(const TfCall& c) { return Value(contains(c.arg(0), c.arg(1))); }

Value operator_getitem(const TfCall& c) { return getitem(c.arg(0), c.arg(1)); }

Value operator_setitem(const TfCall& c) {
  setitem(c.arg(0), c.arg(1), c.arg(2));
  return Value();
}

Value operator_delitem(const TfCall& c) {
  delitem(c.arg(0), c.arg(1));
  return Value();
}

Value operator_itemgetter(const TfCall& c) {
  std::vector<Value> items = c["items"].items();
  if (items.empty()) throw TypeError("itemgetter expected 1 argument, got 0");
  return Value::callable("operator.itemgetter", [items](std::vector<Value> args, Kwargs kwargs) {
    if (!kwargs.empty()) throw TypeError("itemgetter() takes no keyword arguments");
    if (args.size() != 1) {
      throw TypeError("itemgetter expected 1 argument, got " + std::to_string(args.size()));
    }
    if (items.size() == 1) return getitem(args[0], items[0]);
    std::vector<Value> out;
    for (const Value& k : items) out.push_back(getitem(args[0], k));
    return Value::tuple(std::move(out));
  });
}

Value operator_attrgetter(const TfCall& c) {
  std::vector<std::string> names;
  for (const Value& v : c["attrs"].items()) {
    if (!v.is_str()) throw TypeError("attribute name must be a string");
    names.push_back(v.as_str());
  }
  if (names.empty()) throw TypeError("attrgetter expected 1 argument, got 0");
  return Value::callable("operator.attrgetter", [names](std::vector<Value> args, Kwargs kwargs) {
    if (!kwargs.empty()) throw TypeError("attrgetter() takes no keyword arguments");
    if (args.size() != 1) {
      throw TypeError("attrgetter expected 1 argument, got " + std::to_string(args.size()));
    }
    if (names.size() == 1) return dotted_getattr(args[0], names[0]);
    std::vector<Value> out;
    for (const std::string& n : names) out.push_back(dotted_getattr(args[0], n));
    return Value::tuple(std::move(out));
  });
}

Value operator_methodcaller(const TfCall& c) {
  const Value& name = c["name"];
  if (!name.is_str()) throw TypeError("method name must be a string");
  std::string method = name.as_str();
  std::vector<Value> frozen = c["args"].items();
  Kwargs frozen_kw;
  for (const auto& [k, v] : c["kwargs"].as_dict().entries) frozen_kw.emplace_back(k.as_str(), v);
  return Value::callable("operator.methodcaller", [method, frozen, frozen_kw](std::vector<Value> args, Kwargs kwargs) {
    if (!kwargs.empty()) throw TypeError("methodcaller() takes no keyword arguments");
    if (args.size() != 1) {
      throw TypeError("methodcaller expected 1 argument, got " + std::to_string(args.size()));
    }
    return args[0].getattr(method)(frozen, frozen_kw);
  });
}

}  // namespace ag::pymod::impl
