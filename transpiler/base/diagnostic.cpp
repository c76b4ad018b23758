#include "transpiler/base/diagnostic.h"

#include <algorithm>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace agc {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

namespace {

/// One character of a source line as it will be shown: its bytes (or '?' for a
/// byte that is not valid UTF-8 or a control character) and where it starts.
struct Glyph {
  uint32_t offset;
  std::string text;
};

std::vector<Glyph> glyphs_of(std::string_view line, uint32_t base) {
  std::vector<Glyph> out;
  for (size_t i = 0; i < line.size();) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    bool valid = len > 0 && i + len <= line.size();
    for (size_t k = 1; valid && k < len; ++k) valid = (static_cast<unsigned char>(line[i + k]) & 0xC0) == 0x80;
    Glyph g{base + static_cast<uint32_t>(i), {}};
    if (!valid) {
      g.text = "?";
      len = 1;
    } else if (len == 1 && ((c < 0x20 && c != '\t') || c == 0x7f)) {
      g.text = "?";
    } else {
      g.text = std::string(line.substr(i, len));
    }
    out.push_back(std::move(g));
    i += len;
  }
  return out;
}

// Lines longer than this are shown as a window around the caret.
constexpr size_t kMaxShownGlyphs = 120;
constexpr size_t kContextGlyphs = 50;

void render_one(const Diagnostic& d, std::string& out) {
  if (!d.span.known()) {
    out += fmt::format("agc: {}: {}\n", severity_name(d.severity), d.message);
    return;
  }
  const SourceFile& file = *d.span.file;
  auto pos = file.line_col(d.span.begin);
  out += fmt::format("{}:{}:{}: {}: {}{}\n", file.path(), pos.line, pos.col, severity_name(d.severity),
                     d.message, d.suggestion.empty() ? "" : fmt::format(" (did you mean '{}'?)", d.suggestion));
  uint32_t start = file.line_start(pos.line);
  std::vector<Glyph> line = glyphs_of(file.line_text(pos.line), start);
  uint32_t line_end = start + static_cast<uint32_t>(file.line_text(pos.line).size());
  uint32_t end = std::min(d.span.end, line_end);
  // The glyphs under the caret: [first, last).
  size_t first = 0;
  while (first < line.size() && line[first].offset < d.span.begin) ++first;
  size_t last = first;
  while (last < line.size() && line[last].offset < end) ++last;
  size_t from = 0, to = line.size();
  if (line.size() > kMaxShownGlyphs) {
    from = first > kContextGlyphs ? first - kContextGlyphs : 0;
    to = std::min(line.size(), from + kMaxShownGlyphs - 6);
    last = std::min(last, to);
  }
  std::string shown = from > 0 ? "..." : "";
  std::string caret = from > 0 ? "   " : "";
  for (size_t i = from; i < to; ++i) {
    shown += line[i].text;
    if (i < first) caret += line[i].text == "\t" ? '\t' : ' ';
  }
  if (to < line.size()) shown += "...";
  caret += '^';
  if (last > first + 1) caret += std::string(last - first - 1, '~');
  out += shown;
  out += '\n';
  out += caret;
  out += '\n';
}

}  // namespace

std::string render(const Diagnostic& d) {
  std::string out;
  render_one(d, out);
  for (const auto& n : d.notes) render_one(n, out);
  return out;
}

void DiagnosticSink::report(Diagnostic d) {
  // One problem at one place is reported once, however many times it is met
  // (the C++ emitter writes a function as written and as converted).
  for (const Diagnostic& seen : diags_) {
    if (seen.severity == d.severity && seen.span.file == d.span.file && seen.span.begin == d.span.begin &&
        seen.span.end == d.span.end && seen.message == d.message) {
      return;
    }
  }
  if (d.severity == Severity::Error) {
    if (saturated()) {
      ++dropped_;
      return;
    }
    ++errors_;
    if (!d.function_local()) ++file_errors_;
  }
  diags_.push_back(std::move(d));
}

void DiagnosticSink::error(SourceSpan span, std::string message) {
  report({Severity::Error, span, std::move(message), {}, {}});
}

void DiagnosticSink::unsupported(SourceSpan span, std::string message, std::string raises, std::string suggestion) {
  report({Severity::Error, span, std::move(message), {}, std::move(raises), std::move(suggestion)});
}

void DiagnosticSink::report_all(const DiagnosticSink& other) {
  for (const Diagnostic& d : other.diags_) report(d);
  dropped_ += other.dropped_;
}

std::string DiagnosticSink::render_all() const {
  std::vector<const Diagnostic*> order;
  for (const auto& d : diags_) order.push_back(&d);
  std::stable_sort(order.begin(), order.end(), [](const Diagnostic* a, const Diagnostic* b) {
    if (a->span.file != b->span.file) return false;
    return a->span.begin < b->span.begin;
  });
  std::string out;
  for (const Diagnostic* d : order) out += render(*d);
  if (dropped_ > 0) out += fmt::format("agc: note: {} more errors not shown\n", dropped_);
  return out;
}

}  // namespace agc
