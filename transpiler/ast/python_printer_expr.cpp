// Expressions and auxiliary nodes as astunparse prints them: every unary,
// binary, comparison, boolean and conditional expression in parentheses.
#include <algorithm>

#include "transpiler/ast/python_repr.h"
#include "transpiler/ast/python_unparser.h"
#include "transpiler/base/check.h"

namespace agc::ast {

void PythonUnparser::expression(const Ref& n, bool noparen) {
  switch (n->kind) {
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
    case NodeKind::Yield:
    case NodeKind::YieldFrom: {
      // astunparse parenthesizes every yield.
      const Ref& v = n->is<Yield>() ? n->as<Yield>().value : n->as<YieldFrom>().value;
      write(n->is<Yield>() ? "(yield" : "(yield from");
      if (v) {
        write(" ");
        dispatch(v);
      }
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
#define AGC_STMT(Name, Fields) case NodeKind::Name:
#define AGC_EXPR(Name, Fields)
#define AGC_AUX(Name, Fields)
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
      AGC_UNREACHABLE("statement in an expression's place");
  }
}

void PythonUnparser::block_gens(const Refs& gens) {
  for (const auto& g : gens) dispatch(g);
}

void PythonUnparser::arguments(const Arguments& t) {
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
void PythonUnparser::fstring_parts(const JoinedStr& j, std::string& w) {
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
void PythonUnparser::fstring_formatted(const FormattedValue& f, std::string& w) {
  w += '{';
  PythonUnparser inner;
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

}  // namespace agc::ast
