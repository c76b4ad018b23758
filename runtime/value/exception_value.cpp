#include "runtime/value/exception_value.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>

#include "runtime/value/object_model.h"

namespace ag {
namespace {

/// An exception object's text when it came from a C++ error: str(e) is the
/// error's message as thrown (Python's args may differ, e.g. KeyError's repr).
struct ExceptionState : NativeState {
  std::string message;
};

/// What an error thrown by raise_value carries: the Python object raised, so
/// `except ... as e` gives it back.
class RaisedValue {
 public:
  explicit RaisedValue(Value v) : value_(std::move(v)) {}
  virtual ~RaisedValue() = default;
  const Value& value() const { return value_; }

 private:
  Value value_;
};

/// The ag::Error subclass `Base` (so `catch (const Base&)` catches it) named
/// as the raised object's class (a user's subclass keeps its name).
template <class Base>
class RaisedError : public Base, public RaisedValue {
 public:
  RaisedError(const std::string& message, std::string name, Value v)
      : Base(message), RaisedValue(std::move(v)), name_(std::move(name)) {}
  const char* type_name() const override { return name_.c_str(); }

 private:
  std::string name_;
};

/// Error is abstract; this is the class raise_value throws for exceptions
/// without an ag::Error counterpart (Exception, RuntimeError, ...).
class GenericError : public Error {
 public:
  using Error::Error;
  const char* type_name() const override { return "Exception"; }
};

using Thrower = std::function<void(const std::string& message, const std::string& name, const Value& v)>;

template <class T>
Thrower thrower() {
  return [](const std::string& message, const std::string& name, const Value& v) {
    throw RaisedError<T>(message, name, v);
  };
}

const std::map<std::string, Thrower>& throwers() {
  static const std::map<std::string, Thrower> table = {
      {"InvalidArgumentError", thrower<InvalidArgumentError>()},
      {"FailedPreconditionError", thrower<FailedPreconditionError>()},
      {"OutOfRangeError", thrower<OutOfRangeError>()},
      {"UnimplementedError", thrower<UnimplementedError>()},
      {"InternalError", thrower<InternalError>()},
      {"ResourceExhaustedError", thrower<ResourceExhaustedError>()},
      {"NotFoundError", thrower<NotFoundError>()},
      {"ValueError", thrower<ValueError>()},
      {"TypeError", thrower<TypeError>()},
      {"IndexError", thrower<IndexError>()},
      {"KeyError", thrower<KeyError>()},
      {"ZeroDivisionError", thrower<ZeroDivisionError>()},
      {"OverflowError", thrower<OverflowError>()},
      {"AttributeError", thrower<AttributeError>()},
      {"NameError", thrower<NameError>()},
      {"AssertionError", thrower<AssertionError>()},
      {"NotImplementedError", thrower<NotImplementedError>()},
      {"OperatorNotAllowedInGraphError", thrower<OperatorNotAllowedInGraphError>()},
  };
  return table;
}

/// Python's class hierarchy of the exceptions agc knows: name -> base.
const std::map<std::string, std::string>& known_bases() {
  static const std::map<std::string, std::string> bases = {
      {"Exception", "BaseException"},
      {"ArithmeticError", "Exception"},
      {"LookupError", "Exception"},
      {"RuntimeError", "Exception"},
      {"StopIteration", "Exception"},
      {"ValueError", "Exception"},
      {"TypeError", "Exception"},
      {"AttributeError", "Exception"},
      {"NameError", "Exception"},
      {"AssertionError", "Exception"},
      {"IndexError", "LookupError"},
      {"KeyError", "LookupError"},
      {"ZeroDivisionError", "ArithmeticError"},
      {"OverflowError", "ArithmeticError"},
      {"NotImplementedError", "RuntimeError"},
      {"OperatorNotAllowedInGraphError", "TypeError"},
      {"OpError", "Exception"},
      {"InvalidArgumentError", "OpError"},
      {"FailedPreconditionError", "OpError"},
      {"OutOfRangeError", "OpError"},
      {"UnimplementedError", "OpError"},
      {"InternalError", "OpError"},
      {"ResourceExhaustedError", "OpError"},
      {"NotFoundError", "OpError"},
  };
  return bases;
}

std::vector<Value>& args_of(const Value& self) { return self.getattr("args").items(); }

/// Python's str(exception): '' for no args, str(arg) for one, else repr(args).
std::string exception_str(const Value& self) {
  if (const ExceptionState* st = native_state<ExceptionState>(self)) return st->message;
  const std::vector<Value>& args = args_of(self);
  if (args.empty()) return "";
  bool key_error = false;
  for (const Value& c : mro(self.as_object().cls)) key_error = key_error || class_name(c) == "KeyError";
  if (args.size() == 1) return key_error ? repr(args[0]) : str(args[0]);
  return repr(Value::tuple(args));
}

Value make_base_exception_class() {
  auto method = [](const char* name, std::function<Value(const Value&, std::vector<Value>)> fn) {
    return std::make_pair(std::string(name), Value::callable(name, [fn](std::vector<Value> args, Kwargs kwargs) -> Value {
                            if (!kwargs.empty()) {
                              throw TypeError("BaseException() takes no keyword arguments");
                            }
                            Value self = args.at(0);
                            args.erase(args.begin());
                            return fn(self, std::move(args));
                          }));
  };
  return make_class(
      "BaseException", {},
      {method("__init__",
              [](const Value& self, std::vector<Value> args) {
                self.setattr("args", Value::tuple(std::move(args)));
                return Value();
              }),
       method("__str__", [](const Value& self, std::vector<Value>) { return Value(exception_str(self)); }),
       method("__repr__",
              [](const Value& self, std::vector<Value>) {
                std::string inner = repr(Value::tuple(args_of(self)));
                if (args_of(self).size() == 1) inner = "(" + repr(args_of(self)[0]) + ")";
                return Value(class_name(self.as_object().cls) + inner);
              }),
       {"message", make_property(Value::callable("message", [](std::vector<Value> args, Kwargs) -> Value {
          // TF's OpError.message: the message argument (node_def, op, message).
          const Value& self = args.at(0);
          const std::vector<Value>& a = args_of(self);
          if (native_state<ExceptionState>(self) == nullptr && a.size() == 3) return a[2];
          return Value(exception_str(self));
        }))}});
}

std::mutex g_classes_mu;

}  // namespace

const Value& exception_class(const std::string& type_name) {
  static std::map<std::string, Value> classes;
  std::unique_lock<std::mutex> lock(g_classes_mu);
  auto it = classes.find(type_name);
  if (it != classes.end()) return it->second;
  Value cls;
  if (type_name == "BaseException") {
    cls = make_base_exception_class();
  } else {
    auto b = known_bases().find(type_name);
    std::string base = b == known_bases().end() ? "Exception" : b->second;
    lock.unlock();
    Value base_cls = exception_class(base);
    lock.lock();
    auto again = classes.find(type_name);
    if (again != classes.end()) return again->second;
    cls = make_class(type_name, {base_cls}, {});
  }
  return classes.emplace(type_name, cls).first->second;  // std::map: references stay valid
}

bool is_exception(const Value& v) { return is_instance(v, exception_class("BaseException")); }

Value exception_value(const Error& e) {
  if (const auto* raised = dynamic_cast<const RaisedValue*>(&e)) return raised->value();
  Value v = exception_class(e.type_name())({Value(std::string(e.what()))}, {});
  auto st = std::make_shared<ExceptionState>();
  st->message = e.what();
  v.as_object().native = std::move(st);
  return v;
}

Value make_exception(const std::string& type_name, std::vector<Value> args) {
  return exception_class(type_name)(std::move(args), {});
}

void raise_value(const Value& v) {
  Value exc = is_class(v) && is_subclass(v, exception_class("BaseException")) ? v({}, {}) : v;
  if (!is_exception(exc)) throw TypeError("exceptions must derive from BaseException");
  std::string message = str(exc);
  std::string name = class_name(exc.as_object().cls);
  for (const Value& c : mro(exc.as_object().cls)) {
    auto t = throwers().find(class_name(c));
    if (t != throwers().end()) t->second(message, name, exc);
  }
  throw RaisedError<GenericError>(message, name, exc);
}

}  // namespace ag
