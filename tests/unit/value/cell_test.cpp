// Closure cells as generated code uses them (runtime/value/cell.h): shared
// between a frame and the closures it makes, alive as long as a closure is,
// and the weak self-reference that keeps a recursive closure free of cycles.
// Under LeakSanitizer (scripts/sanitize.sh) a cycle left here would fail too.
#include <doctest/doctest.h>

#include "runtime/function/function_value.h"
#include "runtime/value/cell.h"

using namespace ag;

namespace {

/// def make_counter():
///   count = 0
///   def inc():
///     nonlocal count
///     count += 1
///     return count
///   return inc
Value make_counter() {
  Cell count(Value(0));
  Value inc = make_function("inc", {}, [count](const std::vector<Value>&) -> Value {
    *count = *count + Value(1);
    return *count;
  });
  return inc;
}

/// def outer():
///   def fact(k):
///     return 1 if k <= 1 else k * fact(k - 1)
///   return fact
Value make_fact() {
  SelfRef self;
  return self.bind(make_function("fact", {{"k", {}}}, [self](const std::vector<Value>& args) -> Value {
    Value fact = self.get();
    Value k = args[0];
    return truthy(k <= Value(1)) ? Value(1) : k * fact({k - Value(1)});
  }));
}

}  // namespace

TEST_CASE("a cell is one variable shared by its copies") {
  Cell a(Value(1));
  Cell b = a;
  *b = Value(2);
  CHECK((*a).as_int() == 2);
  CHECK(a->is_int());
  Cell fresh;
  CHECK((*fresh).is_none());
}

TEST_CASE("a closure keeps its cell after the frame that made it returned") {
  Value c = make_counter();
  c({});
  CHECK(c({}).as_int() == 2);
  Value other = make_counter();
  CHECK(other({}).as_int() == 1);  // each call of make_counter has its own cell
  CHECK(c({}).as_int() == 3);
}

TEST_CASE("a closure sees assignments made after it was created (late binding)") {
  Cell x(Value(1));
  Value get = make_function("<lambda>", {}, [x](const std::vector<Value>&) -> Value { return *x; });
  *x = Value(2);
  CHECK(get({}).as_int() == 2);
}

TEST_CASE("a recursive closure reaches itself weakly: it works after its frame, and is freed when dropped") {
  Value fact = make_fact();
  CHECK(fact({Value(5)}).as_int() == 120);
  WeakValue weak(fact);
  CHECK(!weak.expired());
  fact = Value();
  CHECK(weak.expired());  // no cycle kept it alive
  CHECK(weak.lock().is_none());
}

TEST_CASE("a weak reference to a function does not keep it alive") {
  Value f = make_function("f", {}, [](const std::vector<Value>&) -> Value { return Value(); });
  WeakValue weak(f);
  CHECK(weak.lock().is(f));
  f = Value();
  CHECK(weak.expired());
}
