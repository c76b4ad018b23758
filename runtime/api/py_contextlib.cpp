// Python's contextlib module (py_modules.def's contextlib rows): the context
// managers CPython's contextlib.py defines, with its semantics and messages.
// contextmanager drives a generator (runtime/api/generator.h): __enter__ runs
// it to its yield, __exit__ resumes it, or throws the with body's exception
// into it, so its try/except/finally around the yield decide what happens.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/api/generator.h"
#include "runtime/api/tf_call.h"
#include "runtime/core/error.h"
#include "runtime/value/exception_value.h"
#include "runtime/value/iteration.h"
#include "runtime/value/object_model.h"

namespace ag::pymod::impl {
namespace {

/// The state of one of contextlib's managers: what __enter__ gives and, for
/// contextmanager, the generator.
struct ManagerState : NativeState {
  Value gen;       // contextmanager: the generator
  Value value;     // nullcontext: enter_result; closing: thing
  std::vector<Value> exceptions;  // suppress
};

ManagerState& state(const Value& self) { return *native_state<ManagerState>(self); }

/// A class of contextlib with `enter` and `exit` (exit gets type, value, traceback).
Value manager_class(const char* name, std::function<Value(const Value&)> enter,
                    std::function<Value(const Value&, const Value&, const Value&)> exit) {
  std::vector<std::pair<std::string, Value>> attrs;
  Param self{"self", std::nullopt};
  std::string n(name);
  attrs.push_back(native_method(n + ".__enter__", "__enter__", {self},
                                [enter](const std::vector<Value>& a) { return enter(a[0]); }));
  attrs.push_back(native_method(n + ".__exit__", "__exit__",
                                {self, {"typ", std::nullopt}, {"value", std::nullopt}, {"traceback", std::nullopt}},
                                [exit](const std::vector<Value>& a) { return exit(a[0], a[1], a[2]); }));
  return make_class(name, {}, std::move(attrs));
}

const Value& generator_manager_class() {
  static const Value cls = manager_class(
      "_GeneratorContextManager",
      [](const Value& self) {
        try {
          return py_next(state(self).gen);
        } catch (const StopIteration&) {
          throw RuntimeError("generator didn't yield");
        }
      },
      [](const Value& self, const Value& type, const Value& value) -> Value {
        const Value& gen = state(self).gen;
        if (type.is_none()) {
          try {
            py_next(gen);
          } catch (const StopIteration&) {
            return false;
          }
          throw RuntimeError("generator didn't stop");
        }
        try {
          gen.getattr("throw")({value}, {});
        } catch (const StopIteration&) {
          // The generator caught the exception and finished: it is suppressed.
          return true;
        } catch (const Error& e) {
          // The same exception coming back out is not suppressed (the with
          // statement re-raises it with its own traceback); any other replaces it.
          if (exception_value(e).is(value)) return false;
          throw;
        }
        throw RuntimeError("generator didn't stop after throw()");
      });
  return cls;
}

Value new_manager(const Value& cls, std::shared_ptr<ManagerState> s) { return native_object(cls, std::move(s)); }

}  // namespace

Value contextlib_contextmanager(const TfCall& c) {
  Value func = c["func"];
  return Value::callable("contextmanager", [func](std::vector<Value> args, Kwargs kwargs) {
    auto s = std::make_shared<ManagerState>();
    s->gen = func(std::move(args), std::move(kwargs));
    if (!is_generator(s->gen)) {
      // CPython fails at __enter__ with a TypeError from next(): the same text here, at once.
      throw TypeError("'" + s->gen.type_name() + "' object is not an iterator");
    }
    return new_manager(generator_manager_class(), std::move(s));
  });
}

Value contextlib_suppress(const TfCall& c) {
  static const Value cls = manager_class(
      "suppress", [](const Value&) { return Value(); },
      [](const Value& self, const Value& type, const Value&) -> Value {
        if (type.is_none()) return false;
        for (const Value& e : state(self).exceptions) {
          if (is_subclass(type, e)) return true;
        }
        return false;
      });
  auto s = std::make_shared<ManagerState>();
  s->exceptions = c["exceptions"].items();
  return new_manager(cls, std::move(s));
}

Value contextlib_nullcontext(const TfCall& c) {
  static const Value cls = manager_class(
      "nullcontext", [](const Value& self) { return state(self).value; },
      [](const Value&, const Value&, const Value&) { return Value(); });
  auto s = std::make_shared<ManagerState>();
  s->value = c["enter_result"];
  return new_manager(cls, std::move(s));
}

Value contextlib_closing(const TfCall& c) {
  static const Value cls = manager_class(
      "closing", [](const Value& self) { return state(self).value; },
      [](const Value& self, const Value&, const Value&) {
        state(self).value.getattr("close")({}, {});
        return Value();
      });
  auto s = std::make_shared<ManagerState>();
  s->value = c["thing"];
  return new_manager(cls, std::move(s));
}

}  // namespace ag::pymod::impl
