#include "runtime/api/traceback_marks.h"

#include <algorithm>
#include <iterator>
#include <cstdint>
#include <vector>

#include "runtime/core/utf8.h"

namespace ag {

namespace {

// The East Asian wide and fullwidth characters, which CPython 3.11.7 counts
// as two columns when it places the marks (its traceback's _display_width).
constexpr int32_t kWide[][2] = {
#define AG_WIDE(first, last) {first, last},
#include "runtime/core/east_asian_width.def"
#undef AG_WIDE
};

int display_width(int32_t cp) {
  if (cp < kWide[0][0]) return 1;
  auto it = std::upper_bound(std::begin(kWide), std::end(kWide), cp,
                             [](int32_t c, const int32_t(&range)[2]) { return c < range[0]; });
  return it != std::begin(kWide) && cp <= (*(it - 1))[1] ? 2 : 1;
}

// Offsets here count characters, as CPython's printers count them after
// converting the recorded byte offsets; widths count columns.
struct DecodedLine {
  std::string text;
  std::vector<int32_t> chars;  // code points (-1: an ill-formed byte sequence)
  std::vector<size_t> starts;  // each character's first byte, then text.size()

  explicit DecodedLine(std::string_view line) : text(line) {
    for (size_t i = 0; i < text.size();) {
      auto [cp, len] = next_code_point(text, i);
      chars.push_back(cp);
      starts.push_back(i);
      i += len;
    }
    starts.push_back(text.size());
  }
  int size() const { return static_cast<int>(chars.size()); }
  /// CPython's _byte_offset_to_character_offset: the characters that start
  /// in the first `byte` bytes.
  int char_offset(int byte) const {
    if (byte <= 0) return 0;
    auto it = std::lower_bound(starts.begin(), starts.end() - 1, static_cast<size_t>(byte));
    return static_cast<int>(it - starts.begin());
  }
  /// The columns characters [from, to) take.
  int width(int from, int to) const {
    int w = 0;
    for (int i = from; i < to; ++i) w += display_width(chars[static_cast<size_t>(i)]);
    return w;
  }
  std::string_view slice(int from, int to) const {
    return std::string_view(text).substr(starts[static_cast<size_t>(from)],
                                         starts[static_cast<size_t>(to)] - starts[static_cast<size_t>(from)]);
  }
};

// What CPython's C printer skips as indentation (and, for a multi-line
// expression, as the end of its first line).
bool c_space(int32_t c) { return c == ' ' || c == '\t' || c == '\f'; }

// Python's str.isspace(), which str.strip() removes.
bool py_space(int32_t c) {
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

std::string repeat(char c, int n) { return std::string(static_cast<size_t>(std::max(n, 0)), c); }

}  // namespace

std::string traceback_source_lines(std::string_view line, const SourcePosition* position, TracebackStyle style) {
  const DecodedLine d(line);
  const int n = d.size();
  bool (*const space)(int32_t) = style == TracebackStyle::Interpreter ? c_space : py_space;
  int first = 0;
  while (first < n && space(d.chars[static_cast<size_t>(first)])) ++first;
  int last = n;  // past the last non-space character
  while (last > first && space(d.chars[static_cast<size_t>(last) - 1])) --last;
  if (first == last) return {};
  // The C printer keeps trailing whitespace; the module strips it.
  const int shown_end = style == TracebackStyle::Interpreter ? n : last;
  std::string out = "    ";
  out += d.slice(first, shown_end);
  out += '\n';
  if (position == nullptr || position->col < 0) return out;

  int start = d.char_offset(position->col);
  int end = d.char_offset(position->end_col);
  // The anchors, relative to the start of the expression.
  int left = -1, right = -1;
  if (position->line == position->end_line) {
    if (position->anchor_begin >= 0) {
      left = d.char_offset(position->anchor_begin) - start;
      right = d.char_offset(position->anchor_end) - start;
    }
  } else {
    end = last;  // to the end of the first line
  }
  const bool anchored = left >= 0 && right > left;
  int indent = 0;  // spaces before the first mark, past the printed "    "
  if (style == TracebackStyle::Interpreter) {
    // Elided when the expression spans the line without its indentation.
    if (end - start == n - first && !anchored) return out;
    indent = d.width(first, start);
  } else {
    // traceback.py: elided when the expression spans the stripped line; the
    // marks' place counts the stripped characters of the line and its
    // newline (trailing whitespace shifts them left, as in 3.11.7).
    if (end - start >= last - first && !anchored) return out;
    const int stripped_characters = (n + 1) - (last - first);
    indent = d.width(0, start) + 1 - stripped_characters;
  }
  out += "    " + repeat(' ', indent);
  if (anchored) {
    const int to_left = d.width(start, start + left), to_right = d.width(start, start + right);
    out += repeat('~', to_left) + repeat('^', to_right - to_left) + repeat('~', d.width(start, end) - to_right);
  } else {
    out += repeat('^', d.width(start, end));
  }
  out += '\n';
  return out;
}

}  // namespace ag
