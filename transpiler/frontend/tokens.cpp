#include "transpiler/frontend/tokens.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "transpiler/frontend/keywords.h"

namespace agc::frontend {
namespace {

bool is_ident_start(unsigned char c) { return c == '_' || static_cast<unsigned>((c | 0x20) - 'a') < 26u || c >= 0x80; }
bool is_ident_char(unsigned char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }
bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/// Words that open a compound statement, with how CPython names it in
/// "expected an indented block after ...".
const char* header_name(std::string_view word) {
  static const std::pair<std::string_view, const char*> table[] = {
      {"if", "'if' statement"},         {"elif", "'elif' statement"},   {"else", "'else' statement"},
      {"while", "'while' statement"},   {"for", "'for' statement"},     {"try", "'try' statement"},
      {"except", "'except' statement"}, {"finally", "'finally' statement"}, {"with", "'with' statement"},
      {"def", "function definition"},   {"class", "class definition"},  {"async", "'async' statement"},
  };
  for (const auto& [w, name] : table) {
    if (w == word) return name;
  }
  return nullptr;
}

bool is_assignment(std::string_view tok) {
  return tok == "=" || (tok.size() >= 2 && tok.back() == '=' && tok != "==" && tok != "!=" && tok != "<=" &&
                        tok != ">=");
}

// Operators after which a logical line cannot end.
bool dangling_operator(std::string_view tok) {
  static constexpr std::string_view ops[] = {"+",  "-",  "*",  "/",  "%",  "**",  "//",  "@",  "<<", ">>", "&",  "|",  "^",
                              "=",  "==", "!=", "<",  ">",  "<=",  ">=",  "+=", "-=", "*=", "/=", "%=", "**=",
                              "//=", "@=", "<<=", ">>=", "&=", "|=", "^=", "~",  ".",  "and", "or", "not", "in",
                              "is"};
  for (std::string_view op : ops) {
    if (tok == op) return true;
  }
  return false;
}

class Tokenizer {
 public:
  Tokenizer(const SourceFile& file, DiagnosticSink& sink) : file_(file), text_(file.text()), sink_(sink) {}

  TokenCheck run() {
    indents_.push_back({0, 0, {}});
    while (pos_ < text_.size() && errors_ < kMaxErrors) {
      if (at_line_start_ && brackets_.empty() && !continuation_) {
        if (!indentation()) continue;  // blank or comment-only line consumed
      }
      at_line_start_ = false;
      token();
    }
    if (errors_ < kMaxErrors) end_of_file();
    return errors_ == 0 ? TokenCheck::Clean : structural_ ? TokenCheck::Structural : TokenCheck::Local;
  }

 private:
  struct Indent {
    int col, altcol;
    std::string last_word;  // first word of the block's latest statement
    uint32_t last_at = 0;   // and where it is
  };
  struct Bracket {
    char c;
    uint32_t at;
  };

  // After an error the scan goes on (each error site says how it recovers), so
  // that independent mistakes are all reported; at most one per line.
  static constexpr int kMaxErrors = 20;
  void error(uint32_t begin, uint32_t end, std::string message) { report(begin, end, std::move(message), true); }
  /// An error confined to one token; see TokenCheck::Local.
  void local_error(uint32_t begin, uint32_t end, std::string message) {
    report(begin, end, std::move(message), false);
  }
  void report(uint32_t begin, uint32_t end, std::string message, bool structural) {
    uint32_t line = line_of(begin);
    if (line == last_error_line_) return;
    last_error_line_ = line;
    ++errors_;
    structural_ = structural_ || structural;
    auto size = static_cast<uint32_t>(text_.size());  // a caret after the last byte stays in the file
    begin = std::min(begin, size);
    end = std::min(end, size);
    sink_.error({&file_, begin, std::max(begin, end)}, std::move(message));
  }

  uint32_t line_of(uint32_t offset) const { return file_.line_col(offset).line; }

