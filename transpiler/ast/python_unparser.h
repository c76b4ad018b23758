// The unparser behind python_printer.h: astunparse's Unparser, one case per
// node kind. Statements are in python_printer.cpp, expressions and the
// auxiliary nodes in python_printer_expr.cpp. Internal to transpiler/ast.
#pragma once

#include <string>
#include <string_view>

#include "transpiler/ast/ast.h"
#include "transpiler/ast/python_printer.h"

namespace agc::ast {

const char* unop_text(UnaryOpKind k);
const char* cmpop_text(CmpOpKind k);

class PythonUnparser {
 public:
  std::string out;

  /// Prints `n`; `noparen` drops the parentheses astunparse puts around a
  /// binary operation where its context needs none.
  void dispatch(const Ref& n, bool noparen = false) {
    if (!n) return;
    if (is_stmt(n->kind)) {
      statement(n);
    } else {
      expression(n, noparen);
    }
  }

 private:
  void statement(const Ref& n);
  /// An expression, or an auxiliary node (arguments, an except clause, ...).
  void expression(const Ref& n, bool noparen);

  void fill(std::string_view text = "") {
    out += '\n';
    out.append(static_cast<size_t>(indent_) * 4, ' ');
    out += text;
  }
  void write(std::string_view text) { out += text; }
  void enter() {
    write(":");
    ++indent_;
  }
  void leave() { --indent_; }

  void block(const Refs& stmts) {
    for (const auto& s : stmts) dispatch(s);
  }
  template <class F>
  void interleave(const Refs& items, F&& f) {
    bool first = true;
    for (const auto& i : items) {
      if (!first) write(", ");
      first = false;
      f(i);
    }
  }
  void comma_list(const Refs& items) {
    interleave(items, [&](const Ref& r) { dispatch(r); });
  }

  void block_gens(const Refs& gens);
  void arguments(const Arguments& t);
  // f-string bodies: literal text is written raw with braces doubled, and
  // interpolations are unparsed separately (astunparse's _fstring_* methods).
  void fstring_parts(const JoinedStr& j, std::string& w);
  void fstring_formatted(const FormattedValue& f, std::string& w);

  int indent_ = 0;
};

}  // namespace agc::ast
