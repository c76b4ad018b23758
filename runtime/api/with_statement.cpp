#include "runtime/api/with_statement.h"

#include <exception>

#include "runtime/value/exception_value.h"
#include "runtime/value/object_model.h"

namespace ag {
namespace {

/// Python looks the protocol's methods up on the type, never the instance.
Value protocol_method(const Value& manager, const char* name, const char* missing) {
  if (std::optional<Value> m = special_method(manager, name)) return *m;
  throw TypeError("'" + manager.type_name() + "' object does not support the context manager protocol" + missing);
}

}  // namespace

WithStatement::WithStatement(const Value& manager)
    : enter_(protocol_method(manager, "__enter__", "")),
      exit_(protocol_method(manager, "__exit__", " (missed __exit__ method)")),
      uncaught_at_entry_(std::uncaught_exceptions()) {}

WithStatement::~WithStatement() noexcept(false) {
  // Unwinding past the statement with an exception the body's handler did
  // not take (not an ag::Error): Python would not get here either.
  if (exited_ || std::uncaught_exceptions() > uncaught_at_entry_) return;
  exited_ = true;
  exit_({Value(), Value(), Value()}, {});
}

Value WithStatement::enter() { return enter_({}, {}); }

bool WithStatement::exit_with(const Error& e) {
  exited_ = true;
  std::vector<TracebackEntry> traceback = take_traceback();
  Value value = exception_value(e);
  Value type = value.is_object() ? value.as_object().cls : Value();
  if (truthy(exit_({type, value, Value()}, {}))) return true;
  restore_traceback(std::move(traceback));
  return false;
}

}  // namespace ag
