#include "runtime/value/exception_value.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

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
/// whose nearest known class is Exception or BaseException (ag::Error).
class GenericError : public Error {
 public:
  using Error::Error;
  const char* type_name() const override { return "Exception"; }
};

template <class Base>
[[noreturn]] void throw_as(const std::string& message, const std::string& name, const Value& v) {
  throw RaisedError<Base>(message, name, v);
}

/// A row of exceptions.def: the class's Python name, base and module, TF's
/// error code (0: none) and how raise_value throws an instance of it.
struct ExceptionRow {
  std::string_view name;
  std::string_view base;
  std::string_view module;
  int code;
  void (*raise)(const std::string& message, const std::string& name, const Value& v);
};

constexpr std::string_view kBuiltinsModule = "builtins";
constexpr std::string_view kTfErrorsModule = "tensorflow.python.framework.errors_impl";

constexpr ExceptionRow kExceptionRows[] = {
#define AG_EXCEPTION_ROOT(Name, Base) {#Name, #Base, kBuiltinsModule, 0, &throw_as<GenericError>},
#define AG_EXCEPTION(Name, Base) {#Name, #Base, kBuiltinsModule, 0, &throw_as<Name>},
#define AG_TF_ERROR(Name, Base, code) {#Name, #Base, kTfErrorsModule, code, &throw_as<Name>},
#include "runtime/core/exceptions.def"
#undef AG_EXCEPTION_ROOT
#undef AG_EXCEPTION
#undef AG_TF_ERROR
};

const ExceptionRow* find_row(std::string_view name) {
  for (const ExceptionRow& r : kExceptionRows) {
    if (r.name == name) return &r;
  }
  return nullptr;
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

/// BaseException, the root of the exception classes: Python's args, str and
/// repr, TF's OpError.message; `attrs` are its own attributes from its row.
Value make_base_exception_class(std::vector<std::pair<std::string, Value>> attrs) {
  auto method = [](const char* name, std::function<Value(const Value&, std::vector<Value>)> fn) {
    return std::make_pair(std::string(name), Value::callable(name, [fn](std::vector<Value> args, Kwargs kwargs) -> Value {
                            Value self = args.at(0);
                            if (!kwargs.empty()) {
                              throw TypeError(class_name(self.as_object().cls) + "() takes no keyword arguments");
                            }
                            args.erase(args.begin());
                            return fn(self, std::move(args));
                          }));
  };
  std::vector<std::pair<std::string, Value>> methods = {
      method("__init__",
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
       }))}};
  methods.insert(methods.end(), attrs.begin(), attrs.end());
  return make_class("BaseException", {}, std::move(methods));
}

std::mutex g_classes_mu;

}  // namespace

const Value& exception_class(const std::string& type_name) {
  static std::map<std::string, Value> classes;
  std::unique_lock<std::mutex> lock(g_classes_mu);
  auto it = classes.find(type_name);
  if (it != classes.end()) return it->second;
  const ExceptionRow* row = find_row(type_name);
  // The class's own attributes: the module its repr names, TF's error code.
  std::vector<std::pair<std::string, Value>> attrs;
  if (row) attrs.emplace_back("__module__", Value(std::string(row->module)));
  if (row && row->code != 0) attrs.emplace_back("error_code", Value(static_cast<int64_t>(row->code)));
  Value cls;
  if (row && row->base.empty()) {
    cls = make_base_exception_class(std::move(attrs));
  } else {
    std::string base(row ? row->base : "Exception");
    lock.unlock();
    Value base_cls = exception_class(base);
    lock.lock();
    auto again = classes.find(type_name);
    if (again != classes.end()) return again->second;
    cls = make_class(type_name, {base_cls}, std::move(attrs));
  }
  return classes.emplace(type_name, cls).first->second;  // std::map: references stay valid
}

bool is_exception(const Value& v) { return is_instance(v, exception_class("BaseException")); }

bool is_known_exception(std::string_view type_name) { return find_row(type_name) != nullptr; }

std::string traceback_type_name(std::string_view type_name) {
  const ExceptionRow* row = find_row(type_name);
  if (row == nullptr || row->module == kBuiltinsModule) return std::string(type_name);
  return std::string(row->module) + "." + std::string(type_name);
}

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

void raise_key_error(const Value& key) { raise_value(make_exception("KeyError", {key})); }

bool exception_matches(const Error& e, const Value& spec) {
  // Python checks every class of a tuple before matching any.
  std::vector<Value> classes = spec.is_tuple() ? spec.items() : std::vector<Value>{spec};
  for (const Value& c : classes) {
    if (!is_class(c) || !is_subclass(c, exception_class("BaseException"))) {
      throw TypeError("catching classes that do not inherit from BaseException is not allowed");
    }
  }
  Value exc = exception_value(e);
  for (const Value& c : classes) {
    if (is_instance(exc, c)) return true;
  }
  return false;
}

void raise_value(const Value& v) {
  Value exc = is_class(v) && is_subclass(v, exception_class("BaseException")) ? v({}, {}) : v;
  if (!is_exception(exc)) throw TypeError("exceptions must derive from BaseException");
  std::string message = str(exc);
  std::string name = class_name(exc.as_object().cls);
  // The nearest class in the MRO with a C++ counterpart (a user's class
  // derives from one; BaseException's row ends every MRO).
  for (const Value& c : mro(exc.as_object().cls)) {
    if (const ExceptionRow* row = find_row(class_name(c))) row->raise(message, name, exc);
  }
  throw RaisedError<GenericError>(message, name, exc);
}

}  // namespace ag
