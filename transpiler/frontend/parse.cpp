#include "transpiler/frontend/parse.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "transpiler/frontend/lower.h"
#include "transpiler/frontend/tokens.h"
#include "transpiler/frontend/validate.h"
#include "transpiler/frontend/ts_handle.h"

namespace agc::frontend {
namespace {

constexpr size_t kMaxSourceBytes = 256u << 20;  // tree-sitter offsets are 32-bit
constexpr uint64_t kParseTimeoutMicros = 60'000'000;

/// Length of the UTF-8 sequence at s[i], or 0 if it is malformed.
size_t utf8_sequence_length(std::string_view s, size_t i) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  if (c < 0x80) return 1;
  size_t len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
  if (len == 0 || i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  }
  uint32_t cp = len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
  for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (b(i + k) & 0x3F);
  if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
      (cp >= 0xD800 && cp <= 0xDFFF)) {
    return 0;  // overlong, out of range, or a surrogate
  }
  return len;
}

/// Rejects input that is not UTF-8 text before tree-sitter sees it.
bool check_text(const SourceFile& file, DiagnosticSink& sink) {
  std::string_view s = file.text();
  if (s.size() > kMaxSourceBytes) {
    sink.error({&file, 0, 0}, fmt::format("file is too large ({} bytes; agc reads at most {} MiB)", s.size(),
                                          kMaxSourceBytes >> 20));
    return false;
  }
  for (size_t i = 0; i < s.size();) {
    if (s[i] == '\0') {
      sink.error({&file, static_cast<uint32_t>(i), static_cast<uint32_t>(i + 1)},
                 "source contains a NUL byte; is this a binary file?");
      return false;
    }
    size_t len = utf8_sequence_length(s, i);
    if (len == 0) {
      sink.error({&file, static_cast<uint32_t>(i), static_cast<uint32_t>(i + 1)},
                 fmt::format("invalid UTF-8 byte 0x{:02x}; agc reads Python source as UTF-8",
                             static_cast<unsigned char>(s[i])));
      return false;
    }
    i += len;
  }
  return true;
}

std::string describe_token(std::string_view t) {
  if (t.empty()) return "end of file";
  // At most 40 bytes, cut before a UTF-8 continuation byte; line breaks and tabs
  // read as spaces, other control bytes as escapes.
  size_t n = std::min<size_t>(t.size(), 40);
  while (n < t.size() && n > 0 && (static_cast<unsigned char>(t[n]) & 0xC0) == 0x80) --n;
  std::string shown;
  for (char c : t.substr(0, n)) {
    auto u = static_cast<unsigned char>(c);
    if (c == '\n' || c == '\r' || c == '\t') shown += ' ';
    else if (u < 0x20 || u == 0x7f) shown += fmt::format("\\x{:02x}", u);
    else shown += c;
  }
  return fmt::format("'{}'", shown);
}

/// The assignment operator of a line that tree-sitter could not parse, at
/// bracket depth 0 outside strings: where it starts and whether it is augmented.
struct AssignOp {
  size_t lhs_end;  // offset in the line where the target ends
  bool augmented;
};

std::optional<AssignOp> find_assignment(std::string_view line) {
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quote) {
      if (c == '\\') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    else if (c == '#') break;
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == ']' || c == '}') --depth;
    else if (c == '=' && depth == 0) {
      if (i + 1 < line.size() && line[i + 1] == '=') {
        ++i;
        continue;
      }
      char p = i > 0 ? line[i - 1] : ' ';
      if (p == '=' || p == '!' || p == ':') continue;
      if (p == '<' || p == '>') {
        // `<=`/`>=` compare; `<<=`/`>>=` assign.
        if (i < 2 || line[i - 2] != p) continue;
        return AssignOp{i - 2, true};
      }
      if (std::string_view("+-*/%@&|^").find(p) != std::string_view::npos) {
        size_t start = i - 1;
        if ((p == '*' || p == '/') && start > 0 && line[start - 1] == p) --start;
        return AssignOp{start, true};
      }
      return AssignOp{i, false};
    }
  }
  return std::nullopt;
}

