// A runtime test helper: what an ag::Error raised by `f` prints as Python
// shows an exception, "ValueError: message" ("<no error>" when none is).
#pragma once

#include <string>
#include <utility>

#include "runtime/core/error.h"

namespace ag::test {

template <class F>
std::string error_text(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return std::string(e.type_name()) + ": " + e.what();
  }
  return "<no error>";
}

/// The error text of `f` with Keras's call context taken off (the
/// innermost layer's "Exception encountered when calling layer ..." and
/// "Call arguments received by ..." paragraphs, call_context.h): "ValueError:
/// <the message call() raised>".
template <class F>
std::string call_error_text(F&& f) {
  std::string text = error_text(std::forward<F>(f));
  const std::string head = "Exception encountered when calling layer ";
  size_t colon = text.find(": ");
  if (colon == std::string::npos || text.compare(colon + 2, head.size(), head) != 0) return text;
  size_t begin = text.find("\n\n", colon);
  size_t end = text.rfind("\n\nCall arguments received by ");
  if (begin == std::string::npos || end == std::string::npos || end < begin) return text;
  return text.substr(0, colon + 2) + text.substr(begin + 2, end - begin - 2);
}

}  // namespace ag::test
