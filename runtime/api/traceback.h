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

 private:
  const char* file_;
  const char* function_;
  int line_ = 0;
  int uncaught_at_entry_;
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
