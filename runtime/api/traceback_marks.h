// A traceback's source line and the marks CPython 3.11 prints under it
// (PEP 657): ^ under the expression that raised, or for a binary operator or
// a subscript ~ under the operands and ^ under the operator or the
// brackets; no marks when the expression is the whole line. A multi-line
// expression is marked on its first line only, to the line's end.
#pragma once

#include <string>
#include <string_view>

#include "runtime/api/traceback.h"

namespace ag {

/// "    <line without its indentation>\n" and, when `position` is known and
/// the marks say more than the line does, "    <marks>\n", laid out as
/// `style`'s printer lays them out (CPython 3.11.7's C printer or its
/// traceback module). `line` is the source line without its newline; a
/// blank line prints nothing.
std::string traceback_source_lines(std::string_view line, const SourcePosition* position, TracebackStyle style);

}  // namespace ag
