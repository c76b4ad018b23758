// Python's pprint.pformat (width 80, indent 1, dicts sorted): the repr of a
// value, with a list, tuple or dict whose repr does not fit its line split
// one item per line. tf.print builds its template with it.
#pragma once

#include <string>

#include "runtime/value/value.h"

namespace ag {

/// pprint.pformat(v). A str longer than its line stays one literal (pprint
/// would split it into several).
std::string pformat(const Value& v);

}  // namespace ag
