#include "transpiler/ast/python_printer.h"

#include "transpiler/ast/python_repr.h"

namespace agc::ast {
namespace {

using namespace ast;

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

/// One method per node kind, mirroring astunparse's Unparser.
class Unparser {
 public:
  std::string out;

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

  void dispatch(const Ref& n, bool noparen = false) {
    if (!n) return;
    switch (n->kind) {
      // ---- statements
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
      case NodeKind::ExceptHandler: {
        const auto& t = n->as<ExceptHandler>();
        fill("except");
        if (t.type) {
          write(" ");
          dispatch(t.type);
        }
        if (!t.name.empty()) {
          write(" as ");
          write(t.name);
        }
        enter();
        block(t.body);
        leave();
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
      // ---- expressions
      case NodeKind::Constant:
        write(repr_constant(n->as<Constant>().value));
        return;
      case NodeKind::JoinedStr: {
        write("f");
        std::string v;
        fstring_parts(n->as<JoinedStr>(), v);
        bool multiline = v.find('\n') != std::string::npos || v.find('\r') != std::string::npos;
        static const char* single[] = {"'", "\"", "\"\"\"", "'''"};
        static const char* multi[] = {"'''", "\"\"\""};
        const char* const* quotes = multiline ? multi : single;
        size_t nquotes = multiline ? 2 : 4;
        for (size_t i = 0; i < nquotes; ++i) {
          if (v.find(quotes[i]) == std::string::npos) {
            write(quotes[i]);
            write(v);
            write(quotes[i]);
            return;
          }
        }
        write(repr_str(v));
        return;
      }
      case NodeKind::FormattedValue: {
        write("f");
        std::string v;
        fstring_formatted(n->as<FormattedValue>(), v);
        write(repr_str(v));
        return;
      }
      case NodeKind::Name:
        write(n->as<Name>().id);
        return;
      case NodeKind::List:
        write("[");
        comma_list(n->as<List>().elts);
        write("]");
        return;
      case NodeKind::ListComp: {
        const auto& t = n->as<ListComp>();
        write("[");
        dispatch(t.elt);
        block_gens(t.generators);
        write("]");
        return;
      }
      case NodeKind::GeneratorExp: {
        const auto& t = n->as<GeneratorExp>();
        write("(");
        dispatch(t.elt);
        block_gens(t.generators);
        write(")");
        return;
      }
      case NodeKind::SetComp: {
        const auto& t = n->as<SetComp>();
        write("{");
        dispatch(t.elt);
        block_gens(t.generators);
        write("}");
        return;
      }
      case NodeKind::DictComp: {
        const auto& t = n->as<DictComp>();
        write("{");
        dispatch(t.key);
        write(": ");
        dispatch(t.value);
        block_gens(t.generators);
        write("}");
        return;
      }
      case NodeKind::Comprehension: {
        const auto& t = n->as<Comprehension>();
        write(" for ");
        dispatch(t.target);
        write(" in ");
        dispatch(t.iter);
        for (const auto& c : t.ifs) {
          write(" if ");
          dispatch(c);
        }
        return;
      }
      case NodeKind::IfExp: {
        const auto& t = n->as<IfExp>();
        write("(");
        dispatch(t.body);
        write(" if ");
        dispatch(t.test);
        write(" else ");
        dispatch(t.orelse);
        write(")");
        return;
      }
      case NodeKind::Set:
        write("{");
        comma_list(n->as<Set>().elts);
        write("}");
        return;
      case NodeKind::Dict: {
        const auto& t = n->as<Dict>();
        write("{");
        for (size_t i = 0; i < t.values.size(); ++i) {
          if (i) write(", ");
          if (!t.keys[i]) {
            write("**");
            dispatch(t.values[i]);
          } else {
            dispatch(t.keys[i]);
            write(": ");
            dispatch(t.values[i]);
          }
        }
        write("}");
        return;
      }
      case NodeKind::Tuple: {
        const auto& t = n->as<Tuple>();
        if (!noparen) write("(");
        if (t.elts.size() == 1) {
          dispatch(t.elts[0]);
          write(",");
        } else {
          comma_list(t.elts);
        }
        if (!noparen) write(")");
        return;
      }
      case NodeKind::UnaryOp: {
        const auto& t = n->as<UnaryOp>();
        write("(");
        write(unop_text(t.op));
        write(" ");
        dispatch(t.operand);
        write(")");
        return;
      }
      case NodeKind::BinOp: {
        const auto& t = n->as<BinOp>();
        write("(");
        dispatch(t.left);
        write(" ");
        write(binop_text(t.op));
        write(" ");
        dispatch(t.right);
        write(")");
        return;
      }
      case NodeKind::Compare: {
        const auto& t = n->as<Compare>();
        write("(");
        dispatch(t.left);
        for (size_t i = 0; i < t.ops.size() && i < t.comparators.size(); ++i) {
          write(" ");
          write(cmpop_text(t.ops[i]));
          write(" ");
          dispatch(t.comparators[i]);
        }
        write(")");
        return;
      }
      case NodeKind::BoolOp: {
        const auto& t = n->as<BoolOp>();
        write("(");
        bool first = true;
        for (const auto& v : t.values) {
          if (!first) write(t.op == BoolOpKind::And ? " and " : " or ");
          first = false;
          dispatch(v);
        }
        write(")");
        return;
      }
      case NodeKind::Attribute: {
        const auto& t = n->as<Attribute>();
        dispatch(t.value);
        // `3 .real`: an int literal needs a space before the dot.
        if (const auto* c = t.value->dyn<Constant>()) {
          if (c->value.kind == ConstantValue::Kind::Int || c->value.kind == ConstantValue::Kind::Bool) write(" ");
        }
        write(".");
        write(t.attr);
        return;
      }
      case NodeKind::Call: {
        const auto& t = n->as<Call>();
        dispatch(t.func);
        write("(");
        bool comma = false;
        for (const auto& a : t.args) {
          if (comma) write(", ");
          comma = true;
          dispatch(a);
        }
        for (const auto& k : t.keywords) {
          if (comma) write(", ");
          comma = true;
          dispatch(k);
        }
        write(")");
        return;
      }
      case NodeKind::Subscript: {
        const auto& t = n->as<Subscript>();
        dispatch(t.value);
        write("[");
        dispatch(t.slice, /*noparen=*/true);
        write("]");
        return;
      }
      case NodeKind::Starred:
        write("*");
        dispatch(n->as<Starred>().value);
        return;
      case NodeKind::Slice: {
        const auto& t = n->as<Slice>();
        if (t.lower) dispatch(t.lower);
        write(":");
        if (t.upper) dispatch(t.upper);
        if (t.step) {
          write(":");
          dispatch(t.step);
        }
        return;
      }
      case NodeKind::Arg: {
        const auto& t = n->as<Arg>();
        write(t.arg);
        if (t.annotation) {
          write(": ");
          dispatch(t.annotation);
        }
        return;
      }
      case NodeKind::Arguments:
        arguments(n->as<Arguments>());
        return;
      case NodeKind::Keyword: {
        const auto& t = n->as<Keyword>();
        if (t.arg.empty()) {
          write("**");
        } else {
          write(t.arg);
          write("=");
        }
        dispatch(t.value);
        return;
      }
      case NodeKind::Lambda: {
        const auto& t = n->as<Lambda>();
        write("(");
        write("lambda ");
        dispatch(t.args);
        write(": ");
        dispatch(t.body);
        write(")");
        return;
      }
      case NodeKind::Alias: {
        const auto& t = n->as<Alias>();
        write(t.name);
        if (!t.asname.empty()) write(" as " + t.asname);
        return;
      }
      case NodeKind::WithItem: {
        const auto& t = n->as<WithItem>();
        dispatch(t.context_expr);
        if (t.optional_vars) {
          write(" as ");
          dispatch(t.optional_vars);
        }
        return;
      }
    }
  }

 private:
  void block_gens(const Refs& gens) {
    for (const auto& g : gens) dispatch(g);
  }

  void arguments(const Arguments& t) {
    bool first = true;
    auto sep = [&] {
      if (!first) write(", ");
      first = false;
    };
    Refs all = t.posonlyargs;
    all.insert(all.end(), t.args.begin(), t.args.end());
    size_t ndefaults = t.defaults.size();
    for (size_t i = 0; i < all.size(); ++i) {
      sep();
      dispatch(all[i]);
      size_t first_default = all.size() - std::min(ndefaults, all.size());
      if (i >= first_default) {
        write("=");
        dispatch(t.defaults[i - first_default]);
      }
      if (i + 1 == t.posonlyargs.size()) write(", /");
    }
    if (t.vararg || !t.kwonlyargs.empty()) {
      sep();
      write("*");
      if (t.vararg) dispatch(t.vararg);
    }
    for (size_t i = 0; i < t.kwonlyargs.size(); ++i) {
      sep();
      dispatch(t.kwonlyargs[i]);
      if (i < t.kw_defaults.size() && t.kw_defaults[i]) {
        write("=");
        dispatch(t.kw_defaults[i]);
      }
    }
    if (t.kwarg) {
      sep();
      write("**");
      dispatch(t.kwarg);
    }
  }

  // f-string bodies: literal text is written raw with braces doubled, and
  // interpolations are unparsed separately (astunparse's _fstring_* methods).
  void fstring_parts(const JoinedStr& j, std::string& w) {
    for (const auto& v : j.values) {
      if (const auto* c = v->dyn<Constant>()) {
        for (char ch : c->value.text) {
          w += ch;
          if (ch == '{' || ch == '}') w += ch;
        }
      } else if (const auto* f = v->dyn<FormattedValue>()) {
        fstring_formatted(*f, w);
      } else if (const auto* nested = v->dyn<JoinedStr>()) {
        fstring_parts(*nested, w);
      }
    }
  }
  void fstring_formatted(const FormattedValue& f, std::string& w) {
    w += '{';
    Unparser inner;
    inner.dispatch(f.value);
    std::string e = inner.out;
    while (!e.empty() && e.back() == '\n') e.pop_back();
    if (!e.empty() && e[0] == '{') w += ' ';
    w += e;
    if (f.conversion != -1) {
      w += '!';
      w += static_cast<char>(f.conversion);
    }
    if (f.format_spec) {
      w += ':';
      if (const auto* spec = f.format_spec->dyn<JoinedStr>()) fstring_parts(*spec, w);
    }
    w += '}';
  }

  int indent_ = 0;
};

std::string strip(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\n\r\f\v");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\n\r\f\v");
  return s.substr(b, e - b + 1);
}

}  // namespace

std::string to_source(const ast::Refs& stmts) {
  Unparser u;
  for (const auto& s : stmts) u.dispatch(s);
  return strip(u.out);
}

std::string to_source(const ast::Ref& node) {
  Unparser u;
  u.dispatch(node);
  return strip(u.out);
}

}  // namespace agc::ast
