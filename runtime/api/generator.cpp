#include "runtime/api/generator.h"

#include <cstdio>
#include <memory>

#include "runtime/api/traceback.h"
#include "runtime/core/error.h"
#include "runtime/value/exception_value.h"
#include "runtime/value/object_model.h"

namespace ag {

Value Generator::promise_type::YieldAwaiter::await_resume() const {
  if (p->has_thrown) {
    p->has_thrown = false;
    raise_value(std::exchange(p->thrown, Value()));
  }
  return std::exchange(p->sent, Value());
}

void Generator::destroy() {
  // Handle first, so a finally clause that raises leaves no handle behind.
  if (Handle h = std::exchange(h_, {})) h.destroy();
}

Generator::~Generator() {
  try {
    destroy();
  } catch (...) {
    // Only GeneratorState destroys a suspended body, and it catches; a body
    // at its final suspension has nothing left to unwind.
  }
}

struct GeneratorState : NativeState {
  const char* file;
  const char* name;
  // Before `body`: the body's code refers to it until the body is destroyed.
  GeneratorFrame frame;
  Generator body;
  bool started = false;
  bool running = false;
  bool finished = false;

  GeneratorState(const char* f, const char* n) : file(f), name(n) {}
  ~GeneratorState() override;

  std::string repr() const { return std::string("<generator object ") + name + " at " + address_text(this) + ">"; }

  /// Ends a suspended body as close() does: its finally clauses run.
  void close() {
    finished = true;
    body.destroy();
  }

  /// Runs the body to its next yield: next() sends None, send(v) sends v,
  /// throw(e) raises e at the yield.
  Value resume(Value sent, const Value* thrown) {
    if (running) throw ValueError("generator already executing");
    if (!finished && !started && thrown) finished = true;
    if (finished) {
      if (thrown) raise_value(*thrown);
      throw StopIteration("");
    }
    if (!started && !sent.is_none()) throw TypeError("can't send non-None value to a just-started generator");
    started = true;
    Generator::promise_type& p = body.handle().promise();
    p.sent = std::move(sent);
    if (thrown) {
      p.thrown = *thrown;
      p.has_thrown = true;
    }
    {
      // The body's own frame in the traceback, at the line it is at.
      Frame f(file, name);
      running = true;
      body.handle().resume();
      running = false;
      if (!body.handle().done()) return std::exchange(p.yielded, Value());
      finished = true;
      if (std::exception_ptr e = std::exchange(p.error, nullptr)) {
        static_cast<FramePosition&>(f) = frame;  // where the body raised: its line and expression
        try {
          std::rethrow_exception(e);
        } catch (const StopIteration&) {
          // PEP 479: a StopIteration escaping the body would end the caller's loop silently.
          throw RuntimeError("generator raised StopIteration");
        }
      }
    }
    Value returned = std::exchange(p.returned, Value());
    throw StopIteration(returned.is_none() ? "" : str(returned));
  }
};

GeneratorState::~GeneratorState() {
  if (!started || finished) return;
  try {
    close();
  } catch (const Error& e) {
    // Python reports an exception raised while a dropped generator closes, and goes on.
    std::fflush(stdout);
    std::fprintf(stderr, "Exception ignored in: %s\n%s: %s\n", repr().c_str(), e.type_name(), e.what());
  } catch (...) {
  }
}

namespace {

GeneratorState& state(const Value& self) { return *native_state<GeneratorState>(self); }

const Value& generator_class() {
  static const Value cls = [] {
    std::vector<std::pair<std::string, Value>> attrs;
    Param self{"self", std::nullopt};
    attrs.push_back(native_method("generator.__next__", "__next__", {self},
                                  [](const std::vector<Value>& a) { return state(a[0]).resume(Value(), nullptr); }));
    attrs.push_back(native_method("generator.__iter__", "__iter__", {self}, [](const std::vector<Value>& a) { return a[0]; }));
    attrs.push_back(native_method("generator.send", "send", {self, {"value", std::nullopt}},
                                  [](const std::vector<Value>& a) { return state(a[0]).resume(a[1], nullptr); }));
    attrs.push_back(native_method("generator.throw", "throw", {self, {"value", std::nullopt}},
                                  [](const std::vector<Value>& a) {
                                    // throw(ValueError) raises a new instance of the class.
                                    Value e = is_class(a[1]) ? a[1]({}, {}) : a[1];
                                    return state(a[0]).resume(Value(), &e);
                                  }));
    attrs.push_back(native_method("generator.close", "close", {self}, [](const std::vector<Value>& a) {
      GeneratorState& s = state(a[0]);
      if (s.running) throw ValueError("generator already executing");
      if (!s.finished) s.close();
      return Value();
    }));
    attrs.push_back(native_method("generator.__repr__", "__repr__", {self},
                                  [](const std::vector<Value>& a) { return Value(state(a[0]).repr()); }));
    return make_class("generator", {}, std::move(attrs));
  }();
  return cls;
}

}  // namespace

namespace detail {

std::shared_ptr<GeneratorState> new_generator_state(const char* file, const char* name) {
  return std::make_shared<GeneratorState>(file, name);
}

GeneratorFrame& generator_frame(GeneratorState& s) { return s.frame; }

Value start_generator(std::shared_ptr<GeneratorState> s, Generator body) {
  s->body = std::move(body);
  return native_object(generator_class(), std::move(s));
}

}  // namespace detail

bool is_generator(const Value& v) { return native_state<GeneratorState>(v) != nullptr; }

}  // namespace ag