/// Python's message for assigning to something that is not a target
/// (`f() = 1`, `1 = x`, `a + b += 3`), when that is why a line failed to parse.
std::optional<Diagnostic> bad_assignment_target(const SourceFile& file, uint32_t line_no) {
  std::string_view line = file.line_text(line_no);
  auto op = find_assignment(line);
  if (!op) return std::nullopt;
  size_t begin = line.find_first_not_of(" \t");
  size_t end = op->lhs_end;
  while (end > begin && (line[end - 1] == ' ' || line[end - 1] == '\t')) --end;
  if (begin == std::string_view::npos || end <= begin) return std::nullopt;
  std::string probe = "(" + std::string(line.substr(begin, end - begin)) + ")\n";
  const Grammar& g = Grammar::get();
  ParserHandle parser(ts_parser_new());
  ts_parser_set_language(parser.get(), g.language());
  TreeHandle tree(ts_parser_parse_string(parser.get(), nullptr, probe.data(), static_cast<uint32_t>(probe.size())));
  if (!tree) return std::nullopt;
  TSNode root = ts_tree_root_node(tree.get());
  if (ts_node_has_error(root) || ts_node_named_child_count(root) != 1) return std::nullopt;
  TSNode stmt = ts_node_named_child(root, 0);
  if (ts_node_named_child_count(stmt) != 1) return std::nullopt;
  TSNode paren = ts_node_named_child(stmt, 0);
  if (g.sym(paren) != Sym::ParenthesizedExpression || ts_node_named_child_count(paren) != 1) return std::nullopt;
  TSNode target = ts_node_named_child(paren, 0);
  std::string what;
  bool suggest_eq = false;
  switch (g.sym(target)) {
    case Sym::Call: what = "function call"; suggest_eq = true; break;
    case Sym::Integer: case Sym::Float: case Sym::String: case Sym::ConcatenatedString:
      what = "literal"; suggest_eq = true; break;
    case Sym::BinaryOperator: case Sym::UnaryOperator: case Sym::BooleanOperator: case Sym::NotOperator:
      what = "expression"; suggest_eq = true; break;
    case Sym::True: what = "True"; break;
    case Sym::False: what = "False"; break;
    case Sym::None: what = "None"; break;
    case Sym::ComparisonOperator: what = "comparison"; break;
    case Sym::ConditionalExpression: what = "conditional expression"; break;
    case Sym::Lambda: what = "lambda"; break;
    case Sym::Dictionary: what = "dict literal"; break;
    case Sym::Set: what = "set display"; break;
    case Sym::ListComprehension: case Sym::SetComprehension: case Sym::DictionaryComprehension:
      what = "comprehension"; break;
    default: return std::nullopt;  // a valid target: the problem is elsewhere
  }
  std::string message =
      op->augmented ? fmt::format("'{}' is an illegal expression for augmented assignment", what)
                    : fmt::format("cannot assign to {}{}", what,
                                  suggest_eq ? " here. Maybe you meant '==' instead of '='?" : "");
  uint32_t start = file.line_start(line_no);
  return Diagnostic{Severity::Error,
                    {&file, start + static_cast<uint32_t>(begin), start + static_cast<uint32_t>(end)},
                    std::move(message),
                    {},
                    {}};
}

