#include "transpiler/cli/compile_failure.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>

#include "transpiler/base/diagnostic.h"
#include "transpiler/base/source.h"

namespace agc::cli {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

/// The number at `text[at]` (its digits), or -1.
int number_at(const std::string& text, size_t at) {
  if (at >= text.size() || !std::isdigit(static_cast<unsigned char>(text[at]))) return -1;
  return std::atoi(text.c_str() + at);
}

/// Where in the Python source an expression or statement is: 1-based lines,
/// 0-based byte columns; col < 0 for a whole statement's line.
struct PythonPlace {
  int line = 0, end_line = 0, col = -1, end_col = -1;
};

/// Where each line of a generated unit comes from in FILE.py, read off the
/// anchors the emitter writes anyway: `ag_frame.at(N);` before each
/// statement, the `kPos[K]` marks of operations (whose table every unit
/// holds), and `// FILE.py:N: def f` above each function. A side map rather
/// than `#line` directives: those would make the compiler name Python lines
/// itself, but also make the generated C++ undebuggable as C++ (a debugger
/// would step through the .py), and hide the C++ line the bug is on.
class GeneratedLines {
 public:
  explicit GeneratedLines(const std::vector<std::string>& lines) {
    bool in_table = false;
    int statement = 0;
    for (const std::string& l : lines) {
      if (l.rfind("inline constexpr ag::SourcePosition kPos[]", 0) == 0) in_table = true;
      if (in_table) {
        PythonPlace p;
        if (std::sscanf(l.c_str(), " {%d, %d, %d, %d,", &p.line, &p.end_line, &p.col, &p.end_col) == 4) {
          positions_.push_back(p);
        }
        if (l == "};") in_table = false;
      }
      // A definition at namespace scope ends at a `}` in column 0.
      if (!l.empty() && l[0] == '}') statement = 0;
      if (l.rfind("// ", 0) == 0 && l.find(": def ") != std::string::npos) {
        size_t colon = l.find(": def ");
        size_t before = l.rfind(':', colon - 1);
        if (before != std::string::npos && number_at(l, before + 1) > 0) statement = number_at(l, before + 1);
      }
      for (size_t at = l.find("ag_frame.at("); at != std::string::npos; at = l.find("ag_frame.at(", at + 1)) {
        if (int n = number_at(l, at + 12); n > 0) statement = n;
      }
      std::vector<std::pair<int, int>> marks;  // (1-based column, K)
      for (size_t at = l.find("kPos["); at != std::string::npos; at = l.find("kPos[", at + 1)) {
        if (int k = number_at(l, at + 5); k >= 0) marks.emplace_back(static_cast<int>(at) + 1, k);
      }
      statements_.push_back(statement);
      marks_.push_back(std::move(marks));
    }
  }

  /// The Python place of C++ line `line`, column `col` (both 1-based): the
  /// last operation marked on that line before the column, else the line's
  /// statement; nothing for code no statement made (main(), declarations).
  std::optional<PythonPlace> at(int line, int col) const {
    if (line < 1 || static_cast<size_t>(line) > statements_.size()) return std::nullopt;
    const size_t i = static_cast<size_t>(line) - 1;
    std::optional<PythonPlace> found;
    for (const auto& [c, k] : marks_[i]) {
      if (c <= col && static_cast<size_t>(k) < positions_.size()) found = positions_[static_cast<size_t>(k)];
    }
    if (found) return found;
    if (statements_[i] > 0) return PythonPlace{statements_[i], statements_[i], -1, -1};
    return std::nullopt;
  }

 private:
  std::vector<PythonPlace> positions_;
  std::vector<int> statements_;
  std::vector<std::vector<std::pair<int, int>>> marks_;
};

/// A compiler message's location in one of the units: `FILE:LINE:COL: ...`.
struct UnitLocation {
  size_t unit = 0;
  int line = 0, col = 0;
};

std::optional<UnitLocation> unit_location(const std::string& message, const std::vector<std::string>& unit_files) {
  for (size_t u = 0; u < unit_files.size(); ++u) {
    const std::string& f = unit_files[u];
    for (size_t at = message.find(f + ":"); at != std::string::npos; at = message.find(f + ":", at + 1)) {
      // The file name starts the message or ends a path.
      if (at != 0 && message[at - 1] != '/') continue;
      size_t p = at + f.size() + 1;
      int line = number_at(message, p);
      if (line <= 0) continue;
      p = message.find(':', p);
      int col = p == std::string::npos ? 0 : std::max(number_at(message, p + 1), 0);
      return UnitLocation{u, line, col};
    }
  }
  return std::nullopt;
}

bool is_error(const std::string& message) {
  return message.find(": error: ") != std::string::npos || message.find(": fatal error: ") != std::string::npos;
}

/// The span of a Python place in `file`: the expression, or the statement's
/// line without its indentation.
SourceSpan span_of(const SourceFile& file, const PythonPlace& p) {
  const uint32_t last_line = file.line_count();
  auto line = [&](int n) { return static_cast<uint32_t>(std::clamp(n, 1, static_cast<int>(last_line))); };
  const uint32_t start = file.line_start(line(p.line));
  if (p.col >= 0) {
    return {&file, start + static_cast<uint32_t>(p.col), file.line_start(line(p.end_line)) + static_cast<uint32_t>(p.end_col)};
  }
  std::string_view text = file.line_text(line(p.line));
  size_t first = text.find_first_not_of(" \t");
  size_t last = text.find_last_not_of(" \t\r");
  if (first == std::string_view::npos) return {&file, start, start};
  return {&file, start + static_cast<uint32_t>(first), start + static_cast<uint32_t>(last + 1)};
}

}  // namespace

