// Python's `with` statement (PEP 343) for generated code. `with A() as a:
// body` is emitted as
//
//   {
//     ag::WithStatement ag_with(A());      // looks up __enter__ and __exit__
//     try {
//       a = ag_with.enter();
//       body                               // return/break/continue allowed
//     } catch (const ag::Error& ag_error) {
//       if (!ag_with.exit_with(ag_error)) throw;  // __exit__(type, value, None)
//     }
//   }                                      // ~WithStatement: __exit__(None, None, None)
//
// and several items nest, the first outermost, as Python defines them. A
// truthy result of __exit__ swallows the exception; an exception raised by
// __exit__ replaces it.
#pragma once

#include <vector>

#include "runtime/api/traceback.h"
#include "runtime/core/error.h"
#include "runtime/value/value.h"

namespace ag {

class WithStatement {
 public:
  /// TypeError in CPython 3.11's words when the manager's class lacks
  /// __enter__ or __exit__.
  explicit WithStatement(const Value& manager);
  ~WithStatement() noexcept(false);
  WithStatement(const WithStatement&) = delete;
  WithStatement& operator=(const WithStatement&) = delete;

  /// Calls __enter__; its result is what `as` binds.
  Value enter();
  /// The body raised `e`: calls __exit__(type(e), e, None). True when it
  /// swallowed the exception; false to rethrow it (its traceback kept).
  bool exit_with(const Error& e);

 private:
  Value enter_;
  Value exit_;
  bool exited_ = false;
  int uncaught_at_entry_;
};

}  // namespace ag
