// Python's traceback module (py_modules.def's traceback rows): format_exc and
// print_exc of the exception the enclosing `except` clause is handling
// (HandledException, traceback.h), in CPython 3.11's text: the frames from
// the handling one down to where it was raised, limited as `limit` says, then
// "Type: message". Outside a handler there is none: "NoneType: None".
// The ^~~ marks under a line are laid out as the traceback module lays them
// out (TracebackStyle::Module).
#include <iostream>
#include <string>
#include <vector>

#include "runtime/api/py_sys.h"
#include "runtime/api/program.h"
#include "runtime/api/tf_call.h"
#include "runtime/api/traceback.h"
#include "runtime/core/error.h"
#include "runtime/value/exception_value.h"

namespace ag::pymod::impl {
namespace {

std::string format_exc(const Value& limit) {
  const HandledException* h = HandledException::current();
  if (h == nullptr) return "NoneType: None\n";
  std::vector<TracebackEntry> entries = h->entries();  // innermost first
  if (!limit.is_none()) {
    if (!limit.is_index()) throw TypeError("'" + limit.type_name() + "' object cannot be interpreted as an integer");
    // limit >= 0: the outermost `limit` frames; limit < 0: the innermost -limit.
    const int64_t n = limit.as_int();
    const size_t keep = static_cast<size_t>(n >= 0 ? n : -n);
    if (keep < entries.size()) {
      if (n >= 0) {
        entries.erase(entries.begin(), entries.end() - static_cast<std::ptrdiff_t>(keep));
      } else {
        entries.resize(keep);
      }
    }
  }
  return format_traceback(entries, traceback_type_name(h->error().type_name()), h->error().what(), source_of,
                          TracebackStyle::Module);
}

}  // namespace

Value traceback_format_exc(const TfCall& c) { return Value(format_exc(c["limit"])); }

Value traceback_print_exc(const TfCall& c) {
  // As print(..., file=file): sys.stderr by default, any object with write().
  const Value& file = c["file"];
  std::string text = format_exc(c["limit"]);
  if (file.is_none()) {
    write_standard_stream("stderr", text);
  } else if (const char* stream = standard_stream(file)) {
    write_standard_stream(stream, text);
  } else {
    file.getattr("write")({Value(text)}, {});
  }
  return Value();
}

}  // namespace ag::pymod::impl