  /// Measures the indentation of a new logical line and checks it against the
  /// enclosing blocks. Returns false for a blank or comment-only line.
  bool indentation() {
    int col = 0, altcol = 0;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == ' ') {
        ++col;
        ++altcol;
      } else if (c == '\t') {
        col = (col / 8 + 1) * 8;
        ++altcol;
      } else if (c == '\f') {
        col = altcol = 0;
      } else {
        break;
      }
      ++pos_;
    }
    if (pos_ >= text_.size() || text_[pos_] == '#' || text_[pos_] == '\n' ||
        (text_[pos_] == '\r' && (pos_ + 1 >= text_.size() || text_[pos_ + 1] == '\n'))) {
      // Blank or comment line: no indentation meaning.
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      if (pos_ < text_.size()) ++pos_;
      at_line_start_ = true;
      return false;
    }
    uint32_t first = static_cast<uint32_t>(pos_);
    if (col > kMaxIndentColumns) {
      error(first, first + 1,
            fmt::format("line is indented {} columns; agc supports at most {} (too many levels of indentation)", col,
                        kMaxIndentColumns));
      return true;
    }
    Indent top = indents_.back();
    if (pending_header_) {
      pending_header_ = false;
      if (col > top.col) {
        if (altcol <= top.altcol) error(first, first + 1, "inconsistent use of tabs and spaces in indentation");
        if (indents_.size() >= static_cast<size_t>(kMaxIndentLevels)) {
          error(first, first + 1, "too many levels of indentation");
        }
        indents_.push_back({col, altcol, {}});
        return true;
      }
      error(first, first + 1,
            fmt::format("expected an indented block after {} on line {}", header_what_, header_line_));
      return true;
    }
    if (col == top.col) {
      if (altcol != top.altcol) error(first, first + 1, "inconsistent use of tabs and spaces in indentation");
      return true;
    }
    if (col > top.col) {
      // Recover by reading the line as part of the block it should be in.
      error(first, first + 1, "unexpected indent");
      return true;
    }
    while (indents_.size() > 1 && indents_.back().col > col) {
      close_block(first);
      indents_.pop_back();
    }
    if (indents_.back().col != col) {
      error(first, first + 1, "unindent does not match any outer indentation level");
      indents_.push_back({col, altcol, {}});  // recover: treat it as a block of its own
    } else if (indents_.back().altcol != altcol) {
      error(first, first + 1, "inconsistent use of tabs and spaces in indentation");
    }
    return true;
  }

  /// The end of a logical line: remember whether it opened a block.
  void end_logical_line(uint32_t at) {
    if (!line_first_word_.empty() && !keyword_assignment_) {
      const char* what = header_name(line_first_word_);
      if (what && !line_has_colon_) {
        error(last_token_end_, last_token_end_ + 1, "expected ':'");
        // Recover as if the colon were there, so the body is not "unexpected".
        if (last_token_ != ":") {
          last_token_ = ":";
          last_token_begin_ = last_token_end_;
        }
      }
      // `from m import *` is the one statement that ends in an operator.
      if (dangling_operator(last_token_) && !(last_token_ == "*" && line_first_word_ == "from")) {
        error(last_token_begin_, last_token_end_,
              fmt::format("invalid syntax: expected an expression after '{}'", last_token_));
      }
      if (what && last_token_ == ":") {
        pending_header_ = true;
        header_what_ = what;
        header_line_ = line_of(line_first_at_);
        header_colon_ = last_token_begin_;
      }
    }
    (void)at;
    line_first_word_.clear();
    line_has_colon_ = false;
    keyword_assignment_ = false;
    tokens_in_line_ = 0;
    last_token_.clear();
    line_started_ = false;
  }

  /// A statement begins in the innermost block: clause keywords (`elif`,
  /// `else`, `except`, `finally`) must continue a statement that takes them,
  /// and a `try` must go on with `except` or `finally`.
  void statement_start(std::string_view word, uint32_t begin, uint32_t end) {
    std::string& last = indents_.back().last_word;
    const char* follows = nullptr;
    if (word == "elif") {
      if (last != "if" && last != "elif") follows = "an 'if' or 'elif'";
    } else if (word == "else") {
      // (`async` stands for `async for`, the one async statement taking `else`.)
      if (last != "if" && last != "elif" && last != "for" && last != "while" && last != "except" && last != "async")
        follows = last == "try" ? nullptr : "an 'if', 'elif', 'for', 'while' or 'except'";
    } else if (word == "except") {
      if (last != "try" && last != "except") follows = "a 'try' or 'except'";
    } else if (word == "finally") {
      if (last != "try" && last != "except" && last != "else") follows = "a 'try', 'except' or 'else'";
    }
    if (follows) {
      error(begin, end, fmt::format("invalid syntax: '{}' must follow {} block", word, follows));
    } else if (last == "try" && word != "except" && word != "finally") {
      error(begin, end, "expected 'except' or 'finally' block");
    }
    last = std::string(word);
    indents_.back().last_at = begin;
  }

