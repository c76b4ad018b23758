// Python tracebacks for generated code. Each converted function call (and the
// module's own code) holds a Frame naming the function and file; generated
// code calls frame.at(line) before each statement. When an exception unwinds
// through a Frame, the Frame records (file, line, function), so the program's
// top level can print "Traceback (most recent call last):" with the user's
// lines. An `except` clause that handles an exception takes the recorded
// frames (take_traceback) so the next exception starts afresh; a bare `raise`
// in it puts them back (restore_traceback) before rethrowing.
#pragma once

#include <string>
#include <vector>

namespace ag {

class Error;

struct TracebackEntry {
  const char* file;
  const char* function;  // "<module>" for module-level code
  int line;
};

class Frame {
 public:
  Frame(const char* file, const char* function);
  ~Frame();
  Frame(const Frame&) = delete;
  Frame& operator=(const Frame&) = delete;

  void at(int line) { line_ = line; }
  int line() const { return line_; }
  const char* file() const { return file_; }
  const char* function() const { return function_; }
  /// The innermost live Frame of this thread (nullptr outside generated code).
  static const Frame* current();

 private:
  const char* file_;
  const char* function_;
  int line_ = 0;
  int uncaught_at_entry_;
  const Frame* outer_;
};

/// The exception an `except` clause is handling, for the clause's duration
/// (Python's sys.exc_info(): traceback.print_exc and format_exc read it).
/// Generated code makes one at the start of each handler, from the caught
/// error, the frames it unwound through (take_traceback) and the line of the
/// handling frame the exception came from (its Frame's line, read before the
/// handler's statements move it on); nested handlers stack.
class HandledException {
 public:
  HandledException(const Error& error, const std::vector<TracebackEntry>& unwound, int line);
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

/// Python's text: "Traceback (most recent call last):\n  File \"m.py\", line 3,
/// in f\n    <source line>\n...Type: message\n". `source_of(file)` gives a
/// file's text for the source lines (nullptr: lines omitted).
std::string format_traceback(const std::vector<TracebackEntry>& innermost_first, const std::string& type_name,
                             const std::string& message, const char* (*source_of)(const char* file));

}  // namespace ag
