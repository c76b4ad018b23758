// Python tracebacks for generated code. Each converted function call (and the
// module's own code) holds a Frame naming the function and file; generated
// code calls frame.at(line) before each statement, and marks the expression
// an operation belongs to (frame.at(position)) before the operation runs.
// When an exception unwinds through a Frame, the Frame records (file, line,
// function, position), so the program's top level can print "Traceback (most
// recent call last):" with the user's lines and, as CPython 3.11 does, ^~~
// marks under the failing expression. An `except` clause that handles an
// exception takes the recorded frames (take_traceback) so the next exception
// starts afresh; a bare `raise` in it puts them back (restore_traceback)
// before rethrowing.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ag {

class Error;

/// Where an expression is in its file, as CPython 3.11 records it for each
/// instruction (co_positions): 1-based lines, 0-based UTF-8 byte columns,
/// `end_col` past its last byte on `end_line`. `anchor_begin`/`anchor_end`
/// (byte columns on `line`, -1 when none) are the part 3.11 marks with ^
/// and the rest with ~: a binary operator's operator, a subscript's
/// brackets. The generated program holds one constant table of them.
struct SourcePosition {
  int line;
  int end_line;
  int col;
  int end_col;
  int anchor_begin = -1;
  int anchor_end = -1;
};

struct TracebackEntry {
  const char* file;
  const char* function;  // "<module>" for module-level code
  int line;
  /// The expression the frame was evaluating; nullptr: only the line is known.
  const SourcePosition* position = nullptr;
};

/// Where a frame is: the line of its statement, or the expression within it
/// that is running. Generated code marks each operation that can raise
/// (a call, an operator, a subscript, an attribute) before it runs:
///
///   ag_frame.at(kPos[3]), g(ag_frame.back_at(kPos[3], (ag_frame.at(kPos[4]), h(x))))
///
/// marks g's call, and marks it again once the argument h(x), which moved
/// the frame to itself, has been computed (C++ leaves the order of operands
/// open, so an operation's mark comes back after each operand that moved it).
class FramePosition {
 public:
  /// The start of a statement: its line, no expression yet.
  void at(int line) {
    line_ = line;
    position_ = nullptr;
  }
  void at(const SourcePosition& p) { position_ = &p; }
  /// `value` (already computed), with the frame back at `p`.
  template <class T>
  T&& back_at(const SourcePosition& p, T&& value) {
    position_ = &p;
    return std::forward<T>(value);
  }
  int line() const { return position_ != nullptr ? position_->line : line_; }
  const SourcePosition* position() const { return position_; }

 private:
  int line_ = 0;
  const SourcePosition* position_ = nullptr;
};

class Frame : public FramePosition {
 public:
  Frame(const char* file, const char* function);
  ~Frame();
  Frame(const Frame&) = delete;
  Frame& operator=(const Frame&) = delete;

  const char* file() const { return file_; }
  const char* function() const { return function_; }
  /// The innermost live Frame of this thread (nullptr outside generated code).
  static const Frame* current();

 private:
  const char* file_;
  const char* function_;
  int uncaught_at_entry_;
  const Frame* outer_;
};

/// The exception an `except` clause is handling, for the clause's duration
/// (Python's sys.exc_info(): traceback.print_exc and format_exc read it).
/// Generated code makes one at the start of each handler, from the caught
/// error, the frames it unwound through (take_traceback) and where in the
/// handling frame the exception came from (its Frame's position, read before
/// the handler's statements move it on); nested handlers stack.
class HandledException {
 public:
  HandledException(const Error& error, const std::vector<TracebackEntry>& unwound, FramePosition where);
  ~HandledException();
  HandledException(const HandledException&) = delete;
  HandledException& operator=(const HandledException&) = delete;

  /// The innermost exception being handled, or nullptr.
  static const HandledException* current();
  const Error& error() const { return error_; }
  /// Innermost first, the handling frame last (format_traceback's order).
  const std::vector<TracebackEntry>& entries() const { return entries_; }

 private:
  const Error& error_;
  std::vector<TracebackEntry> entries_;
  const HandledException* outer_;
};

/// The frames the in-flight (or last uncaught) exception unwound through,
/// innermost first; the list is left empty.
std::vector<TracebackEntry> take_traceback();
void restore_traceback(std::vector<TracebackEntry> entries);

/// CPython 3.11 prints tracebacks two ways, which differ in a line's trailing
/// whitespace: the interpreter's own printer (an exception nothing caught)
/// keeps it; the traceback module's (format_exc, print_exc) strips it, and
/// counts it when it places the marks (so they sit that much to the left).
enum class TracebackStyle { Interpreter, Module };

/// Python's text: "Traceback (most recent call last):\n  File \"m.py\", line 3,
/// in f\n    <source line>\n    ~~^~~\n...Type: message\n". `source_of(file)`
/// gives a file's text for the source lines (nullptr: lines omitted). The
/// marks under a line are CPython 3.11.7's (traceback_marks.h).
std::string format_traceback(const std::vector<TracebackEntry>& innermost_first, const std::string& type_name,
                             const std::string& message, const char* (*source_of)(const char* file),
                             TracebackStyle style);

}  // namespace ag