  /// A block ends before the code at `next`, or at the end of the file
  /// (`next` unset), where the error goes on the `try` itself.
  void close_block(std::optional<uint32_t> next) {
    const Indent& b = indents_.back();
    if (b.last_word != "try") return;
    uint32_t at = next.value_or(b.last_at);
    error(at, at + (next ? 1 : 3), "expected 'except' or 'finally' block");
  }

  void note_token(std::string_view tok, uint32_t begin, uint32_t end) {
    if (!line_started_) {
      line_started_ = true;
      line_first_at_ = begin;
      line_first_word_ = std::string(tok);
      statement_start(tok, begin, end);
    }
    if (++tokens_in_line_ == 2 && is_assignment(tok) && is_keyword(line_first_word_)) {
      keyword_assignment_ = true;
      local_error(line_first_at_, line_first_at_ + static_cast<uint32_t>(line_first_word_.size()),
            fmt::format("invalid syntax: '{}' is a keyword and cannot be assigned to", line_first_word_));
    }
    if (brackets_.empty() && tok == ":") line_has_colon_ = true;
    last_token_ = std::string(tok);
    last_token_begin_ = begin;
    last_token_end_ = end;
  }

  void token() {
    unsigned char c = static_cast<unsigned char>(text_[pos_]);
    uint32_t at = static_cast<uint32_t>(pos_);
    switch (c) {
      case '\n':
        ++pos_;
        at_line_start_ = true;
        if (brackets_.empty() && !continuation_) end_logical_line(at);
        continuation_ = false;
        return;
      case ' ':
      case '\t':
      case '\f':
      case '\r':
        ++pos_;
        return;
      case '#':
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
        return;
      case '\\': {
        size_t p = pos_ + 1;
        if (p < text_.size() && text_[p] == '\r') ++p;
        if (p >= text_.size() || text_[p] == '\n') {
          continuation_ = true;
          pos_ = p;
          return;
        }
        error(at, at + 1, "unexpected character after line continuation character");
        ++pos_;
        return;
      }
      case '`':
        local_error(at, at + 1, "backquotes are not valid Python 3; use repr(x)");
        ++pos_;
        return;
      case '(':
      case '[':
      case '{':
        brackets_.push_back({static_cast<char>(c), at});
        note_token(std::string_view(&text_[pos_], 1), at, at + 1);
        ++pos_;
        return;
      case ')':
      case ']':
      case '}': {
        char open = c == ')' ? '(' : c == ']' ? '[' : '{';
        if (brackets_.empty()) {
          error(at, at + 1, fmt::format("unmatched '{}'", static_cast<char>(c)));
          ++pos_;  // recover: ignore it
          return;
        }
        if (brackets_.back().c != open) {
          uint32_t open_line = line_of(brackets_.back().at);
          uint32_t close_line = line_of(at);
          error(at, at + 1,
                open_line == close_line
                    ? fmt::format("closing parenthesis '{}' does not match opening parenthesis '{}'",
                                  static_cast<char>(c), brackets_.back().c)
                    : fmt::format("closing parenthesis '{}' does not match opening parenthesis '{}' on line {}",
                                  static_cast<char>(c), brackets_.back().c, open_line));
          // recover: take it as the closing of the innermost bracket
        }
        brackets_.pop_back();
        ++pos_;
        note_token(std::string_view(&text_[at], 1), at, at + 1);
        return;
      }
      case '\'':
      case '"':
        string_literal(at, at, "");
        return;
      default:
        break;
    }
    if (is_digit(c) || (c == '.' && pos_ + 1 < text_.size() && is_digit(static_cast<unsigned char>(text_[pos_ + 1])))) {
      number(at);
      return;
    }
    if (is_ident_start(c)) {
      size_t p = pos_;
      while (p < text_.size() && is_ident_char(static_cast<unsigned char>(text_[p]))) ++p;
      std::string_view word = text_.substr(pos_, p - pos_);
      if (p < text_.size() && (text_[p] == '\'' || text_[p] == '"') && word.size() <= 3 &&
          word.find_first_not_of("rRbBuUfF") == std::string_view::npos) {
        std::string lower;
        for (char ch : word) lower += static_cast<char>(ch | 0x20);
        static const char* valid[] = {"r", "u", "b", "br", "rb", "f", "fr", "rf"};
        bool ok = false;
        for (const char* v : valid) ok = ok || lower == v;
        if (!ok) local_error(at, static_cast<uint32_t>(p), fmt::format("invalid string prefix '{}'", word));
        pos_ = p;
        string_literal(at, static_cast<uint32_t>(p), ok ? lower : "");
        return;
      }
      pos_ = p;
      note_token(word, at, static_cast<uint32_t>(p));
      return;
    }
    if (c < 0x20 || c == 0x7f) {
      local_error(at, at + 1, fmt::format("invalid non-printable character U+{:04X}", c));
      ++pos_;
      return;
    }
    // Operators: take the longest of the usual multi-character ones.
    static constexpr std::string_view ops[] = {"...", "**=", "//=", ">>=", "<<=", "!=", "==", "<=", ">=", "->", "**", "//", "<<",
                                ">>",  ":=",  "+=",  "-=",  "*=",  "/=", "%=", "@=", "&=", "|=", "^="};
    for (std::string_view op : ops) {
      if (text_.compare(pos_, op.size(), op) == 0) {
        note_token(text_.substr(pos_, op.size()), at, static_cast<uint32_t>(pos_ + op.size()));
        pos_ += op.size();
        return;
      }
    }
    note_token(text_.substr(pos_, 1), at, at + 1);
    ++pos_;
  }