/// Reports every ERROR and MISSING node. One diagnostic per ERROR subtree (its
/// first token is what the parser could not fit) and at most one per line.
void report_syntax_errors(TSNode root, const SourceFile& file, DiagnosticSink& sink) {
  const Grammar& g = Grammar::get();
  std::string_view src = file.text();
  uint32_t last_line = 0;
  auto report = [&](uint32_t begin, uint32_t end, std::string message) {
    uint32_t line = file.line_col(begin).line;
    if (line == last_line) return;
    last_line = line;
    sink.error({&file, begin, end}, std::move(message));
  };
  std::vector<TSNode> stack{root};
  while (!stack.empty() && !sink.saturated()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (!ts_node_has_error(n) && !ts_node_is_missing(n)) continue;
    if (ts_node_is_missing(n)) {
      uint32_t at = ts_node_start_byte(n);
      std::string_view type = ts_node_type(n);
      std::string what = ts_node_is_named(n) ? fmt::format("an {}", type) : fmt::format("'{}'", type);
      if (type == "_indent" || type == "indent") what = "an indented block";
      report(at, at, fmt::format("invalid syntax: expected {}", what));
      continue;
    }
    if (g.sym(n) == Sym::Error) {
      // The first leaf inside the ERROR node is the token that did not fit.
      TSNode leaf = n;
      while (ts_node_child_count(leaf) > 0) leaf = ts_node_child(leaf, 0);
      uint32_t b = ts_node_start_byte(leaf), e = ts_node_end_byte(leaf);
      if (e <= b) {
        b = ts_node_start_byte(n);
        e = std::max(b, std::min(ts_node_end_byte(n), b + 1));
      }
      std::string_view tok = src.substr(b, e - b);
      if (auto bad = bad_assignment_target(file, file.line_col(b).line)) {
        uint32_t line = file.line_col(b).line;
        if (line != last_line) {
          last_line = line;
          sink.report(std::move(*bad));
        }
      } else if (tok.empty()) {
        report(b, b, "invalid syntax");
      } else if (tok == "(" || tok == "[" || tok == "{") {
        report(b, e, fmt::format("invalid syntax: '{}' was never closed", tok));
      } else {
        report(b, e, fmt::format("invalid syntax: unexpected {}", describe_token(tok)));
      }
      continue;
    }
    auto kids = children(n, /*named_only=*/false);
    stack.insert(stack.end(), kids.rbegin(), kids.rend());
  }
}

}  // namespace

namespace {

ast::Module parse_tree(std::shared_ptr<const SourceFile> file, DiagnosticSink& sink, bool check_context) {
  ast::Module m;
  m.file = file;
  const Grammar& g = Grammar::get();
  ParserHandle parser(ts_parser_new());
  ts_parser_set_language(parser.get(), g.language());
  ts_parser_set_timeout_micros(parser.get(), kParseTimeoutMicros);
  std::string_view text = file->text();
  std::string patched;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") {
    // A UTF-8 byte order mark is allowed; give tree-sitter spaces in its place so
    // every offset still matches the file.
    patched = std::string(text);
    patched.replace(0, 3, "   ");
    text = patched;
  }
  TreeHandle tree(ts_parser_parse_string(parser.get(), nullptr, text.data(), static_cast<uint32_t>(text.size())));
  if (!tree) {
    sink.error({file.get(), 0, 0}, "parsing took too long and was stopped");
    return m;
  }
  TSNode root = ts_tree_root_node(tree.get());
  if (ts_node_has_error(root)) {
    report_syntax_errors(root, *file, sink);
    if (!sink.has_errors()) sink.error({file.get(), 0, 0}, "invalid syntax");
    return m;
  }
  // A construct agc cannot convert fails only its function (convert_file
  // sorts those out); any other error fails the file, which then has no body.
  m.body = lower_module(root, *file, sink, check_context);
  if (check_context && !sink.has_file_errors()) validate_module(m.body, sink);
  if (sink.has_file_errors()) m.body.clear();
  return m;
}

ast::Module parse(std::shared_ptr<const SourceFile> file, DiagnosticSink& sink, bool check_context) {
  if (!check_text(*file, sink)) return ast::Module{file, {}};
  TokenCheck tokens = check_context ? check_tokens(*file, sink) : TokenCheck::Clean;
  if (tokens == TokenCheck::Clean) return parse_tree(std::move(file), sink, check_context);
  if (tokens == TokenCheck::Structural) return ast::Module{file, {}};
  // Token-local errors leave the structure intact: parse on for the file's other
  // errors, dropping what the parser says about lines already reported.
  DiagnosticSink later;
  parse_tree(file, later, check_context);
  std::vector<uint32_t> reported;
  for (const Diagnostic& d : sink.diagnostics()) {
    if (d.span.file == file.get()) reported.push_back(file->line_col(d.span.begin).line);
  }
  for (const Diagnostic& d : later.diagnostics()) {
    uint32_t line = file->line_col(d.span.begin).line;
    if (std::find(reported.begin(), reported.end(), line) == reported.end()) sink.report(d);
  }
  return ast::Module{file, {}};
}

}  // namespace

ast::Module parse_module(std::shared_ptr<const SourceFile> file, DiagnosticSink& sink) {
  return parse(std::move(file), sink, true);
}

ast::Module parse_template(std::shared_ptr<const SourceFile> file, DiagnosticSink& sink) {
  return parse(std::move(file), sink, false);
}

}  // namespace agc::frontend
