// Python generators. A def whose body yields compiles (as written: AutoGraph
// never converts generators) into a C++20 coroutine returning ag::Generator;
// calling the def makes a generator object that runs the body up to each
// `yield` as its __next__ is called:
//
//   ag::Value plain__count(ag::Value n) {
//     return ag::make_generator(kFile, "count", [](ag::GeneratorFrame& ag_frame, ag::Value n) -> ag::Generator {
//       ...  co_yield i;  ...  co_return ag::Value();
//     }, std::move(n));
//   }
//
// The body's frame is a GeneratorFrame: it lives as long as the generator,
// and each resumption enters a traceback Frame at the body's current line, so
// an exception raised inside shows the generator's line under the caller's,
// as Python's traceback does. `x = yield v` gets what send() sent (None for
// next()); throw(e) raises e at the yield. Destroying a suspended generator
// (close(), or its last reference going) unwinds its body: its `finally`
// clauses and with statements' exits run, as Python's GeneratorExit makes
// them run; an exception they raise is printed and dropped ("Exception
// ignored in: ..."), as Python does.
#pragma once

#include <coroutine>
#include <exception>
#include <utility>

#include "runtime/api/traceback.h"
#include "runtime/value/value.h"

namespace ag {

/// Where a suspended generator body is (generated code calls at()).
class GeneratorFrame : public FramePosition {};

/// The coroutine of a generator body.
class Generator {
 public:
  struct promise_type;
  using Handle = std::coroutine_handle<promise_type>;

  struct promise_type {
    Value yielded;
    Value returned;
    /// What the suspended `yield` evaluates to (send), or raises (throw).
    Value sent;
    Value thrown;
    bool has_thrown = false;
    std::exception_ptr error;

    Generator get_return_object() { return Generator(Handle::from_promise(*this)); }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    struct YieldAwaiter {
      promise_type* p;
      bool await_ready() const noexcept { return false; }
      void await_suspend(Handle) const noexcept {}
      Value await_resume() const;
    };
    YieldAwaiter yield_value(Value v) {
      yielded = std::move(v);
      return {this};
    }
    void return_value(Value v) { returned = std::move(v); }
    void unhandled_exception() { error = std::current_exception(); }
  };

  Generator() = default;
  explicit Generator(Handle h) : h_(h) {}
  Generator(Generator&& o) noexcept : h_(std::exchange(o.h_, {})) {}
  Generator& operator=(Generator&& o) noexcept {
    std::swap(h_, o.h_);
    return *this;
  }
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;
  ~Generator();

  Handle handle() const { return h_; }
  /// Unwinds a suspended body (runs its finally clauses); may throw what they raise.
  void destroy();

 private:
  Handle h_;
};

struct GeneratorState;

namespace detail {
std::shared_ptr<GeneratorState> new_generator_state(const char* file, const char* name);
GeneratorFrame& generator_frame(GeneratorState& s);
Value start_generator(std::shared_ptr<GeneratorState> s, Generator body);
}  // namespace detail

/// The generator object of a call of a generator def: `body(frame, args...)`
/// is its coroutine (not started: Python runs none of the body before the
/// first next()).
template <class Body, class... Args>
Value make_generator(const char* file, const char* name, Body body, Args... args) {
  std::shared_ptr<GeneratorState> s = detail::new_generator_state(file, name);
  Generator g = body(detail::generator_frame(*s), std::move(args)...);
  return detail::start_generator(std::move(s), std::move(g));
}

/// Whether `v` is a generator object.
bool is_generator(const Value& v);

}  // namespace ag