  /// A string literal starting at `start` (its prefix) with the quote at `quote_at`.
  void string_literal(uint32_t start, uint32_t quote_at, const std::string& prefix) {
    pos_ = quote_at;
    bool raw = prefix.find('r') != std::string::npos;
    bool fstring = prefix.find('f') != std::string::npos;
    // On an unterminated string the scan stops at the end of its line (or of
    // the file); reading goes on from there.
    scan_string(start, raw, fstring);
    note_token("'", start, static_cast<uint32_t>(pos_));
  }

  /// Scans a string whose opening quote is at pos_; leaves pos_ after its close.
  bool scan_string(uint32_t start, bool raw, bool fstring) {
    char q = text_[pos_];
    bool triple = text_.compare(pos_, 3, std::string(3, q)) == 0;
    pos_ += triple ? 3 : 1;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == '\\') {
        pos_ += 2;
        continue;
      }
      if (c == '\n' && !triple) break;
      if (c == q && (!triple || text_.compare(pos_, 3, std::string(3, q)) == 0)) {
        pos_ += triple ? 3 : 1;
        return true;
      }
      if (fstring && c == '{') {
        if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '{') {
          pos_ += 2;
          continue;
        }
        if (!scan_replacement_field(start, q, triple)) return false;
        continue;
      }
      ++pos_;
    }
    uint32_t detected = line_of(static_cast<uint32_t>(std::min(pos_, text_.size())));
    error(start, start + 1,
          triple ? fmt::format("unterminated triple-quoted string literal (detected at line {})", detected)
                 : fmt::format("unterminated string literal (detected at line {})", detected));
    (void)raw;
    return false;
  }

  /// An f-string `{...}` field: nested brackets and strings until its `}`.
  bool scan_replacement_field(uint32_t string_start, char q, bool triple) {
    int depth = 0;
    ++pos_;  // '{'
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      // Python 3.12 lets a replacement field span lines, so newlines are fine here.
      if (c == '\'' || c == '"') {
        if (!scan_string(static_cast<uint32_t>(pos_), false, false)) return false;
        continue;
      }
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']') --depth;
      if (c == '}') {
        if (depth == 0) {
          ++pos_;
          return true;
        }
        --depth;
      }
      ++pos_;
    }
    (void)q;
    uint32_t detected = line_of(static_cast<uint32_t>(std::min(pos_, text_.size())));
    error(string_start, string_start + 1,
          fmt::format("unterminated {}string literal (detected at line {})", triple ? "triple-quoted " : "", detected));
    return false;
  }

  void number(uint32_t at) {
    auto peek = [&](size_t k = 0) -> unsigned char {
      return pos_ + k < text_.size() ? static_cast<unsigned char>(text_[pos_ + k]) : 0;
    };
    // Digits of a base, with single underscores only between digits.
    auto digits = [&](auto is_base_digit, bool required) -> bool {
      bool any = false;
      while (true) {
        if (is_base_digit(peek())) {
          any = true;
          ++pos_;
        } else if (peek() == '_' && any && is_base_digit(peek(1))) {
          ++pos_;
        } else {
          break;
        }
      }
      return any || !required;
    };
    auto fail = [&](std::string what) {
      if ((peek() | 0x20) == 'l' && !is_ident_char(peek(1))) {
        what += " (Python 2's long suffix 'L' is not valid Python 3; drop it)";
      }
      size_t end = pos_;
      while (end < text_.size() && is_ident_char(static_cast<unsigned char>(text_[end]))) ++end;
      local_error(at, static_cast<uint32_t>(std::max(end, pos_ + 1)), what);
      pos_ = std::max(end, pos_ + 1);  // recover: skip the rest of the literal
      note_token("0", at, static_cast<uint32_t>(pos_));
    };
    if (peek() == '0' && (peek(1) | 0x20) == 'x') {
      pos_ += 2;
      if (peek() == '_') ++pos_;
      if (!digits([](unsigned char ch) { return is_digit(ch) || static_cast<unsigned>((ch | 0x20) - 'a') < 6u; }, true) ||
          is_ident_char(peek())) {
        return fail("invalid hexadecimal literal");
      }
    } else if (peek() == '0' && ((peek(1) | 0x20) == 'o' || (peek(1) | 0x20) == 'b')) {
      bool octal = (peek(1) | 0x20) == 'o';
      pos_ += 2;
      if (peek() == '_') ++pos_;
      auto ok = [octal](unsigned char ch) { return octal ? ch >= '0' && ch <= '7' : ch == '0' || ch == '1'; };
      bool any = digits(ok, true);
      if (is_digit(peek())) {
        return fail(fmt::format("invalid digit '{}' in {} literal", static_cast<char>(peek()), octal ? "octal" : "binary"));
      }
      if (!any || is_ident_char(peek())) return fail(fmt::format("invalid {} literal", octal ? "octal" : "binary"));
    } else {
      bool leading_zero = peek() == '0';
      digits(is_digit_fn, false);
      bool is_float = false;
      if (peek() == '.') {
        is_float = true;
        ++pos_;
        if (peek() == '_') return fail("invalid decimal literal");
        digits(is_digit_fn, false);
      }
      if ((peek() | 0x20) == 'e' && (is_digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && is_digit(peek(2))))) {
        is_float = true;
        pos_ += peek(1) == '+' || peek(1) == '-' ? 2 : 1;
        digits(is_digit_fn, true);
      }
      bool imaginary = (peek() | 0x20) == 'j';
      if (imaginary) ++pos_;
      if (is_ident_char(peek())) return fail("invalid decimal literal");
      if (leading_zero && !is_float && !imaginary && pos_ - at > 1) {
        std::string_view lit = text_.substr(at, pos_ - at);
        if (lit.find_first_not_of("0_") != std::string_view::npos) {
          local_error(at, static_cast<uint32_t>(pos_),
                "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
        }
      }
    }
    note_token("0", at, static_cast<uint32_t>(pos_));
  }

  static bool is_digit_fn(unsigned char ch) { return is_digit(ch); }

  void end_of_file() {
    if (!brackets_.empty()) {
      const Bracket& b = brackets_.back();
      error(b.at, b.at + 1, fmt::format("'{}' was never closed", b.c));
      return;
    }
    uint32_t end = static_cast<uint32_t>(text_.size());
    if (!continuation_) end_logical_line(end);
    if (pending_header_) {
      error(header_colon_, header_colon_ + 1,
            fmt::format("expected an indented block after {} on line {}", header_what_, header_line_));
      return;
    }
    for (; !indents_.empty(); indents_.pop_back()) close_block(std::nullopt);
  }

  const SourceFile& file_;
  std::string_view text_;
  DiagnosticSink& sink_;
  size_t pos_ = 0;
  int errors_ = 0;
  bool structural_ = false;
  uint32_t last_error_line_ = 0;
  bool at_line_start_ = true;
  bool continuation_ = false;
  std::vector<Indent> indents_;
  std::vector<Bracket> brackets_;
  // The logical line being read.
  bool line_started_ = false;
  std::string line_first_word_;
  uint32_t line_first_at_ = 0;
  bool line_has_colon_ = false;
  bool keyword_assignment_ = false;
  int tokens_in_line_ = 0;
  std::string last_token_;
  uint32_t last_token_begin_ = 0, last_token_end_ = 0;
  // A block header whose body must come next.
  bool pending_header_ = false;
  const char* header_what_ = "";
  uint32_t header_line_ = 0;
  uint32_t header_colon_ = 0;
};

}  // namespace

TokenCheck check_tokens(const SourceFile& file, DiagnosticSink& sink) { return Tokenizer(file, sink).run(); }

}  // namespace agc::frontend
