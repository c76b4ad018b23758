// The one diagnostic type of the transpiler, the sink that collects them, and the
// exception that carries one out of a pass. Rendering follows clang:
//   model.py:12:5: error: <message>
//   <source line>
//       ^~~~
#pragma once

#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "transpiler/base/source.h"

namespace agc {

enum class Severity { Error, Warning, Note };

/// "error", "warning" or "note", as rendered diagnostics spell it.
const char* severity_name(Severity s);

struct Diagnostic {
  Severity severity = Severity::Error;
  SourceSpan span;
  std::string message;
  std::vector<Diagnostic> notes;
  /// Empty for a problem that stops the whole file (Python would not run it
  /// either: syntax and compile-time errors). Otherwise valid Python that agc
  /// cannot convert or compile, which fails only the function around it, as
  /// TensorFlow fails only a function it cannot convert: the Python exception
  /// that function raises when called, if it cannot run at all.
  std::string raises;
  /// A name the program may have meant, shown after the message as
  /// "(did you mean 'x'?)" but not part of the exception a function-local
  /// problem raises: Python's exception texts do not carry it either.
  std::string suggestion = {};

  /// Whether this problem fails only the function around it.
  bool function_local() const { return !raises.empty(); }
};

/// Renders one diagnostic (and its notes) with the source line and a caret.
std::string render(const Diagnostic& d);

/// Collects diagnostics so that a phase can report every problem it finds and
/// keep going; a diagnostic identical to one already reported is dropped.
/// Stops accepting errors past a limit so garbage input stays cheap.
class DiagnosticSink {
 public:
  static constexpr size_t kMaxErrors = 50;

  void report(Diagnostic d);
  void error(SourceSpan span, std::string message);
  /// An error in valid Python that agc cannot convert or compile: it fails
  /// the function around it, which raises `raises` when called.
  void unsupported(SourceSpan span, std::string message, std::string raises = "NotImplementedError",
                   std::string suggestion = "");
  /// Reports every diagnostic `other` holds, in its order (and counts the
  /// errors it dropped as dropped here).
  void report_all(const DiagnosticSink& other);

  const std::vector<Diagnostic>& diagnostics() const { return diags_; }
  size_t error_count() const { return errors_; }
  bool has_errors() const { return errors_ > 0; }
  /// Whether an error stops the whole file (one that is not function_local()).
  bool has_file_errors() const { return file_errors_ > 0; }
  /// True once kMaxErrors errors were reported; later ones are dropped.
  bool saturated() const { return errors_ >= kMaxErrors; }
  /// All diagnostics rendered, in order of position, plus a count line if truncated.
  std::string render_all() const;

 private:
  std::vector<Diagnostic> diags_;
  size_t errors_ = 0;
  size_t file_errors_ = 0;
  size_t dropped_ = 0;
};

/// A fatal diagnostic thrown by a pass: `throw DiagnosticError(span) << "message"`.
class DiagnosticError : public std::exception {
 public:
  explicit DiagnosticError(SourceSpan span) { diag_.span = span; }
  explicit DiagnosticError(Diagnostic d) : diag_(std::move(d)) {}

  template <class T>
  DiagnosticError& operator<<(const T& v) {
    std::ostringstream os;
    os << v;
    diag_.message += os.str();
    return *this;
  }
  DiagnosticError& note(SourceSpan span, std::string message) {
    diag_.notes.push_back({Severity::Note, span, std::move(message), {}, {}});
    return *this;
  }

  const Diagnostic& diagnostic() const { return diag_; }
  const char* what() const noexcept override { return diag_.message.c_str(); }

 private:
  Diagnostic diag_;
};

}  // namespace agc
