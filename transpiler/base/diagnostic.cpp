#include "transpiler/base/diagnostic.h"

#include <algorithm>

#include <fmt/format.h>

namespace agc {
namespace {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

void render_one(const Diagnostic& d, std::string& out) {
  if (!d.span.known()) {
    out += fmt::format("agc: {}: {}\n", severity_name(d.severity), d.message);
    return;
  }
  const SourceFile& file = *d.span.file;
  auto pos = file.line_col(d.span.begin);
  out += fmt::format("{}:{}:{}: {}: {}\n", file.path(), pos.line, pos.col, severity_name(d.severity),
                     d.message);
  std::string_view line = file.line_text(pos.line);
  // Show the line as text: control characters (other than tab) would garble the
  // terminal, so they print as '?'.
  std::string shown;
  for (unsigned char c : line) shown += (c < 0x20 && c != '\t') || c == 0x7f ? '?' : static_cast<char>(c);
  out += shown;
  out += '\n';
  // The caret line copies tabs so it lines up under tab-indented code.
  uint32_t start = file.line_start(pos.line);
  std::string caret;
  uint32_t col = 1;
  for (uint32_t i = start; i < d.span.begin && i < start + line.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(file.text()[i]);
    if ((c & 0xC0) == 0x80) continue;
    caret += c == '\t' ? '\t' : ' ';
    ++col;
  }
  caret += '^';
  uint32_t line_end = start + static_cast<uint32_t>(line.size());
  uint32_t end = std::min(d.span.end, line_end);
  if (end > d.span.begin) {
    uint32_t width = count_code_points(std::string_view(file.text()).substr(d.span.begin, end - d.span.begin));
    if (width > 1) caret += std::string(width - 1, '~');
  }
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
  if (d.severity == Severity::Error) {
    if (saturated()) {
      ++dropped_;
      return;
    }
    ++errors_;
  }
  diags_.push_back(std::move(d));
}

void DiagnosticSink::error(SourceSpan span, std::string message) {
  report({Severity::Error, span, std::move(message), {}});
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
