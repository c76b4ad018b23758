// Statements as astunparse prints them, and to_source (python_printer.h).
#include "transpiler/ast/python_printer.h"

#include <string>
#include <utility>

#include "transpiler/ast/python_unparser.h"
#include "transpiler/base/check.h"

namespace agc::ast {

const char* binop_text(BinOpKind k) {
  switch (k) {
    case BinOpKind::Add: return "+";
    case BinOpKind::Sub: return "-";
    case BinOpKind::Mult: return "*";
    case BinOpKind::MatMult: return "@";
    case BinOpKind::Div: return "/";
    case BinOpKind::Mod: return "%";
    case BinOpKind::Pow: return "**";
    case BinOpKind::LShift: return "<<";
    case BinOpKind::RShift: return ">>";
    case BinOpKind::BitOr: return "|";
    case BinOpKind::BitXor: return "^";
    case BinOpKind::BitAnd: return "&";
    case BinOpKind::FloorDiv: return "//";
  }
  return "?";
}

const char* unop_text(UnaryOpKind k) {
  switch (k) {
    case UnaryOpKind::Invert: return "~";
    case UnaryOpKind::Not: return "not";
    case UnaryOpKind::UAdd: return "+";
    case UnaryOpKind::USub: return "-";
  }
  return "?";
}

const char* cmpop_text(CmpOpKind k) {
  switch (k) {
    case CmpOpKind::Eq: return "==";
    case CmpOpKind::NotEq: return "!=";
    case CmpOpKind::Lt: return "<";
    case CmpOpKind::LtE: return "<=";
    case CmpOpKind::Gt: return ">";
    case CmpOpKind::GtE: return ">=";
    case CmpOpKind::Is: return "is";
    case CmpOpKind::IsNot: return "is not";
    case CmpOpKind::In: return "in";
    case CmpOpKind::NotIn: return "not in";
  }
  return "?";
}

void PythonUnparser::statement(const Ref& n) {
  switch (n->kind) {
    case NodeKind::Expr:
      fill();
      dispatch(n->as<Expr>().value);
      return;
    case NodeKind::Import:
      fill("import ");
      comma_list(n->as<Import>().names);
      return;
    case NodeKind::ImportFrom: {
      const auto& t = n->as<ImportFrom>();
      fill("from ");
      write(std::string(static_cast<size_t>(t.level), '.'));
      write(t.module);
      write(" import ");
      comma_list(t.names);
      return;
    }
    case NodeKind::Assign: {
      const auto& t = n->as<Assign>();
      fill();
      for (const auto& target : t.targets) {
        dispatch(target);
        write(" = ");
      }
      dispatch(t.value);
      return;
    }
    case NodeKind::AugAssign: {
      const auto& t = n->as<AugAssign>();
      fill();
      dispatch(t.target);
      write(" ");
      write(binop_text(t.op));
      write("= ");
      dispatch(t.value);
      return;
    }
    case NodeKind::AnnAssign: {
      const auto& t = n->as<AnnAssign>();
      fill();
      bool paren = !t.simple && t.target->is<Name>();
      if (paren) write("(");
      dispatch(t.target);
      if (paren) write(")");
      write(": ");
      dispatch(t.annotation);
      if (t.value) {
        write(" = ");
        dispatch(t.value);
      }
      return;
    }
    case NodeKind::Return: {
      const auto& t = n->as<Return>();
      fill("return");
      if (t.value) {
        write(" ");
        dispatch(t.value);
      }
      return;
    }
    case NodeKind::Pass: fill("pass"); return;
    case NodeKind::Break: fill("break"); return;
    case NodeKind::Continue: fill("continue"); return;
    case NodeKind::Delete:
      fill("del ");
      comma_list(n->as<Delete>().targets);
      return;
    case NodeKind::Assert: {
      const auto& t = n->as<Assert>();
      fill("assert ");
      dispatch(t.test);
      if (t.msg) {
        write(", ");
        dispatch(t.msg);
      }
      return;
    }
    case NodeKind::Global:
    case NodeKind::Nonlocal: {
      const auto& names = n->is<Global>() ? n->as<Global>().names : n->as<Nonlocal>().names;
      fill(n->is<Global>() ? "global " : "nonlocal ");
      for (size_t i = 0; i < names.size(); ++i) {
        if (i) write(", ");
        write(names[i]);
      }
      return;
    }
    case NodeKind::Raise: {
      const auto& t = n->as<Raise>();
      fill("raise");
      if (!t.exc) return;
      write(" ");
      dispatch(t.exc);
      if (t.cause) {
        write(" from ");
        dispatch(t.cause);
      }
      return;
    }
    case NodeKind::Try: {
      const auto& t = n->as<Try>();
      fill("try");
      enter();
      block(t.body);
      leave();
      for (const auto& h : t.handlers) dispatch(h);
      if (!t.orelse.empty()) {
        fill("else");
        enter();
        block(t.orelse);
        leave();
      }
      if (!t.finalbody.empty()) {
        fill("finally");
        enter();
        block(t.finalbody);
        leave();
      }
      return;
    }
    case NodeKind::ClassDef: {
      const auto& t = n->as<ClassDef>();
      write("\n");
      for (const auto& d : t.decorator_list) {
        fill("@");
        dispatch(d);
      }
      fill("class " + t.name);
      write("(");
      bool comma = false;
      for (const auto& b : t.bases) {
        if (comma) write(", ");
        comma = true;
        dispatch(b);
      }
      for (const auto& k : t.keywords) {
        if (comma) write(", ");
        comma = true;
        dispatch(k);
      }
      write(")");
      enter();
      block(t.body);
      leave();
      return;
    }
    case NodeKind::FunctionDef: {
      const auto& t = n->as<FunctionDef>();
      write("\n");
      for (const auto& d : t.decorator_list) {
        fill("@");
        dispatch(d);
      }
      fill("def " + t.name + "(");
      dispatch(t.args);
      write(")");
      if (t.returns) {
        write(" -> ");
        dispatch(t.returns);
      }
      enter();
      block(t.body);
      leave();
      return;
    }
    case NodeKind::For: {
      const auto& t = n->as<For>();
      fill("for ");
      dispatch(t.target);
      write(" in ");
      dispatch(t.iter);
      enter();
      block(t.body);
      leave();
      if (!t.orelse.empty()) {
        fill("else");
        enter();
        block(t.orelse);
        leave();
      }
      return;
    }
    case NodeKind::If: {
      const If* t = &n->as<If>();
      fill("if ");
      dispatch(t->test);
      enter();
      block(t->body);
      leave();
      // Collapse nested ifs into equivalent elifs.
      while (t->orelse.size() == 1 && t->orelse[0]->is<If>()) {
        t = &t->orelse[0]->as<If>();
        fill("elif ");
        dispatch(t->test);
        enter();
        block(t->body);
        leave();
      }
      if (!t->orelse.empty()) {
        fill("else");
        enter();
        block(t->orelse);
        leave();
      }
      return;
    }
    case NodeKind::While: {
      const auto& t = n->as<While>();
      fill("while ");
      dispatch(t.test);
      enter();
      block(t.body);
      leave();
      if (!t.orelse.empty()) {
        fill("else");
        enter();
        block(t.orelse);
        leave();
      }
      return;
    }
    case NodeKind::With: {
      const auto& t = n->as<With>();
      fill("with ");
      comma_list(t.items);
      enter();
      block(t.body);
      leave();
      return;
    }
#define AGC_STMT(Name, Fields)
#define AGC_EXPR(Name, Fields) case NodeKind::Name:
#define AGC_AUX(Name, Fields) case NodeKind::Name:
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
      AGC_UNREACHABLE("expression in a statement's place");
  }
}

namespace {

/// `s` without leading and trailing whitespace, in place (the text of a
/// large function is not copied).
std::string strip(std::string s) {
  size_t e = s.find_last_not_of(" \t\n\r\f\v");
  if (e == std::string::npos) return "";
  s.erase(e + 1);
  s.erase(0, s.find_first_not_of(" \t\n\r\f\v"));
  return s;
}

}  // namespace

std::string to_source(const ast::Refs& stmts) {
  PythonUnparser u;
  for (const auto& s : stmts) u.dispatch(s);
  return strip(std::move(u.out));
}

std::string to_source(const ast::Ref& node) {
  PythonUnparser u;
  u.dispatch(node);
  return strip(std::move(u.out));
}

}  // namespace agc::ast
