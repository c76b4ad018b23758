#include "transpiler/frontend/parse.h"

#include <fmt/format.h>

#include "transpiler/frontend/lower.h"
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
  std::string shown(t.substr(0, 40));
  for (char& c : shown) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return fmt::format("'{}'", shown);
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
      if (tok.empty()) {
        report(b, b, "invalid syntax");
      } else if (tok == "(" || tok == "[" || tok == "{") {
        report(b, e, fmt::format("invalid syntax: '{}' was never closed", tok));
      } else {
        report(b, e, fmt::format("invalid syntax: unexpected {}", describe_token(tok)));
      }
      continue;
    }
    uint32_t count = ts_node_child_count(n);
    for (uint32_t i = count; i-- > 0;) stack.push_back(ts_node_child(n, i));
  }
}

}  // namespace

namespace {

ast::Module parse(std::shared_ptr<const SourceFile> file, DiagnosticSink& sink, bool check_context) {
  ast::Module m;
  m.file = file;
  if (!check_text(*file, sink)) return m;
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
  size_t errors_before = sink.error_count();
  m.body = lower_module(root, *file, sink, check_context);
  if (sink.error_count() > errors_before) m.body.clear();
  return m;
}

}  // namespace

ast::Module parse_module(std::shared_ptr<const SourceFile> file, DiagnosticSink& sink) {
  return parse(std::move(file), sink, true);
}

ast::Module parse_template(std::shared_ptr<const SourceFile> file, DiagnosticSink& sink) {
  return parse(std::move(file), sink, false);
}

}  // namespace agc::frontend