void report_compile_failure(const GeneratedCpp& generated, const CompileFailure& failure) {
  const std::string name = generated.path.substr(generated.path.find_last_of('/') + 1);
  std::vector<GeneratedLines> units;
  for (const std::string& f : failure.unit_files) {
    std::string text;
    if (!failure.kept.empty()) {
      std::ifstream in(failure.kept + "/" + f, std::ios::binary);
      text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    units.emplace_back(lines_of(text));
  }
  const SourceFile file(generated.path, generated.python);

  // Each error at the unit location it belongs to: its own, else (in a
  // runtime header) the last unit location GCC named before it ("required
  // from here"), else the first clang named after it ("requested here").
  const std::vector<std::string> messages = lines_of(failure.output);
  // Errors at one place (the two C++ forms of a function repeat its code)
  // are shown together.
  constexpr int kShown = 10;
  int errors = 0;
  std::vector<std::pair<std::string, std::string>> places;  // (the place's diagnostic, the compiler's errors there)
  for (size_t i = 0; i < messages.size(); ++i) {
    if (!failure.compiling || !is_error(messages[i])) continue;
    std::optional<UnitLocation> where = unit_location(messages[i], failure.unit_files);
    for (size_t j = i; !where && j-- > 0 && !is_error(messages[j]);) where = unit_location(messages[j], failure.unit_files);
    for (size_t j = i + 1; !where && j < messages.size() && !is_error(messages[j]); ++j) {
      where = unit_location(messages[j], failure.unit_files);
    }
    if (++errors > kShown) continue;
    std::optional<PythonPlace> place;
    if (where && where->unit < units.size()) place = units[where->unit].at(where->line, where->col);
    std::string at = place ? render(Diagnostic{Severity::Error, span_of(file, *place),
                                               "the C++ agc generated for this does not compile", {}, {}})
                           : std::string();
    auto same = std::find_if(places.begin(), places.end(), [&](const auto& p) { return p.first == at; });
    if (same == places.end()) same = places.insert(places.end(), {at, ""});
    same->second += "  the C++ compiler: " + messages[i] + "\n";
  }
  std::string report;
  for (const auto& [at, said] : places) report += at + said;
  if (errors > kShown) report += "  ... and " + std::to_string(errors - kShown) + " more errors\n";
  if (errors == 0) {
    // No error to place (a crash, a missing compiler, the link): all it said.
    report += failure.output;
    if (!report.empty() && report.back() != '\n') report += '\n';
  }
  report += "agc: error: " + failure.tool + " failed" +
            (failure.status > 0 ? " (exit status " + std::to_string(failure.status) + ")"
                                : std::string(" (it did not run, or was killed)")) +
            " on the code agc generated from " + name +
            (errors > 0 ? ": this is a bug in agc, not in your program\n" : "\n");
  if (!failure.kept.empty()) {
    std::ofstream(failure.kept + "/" + name, std::ios::binary) << generated.python;
    std::string files = name;
    for (const std::string& f : failure.unit_files) files += ", " + f;
    const std::string stem = name.substr(0, name.rfind(".py"));
    files += ", " + stem + ".h";
    const size_t slash = failure.kept.find_last_of('/');
    report += "agc: note: it is kept in " + failure.kept + ": " + files +
              ", build.sh (the commands, to run them again) and compiler-output.txt (all the compiler said)\n";
    if (errors > 0) {
      report += "agc: note: please report the bug with that directory attached (tar czf " + stem +
                "-agc-bug.tar.gz -C " + failure.kept.substr(0, slash) + " " + failure.kept.substr(slash + 1) +
                ") and the output of 'agc --version'; it holds " + name +
                ", so cut the program down to what still fails first if it is private\n";
    }
  }
  std::fputs(report.c_str(), stderr);
}

}  // namespace agc::cli
