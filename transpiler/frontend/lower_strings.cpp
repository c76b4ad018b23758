// String literals (plain, bytes, raw, implicit concatenation, f-strings) and
// number literals.
#include <fmt/format.h>

#include "transpiler/frontend/literals.h"
#include "transpiler/frontend/lower.h"
#include "transpiler/frontend/lowerer.h"

namespace agc::frontend {

using namespace ast;

// Accumulates the pieces of a (possibly concatenated) string literal the way
// Python's parser does: adjacent constant text merges, empty text disappears.
struct Lowerer::StringParts {
  Refs values;           // JoinedStr parts (Constant str / FormattedValue)
  std::string pending;   // constant text not yet flushed
  SourceSpan pending_span;
  bool any_fstring = false;
  bool any_bytes = false;
  bool any_text = false;
  bool first_is_u = false;
  bool first = true;

  void add_text(std::string s, SourceSpan sp) {
    if (pending.empty()) pending_span = sp;
    else pending_span = SourceSpan::cover(pending_span, sp);
    pending += s;
  }
  void flush() {
    if (!pending.empty()) values.push_back(str_constant(std::move(pending), pending_span));
    pending.clear();
  }
};

std::string Lowerer::literal_segment(std::string_view raw_text, bool raw, bool bytes, bool fstring, uint32_t at) {
  std::string t(raw_text);
  if (fstring) {
    // `{{` and `}}` are literal braces in an f-string.
    std::string collapsed;
    for (size_t i = 0; i < t.size(); ++i) {
      collapsed += t[i];
      if ((t[i] == '{' || t[i] == '}') && i + 1 < t.size() && t[i + 1] == t[i]) ++i;
    }
    t = std::move(collapsed);
  }
  if (raw) {
    if (bytes) {
      for (size_t i = 0; i < t.size(); ++i) {
        if (static_cast<unsigned char>(t[i]) >= 0x80) {
          error(span(at + static_cast<uint32_t>(i), at + static_cast<uint32_t>(i) + 1),
                "bytes can only contain ASCII literal characters; use \\x escapes");
          break;
        }
      }
    }
    return t;
  }
  Decoded d = decode_escapes(t, bytes);
  if (!d.error.empty()) {
    uint32_t pos = at + static_cast<uint32_t>(std::min(d.error_at, raw_text.size()));
    error(span(pos, pos + static_cast<uint32_t>(d.error_len)), d.error);
  }
  return d.value;
}

void Lowerer::string_part(TSNode n, StringParts& parts) {
  auto kids = children(n, /*named_only=*/true);
  TSNode start{}, end{};
  bool have_start = false, have_end = false;
  for (TSNode k : kids) {
    if (sym(k) == Sym::StringStart) {
      start = k;
      have_start = true;
    } else if (sym(k) == Sym::StringEnd) {
      end = k;
      have_end = true;
    }
  }
  if (!have_start || !have_end) {
    error(n, "malformed string literal");
    return;
  }
  StringPrefix prefix = parse_string_prefix(text(start));
  if (parts.first) {
    parts.first_is_u = prefix.unicode;
    parts.first = false;
  }
  if (prefix.bytes) parts.any_bytes = true;
  else parts.any_text = true;
  uint32_t body_begin = ts_node_end_byte(start);
  uint32_t body_end = ts_node_start_byte(end);
  std::string_view src = file_.text();
  if (!prefix.fstring) {
    parts.add_text(literal_segment(src.substr(body_begin, body_end - body_begin), prefix.raw, prefix.bytes, false,
                                   body_begin),
                   span(n));
    return;
  }
  parts.any_fstring = true;
  if (fstring_depth_ >= kMaxFStringNesting) {
    error(start, fmt::format("f-strings nested more than {} levels deep are not supported", kMaxFStringNesting));
    return;
  }
  ++fstring_depth_;
  struct Leave {
    int& d;
    ~Leave() { --d; }
  } leave{fstring_depth_};
  uint32_t cursor = body_begin;
  for (TSNode k : kids) {
    if (sym(k) != Sym::Interpolation) continue;
    uint32_t b = ts_node_start_byte(k);
    if (b > cursor) {
      parts.add_text(literal_segment(src.substr(cursor, b - cursor), prefix.raw, false, true, cursor),
                     span(cursor, b));
    }
    // `f"{x=}"`: the expression's text and the '=' become literal text.
    if (has_token(k, "=")) {
      TSNode e = field(k, f_.expression);
      uint32_t eq_end = ts_node_end_byte(e);
      uint32_t count = ts_node_child_count(k);
      for (uint32_t i = 0; i < count; ++i) {
        TSNode c = ts_node_child(k, i);
        if (!ts_node_is_named(c) && std::string_view(ts_node_type(c)) == "=") eq_end = ts_node_end_byte(c);
      }
      // Whitespace after '=' is kept too, up to the conversion/spec/closing brace.
      while (eq_end < ts_node_end_byte(k) && (src[eq_end] == ' ' || src[eq_end] == '\t')) ++eq_end;
      parts.add_text(std::string(src.substr(b + 1, eq_end - b - 1)), span(b, eq_end));
    }
    parts.flush();
    parts.values.push_back(interpolation(k, prefix.raw));
    cursor = ts_node_end_byte(k);
  }
  if (body_end > cursor) {
    parts.add_text(literal_segment(src.substr(cursor, body_end - cursor), prefix.raw, false, true, cursor),
                   span(cursor, body_end));
  }
}

Lowerer::Ref Lowerer::interpolation(TSNode n, bool raw) {
  auto fv = make<FormattedValue>(span(n));
  TSNode e = field(n, f_.expression);
  fv->value = sym(e) == Sym::ExpressionList || sym(e) == Sym::PatternList ? value(e) : expr(e);
  fv->conversion = -1;
  TSNode conv = field(n, f_.type_conversion);
  if (!ts_node_is_null(conv)) {
    std::string_view t = text(conv);
    char c = t.empty() ? '?' : t.back();
    if (c != 's' && c != 'r' && c != 'a') error(conv, "f-string conversion must be !s, !r or !a");
    fv->conversion = c;
  }
  TSNode spec = field(n, f_.format_specifier);
  if (!ts_node_is_null(spec)) fv->format_spec = format_spec(spec, raw);
  if (has_token(n, "=") && ts_node_is_null(conv) && ts_node_is_null(spec)) fv->conversion = 'r';
  return fv;
}

Lowerer::Ref Lowerer::format_spec(TSNode spec, bool raw) {
  // The specifier's text starts after its ':'; nested `{expr}` parts are
  // format_expression children.
  StringParts parts;
  std::string_view src = file_.text();
  uint32_t cursor = ts_node_start_byte(spec);
  if (cursor < src.size() && src[cursor] == ':') ++cursor;
  for (TSNode k : code_children(spec)) {
    if (sym(k) != Sym::FormatExpression) continue;
    uint32_t b = ts_node_start_byte(k);
    if (b > cursor) parts.add_text(literal_segment(src.substr(cursor, b - cursor), raw, false, true, cursor), span(cursor, b));
    parts.flush();
    auto fv = make<FormattedValue>(span(k));
    fv->value = expr(field(k, f_.expression));
    fv->conversion = -1;
    TSNode conv = field(k, f_.type_conversion);
    if (!ts_node_is_null(conv)) fv->conversion = text(conv).empty() ? -1 : text(conv).back();
    parts.values.push_back(fv);
    cursor = ts_node_end_byte(k);
  }
  uint32_t end = ts_node_end_byte(spec);
  if (end > cursor) parts.add_text(literal_segment(src.substr(cursor, end - cursor), raw, false, true, cursor), span(cursor, end));
  parts.flush();
  auto j = make<JoinedStr>(span(spec));
  j->values = std::move(parts.values);
  return j;
}

Lowerer::Ref Lowerer::string_literal(TSNode n) {
  StringParts parts;
  if (sym(n) == Sym::ConcatenatedString) {
    for (TSNode c : code_children(n)) {
      if (sym(c) == Sym::String) string_part(c, parts);
    }
  } else {
    string_part(n, parts);
  }
  SourceSpan sp = span(n);
  if (parts.any_bytes && (parts.any_text || parts.any_fstring)) {
    error(n, "cannot mix bytes and nonbytes literals");
    return placeholder(n);
  }
  if (!parts.any_fstring) {
    if (parts.any_bytes) return constant(ConstantValue::of_bytes(std::move(parts.pending)), sp);
    auto v = ConstantValue::of_str(std::move(parts.pending));
    v.u_prefix = parts.first_is_u;
    return constant(std::move(v), sp);
  }
  parts.flush();
  auto j = make<JoinedStr>(sp);
  j->values = std::move(parts.values);
  return j;
}

Lowerer::Ref Lowerer::number(TSNode n) {
  NumberLiteral lit = parse_number(text(n));
  if (!lit.error.empty()) {
    error(n, lit.error);
    return placeholder(n);
  }
  return constant(std::move(lit.value), span(n));
}

}  // namespace agc::frontend
