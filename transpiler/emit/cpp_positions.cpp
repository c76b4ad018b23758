// Where generated code marks its frame: the module's table of source
// positions (runtime/api/traceback.h's SourcePosition), one entry per span
// an operation was marked at, with the anchors CPython 3.11.7's traceback
// module finds in the operation's text (its _extract_caret_anchors_from_line_segment):
// a binary operator's operator, a subscript's brackets.
#include <fmt/format.h>

#include "transpiler/emit/cpp_emitter_impl.h"

namespace agc::emit::cpp {

using namespace agc::ast;

namespace {

// Python's str.isspace() for the ASCII characters a source line can hold.
bool py_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f'); }

/// The anchors of a one-line binary operation [begin, end) of `text`: the
/// operator after its left operand, moved past a closing parenthesis, spaces
/// and a comment's '#' as 3.11.7 moves it.
std::pair<uint32_t, uint32_t> binop_anchors(std::string_view text, const BinOp& b, uint32_t end) {
  const uint32_t left_end = b.left->span.end, right_begin = b.right->span.begin;
  uint32_t op = left_end;
  while (op < right_begin && py_space(text[op])) ++op;
  uint32_t anchor_end = op + 1;
  if (op + 1 < right_begin && !py_space(text[op + 1])) ++anchor_end;
  while (op < end && (py_space(text[op]) || text[op] == ')' || text[op] == '#')) {
    ++op;
    ++anchor_end;
  }
  return {op, anchor_end};
}

/// The anchors of a one-line subscript [begin, end): from its '[' to past its ']'.
std::pair<uint32_t, uint32_t> subscript_anchors(std::string_view text, const Subscript& s, uint32_t end) {
  uint32_t open = s.value->span.end;
  while (open < end && text[open] != '[') ++open;
  uint32_t close = s.slice->span.end + 1;
  while (close < end && text[close] != ']') ++close;
  if (close < end) ++close;
  return {open, close};
}

}  // namespace

int Emitter::position(const Node& n) {
  if (!n.span.known() || n.span.file != &file_) return -1;
  const SourceFile::LineCol begin = file_.line_col(n.span.begin), end = file_.line_col(n.span.end);
  const uint32_t line_start = file_.line_start(begin.line);
  auto col = [&](uint32_t offset, uint32_t line) { return static_cast<int>(offset - file_.line_start(line)); };
  std::array<int, 6> p{static_cast<int>(begin.line), static_cast<int>(end.line), col(n.span.begin, begin.line),
                       col(n.span.end, end.line), -1, -1};
  if (begin.line == end.line) {
    std::pair<uint32_t, uint32_t> anchors{0, 0};
    if (auto* b = n.dyn<BinOp>()) anchors = binop_anchors(file_.text(), *b, n.span.end);
    if (auto* s = n.dyn<Subscript>()) anchors = subscript_anchors(file_.text(), *s, n.span.end);
    if (anchors.second > anchors.first) {
      p[4] = static_cast<int>(anchors.first - line_start);
      p[5] = static_cast<int>(anchors.second - line_start);
    }
  }
  auto [it, added] = position_index_.emplace(p, static_cast<int>(positions_.size()));
  if (added) positions_.push_back(p);
  return it->second;
}

std::string Emitter::position_table() const {
  if (positions_.empty()) return {};
  std::string out = "// Where each operation that can raise is, for tracebacks:\n"
                    "// {line, end_line, col, end_col, anchor_begin, anchor_end} (ag::SourcePosition).\n"
                    "inline constexpr ag::SourcePosition kPos[] = {\n";
  for (const auto& p : positions_) out += fmt::format("    {{{}, {}, {}, {}, {}, {}}},\n", p[0], p[1], p[2], p[3], p[4], p[5]);
  return out + "};\n\n";
}

}  // namespace agc::emit::cpp
