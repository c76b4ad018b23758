// Expression, target and parameter lowering.
#include <set>

#include <fmt/format.h>

#include "transpiler/frontend/lowerer.h"

namespace agc::frontend {

using namespace ast;

Lowerer::Ref Lowerer::expr(TSNode n, Ctx ctx) {
  if (ts_node_is_null(n)) return constant(ConstantValue::none(), {});
  DepthGuard guard(*this);
  if (too_deep(n)) return placeholder(n);
  // Python's `*` takes the whole `a.b`, `f(x)`, `a[0]` or `a + b` after it;
  // tree-sitter-python 0.20 binds it to the first name only. Lower the
  // expression with the splat as its plain operand, and star the whole.
  TSNode splat = misplaced_splat(n);
  if (!ts_node_is_null(splat) && !ts_node_eq(splat, hoisted_splat_)) {
    TSNode outer = hoisted_splat_;
    hoisted_splat_ = splat;
    auto s = make<Starred>(span(n));
    s->value = expr_impl(n, ctx);
    s->ctx = ctx;
    hoisted_splat_ = outer;
    return s;
  }
  if (ts_node_eq(n, hoisted_splat_)) {
    auto kids = code_children(n);
    return kids.empty() ? placeholder(n) : expr(kids[0], ctx);
  }
  return expr_impl(n, ctx);
}

TSNode Lowerer::misplaced_splat(TSNode n) const {
  TSNode at = n;
  for (bool top = true;; top = false) {
    switch (sym(at)) {
      case Sym::Attribute: at = field(at, f_.object); break;
      case Sym::Call: at = field(at, f_.function); break;
      case Sym::Subscript: at = field(at, f_.value); break;
      case Sym::BinaryOperator: at = field(at, f_.left); break;
      case Sym::ListSplat: return top ? TSNode{} : at;
      default: return TSNode{};
    }
    if (ts_node_is_null(at)) return TSNode{};
  }
}

Lowerer::Ref Lowerer::value(TSNode n) {
  switch (sym(n)) {
    case Sym::ExpressionList:
    case Sym::PatternList:
      return sequence(n, NodeKind::Tuple, Ctx::Load);
    default:
      return expr(n);
  }
}

Lowerer::Ref Lowerer::target(TSNode n, Ctx ctx) {
  switch (sym(n)) {
    case Sym::Identifier:
    case Sym::Attribute:
    case Sym::Subscript:
    case Sym::PatternList:
    case Sym::TuplePattern:
    case Sym::Tuple:
    case Sym::ExpressionList:
    case Sym::ListPattern:
    case Sym::List:
    case Sym::ListSplatPattern:
    case Sym::ListSplat:
      return expr(n, ctx);
    case Sym::ParenthesizedExpression: {
      auto kids = code_children(n);
      if (kids.size() == 1) return target(kids[0], ctx);
      break;
    }
    default:
      break;
  }
  error(n, fmt::format("cannot {} {}", ctx == Ctx::Del ? "delete" : "assign to", describe_expression(n)));
  return placeholder(n);
}

std::string Lowerer::describe_expression(TSNode n) const {
  switch (sym(n)) {
    case Sym::Call: return "function call";
    case Sym::Integer:
    case Sym::Float:
    case Sym::String:
    case Sym::ConcatenatedString: return "literal";
    case Sym::True: return "True";
    case Sym::False: return "False";
    case Sym::None: return "None";
    case Sym::ComparisonOperator: return "comparison";
    case Sym::ConditionalExpression: return "conditional expression";
    case Sym::Lambda: return "lambda";
    case Sym::Dictionary: return "dict literal";
    case Sym::Set: return "set display";
    case Sym::ListComprehension:
    case Sym::SetComprehension:
    case Sym::DictionaryComprehension: return "comprehension";
    case Sym::GeneratorExpression: return "generator expression";
    default: return "expression";
  }
}

Lowerer::Ref Lowerer::sequence(TSNode n, NodeKind kind, Ctx ctx) {
  Refs elts;
  for (TSNode c : code_children(n)) {
    elts.push_back(ctx == Ctx::Load ? expr(c, ctx) : target(c, ctx));
  }
  if (kind == NodeKind::List) {
    auto l = make<ast::List>(span(n));
    l->elts = std::move(elts);
    l->ctx = ctx;
    return l;
  }
  if (kind == NodeKind::Set) {
    auto s = make<ast::Set>(span(n));
    s->elts = std::move(elts);
    return s;
  }
  auto t = make<ast::Tuple>(span(n));
  t->elts = std::move(elts);
  t->ctx = ctx;
  return t;
}

Lowerer::Ref Lowerer::expr_impl(TSNode n, Ctx ctx) {
  SourceSpan sp = span(n);
  switch (sym(n)) {
    case Sym::Identifier:
      return name(identifier(n), ctx, sp, /*from_source=*/true);
    case Sym::Integer:
    case Sym::Float:
      return number(n);
    case Sym::True:
      return constant(ConstantValue::of_bool(true), sp);
    case Sym::False:
      return constant(ConstantValue::of_bool(false), sp);
    case Sym::None:
      return constant(ConstantValue::none(), sp);
    case Sym::Ellipsis:
      return constant(ConstantValue::ellipsis(), sp);
    case Sym::String:
    case Sym::ConcatenatedString:
      return string_literal(n);
    case Sym::Attribute: {
      auto a = make<Attribute>(sp);
      a->value = expr(field(n, f_.object));
      a->attr = identifier(field(n, f_.attribute));
      a->ctx = ctx;
      return a;
    }
    case Sym::Subscript:
      return subscript(n, ctx);
    case Sym::Call:
      return call(n);
    case Sym::BinaryOperator: {
      auto b = make<BinOp>(sp);
      b->left = expr(field(n, f_.left));
      TSNode op = field(n, f_.operator_);
      if (!binop_from_text(text(op), b->op)) error(op, fmt::format("unsupported operator '{}'", text(op)));
      b->right = expr(field(n, f_.right));
      return b;
    }
    case Sym::UnaryOperator: {
      auto u = make<UnaryOp>(sp);
      std::string_view op = text(field(n, f_.operator_));
      u->op = op == "-" ? UnaryOpKind::USub : op == "+" ? UnaryOpKind::UAdd : UnaryOpKind::Invert;
      u->operand = expr(field(n, f_.argument));
      return u;
    }
    case Sym::NotOperator: {
      auto u = make<UnaryOp>(sp);
      u->op = UnaryOpKind::Not;
      u->operand = expr(field(n, f_.argument));
      return u;
    }
    case Sym::BooleanOperator:
      return boolean_operator(n);
    case Sym::ComparisonOperator:
      return comparison(n);
    case Sym::ConditionalExpression: {
      auto kids = code_children(n);
      if (kids.size() != 3) {
        error(n, "malformed conditional expression");
        return placeholder(n);
      }
      auto e = make<IfExp>(sp);
      e->body = expr(kids[0]);
      e->test = expr(kids[1]);
      e->orelse = expr(kids[2]);
      return e;
    }
    case Sym::Lambda:
      return lambda(n);
    case Sym::ParenthesizedExpression: {
      auto kids = code_children(n);
      if (kids.size() != 1) {
        error(n, "malformed parenthesized expression");
        return placeholder(n);
      }
      if (sym(kids[0]) == Sym::ListSplat) {
        error(n, "cannot use a starred expression here");
        return placeholder(n);
      }
      return expr(kids[0], ctx);
    }
    case Sym::Tuple:
    case Sym::ExpressionList:
    case Sym::PatternList:
    case Sym::TuplePattern:
      return sequence(n, NodeKind::Tuple, ctx);
    case Sym::List:
    case Sym::ListPattern:
      return sequence(n, NodeKind::List, ctx);
    case Sym::Set:
      return sequence(n, NodeKind::Set, Ctx::Load);
    case Sym::ListSplat:
    case Sym::ListSplatPattern: {
      auto kids = code_children(n);
      auto s = make<Starred>(sp);
      s->value = kids.empty() ? placeholder(n) : expr(kids[0], ctx);
      s->ctx = ctx;
      return s;
    }
    case Sym::ParenthesizedListSplat: {
      auto kids = code_children(n);
      return kids.empty() ? placeholder(n) : expr(kids[0], ctx);
    }
    case Sym::Dictionary:
      return dictionary(n);
    case Sym::ListComprehension:
    case Sym::SetComprehension:
    case Sym::DictionaryComprehension:
    case Sym::GeneratorExpression:
      return comprehension(n);
    case Sym::Type:
      return type_annotation(n);
    case Sym::Await:
      unsupported_if_valid(async_defs_ > 0, n, "await is not supported; agc converts synchronous code only");
      return placeholder(n);
    case Sym::Yield: {
      if (!in_function()) {
        error(n, "'yield' outside function");
        return placeholder(n);
      }
      auto kids = code_children(n);
      Ref v = kids.empty() ? nullptr : value(kids[0]);
      if (has_token(n, "from")) {
        auto y = make<YieldFrom>(sp);
        y->value = v ? v : placeholder(n);
        return y;
      }
      auto y = make<Yield>(sp);
      y->value = v;
      return y;
    }
    case Sym::NamedExpression:
      unsupported(n, "assignment expressions (:=) are not supported; assign on a separate line");
      return placeholder(n);
    case Sym::KeywordArgument:
      error(n, "keyword argument outside a call");
      return placeholder(n);
    case Sym::AsPattern:
      error(n, "'as' is only allowed in with, except and import statements");
      return placeholder(n);
    default:
      error(n, fmt::format("unsupported expression '{}'", ts_node_type(n)));
      return placeholder(n);
  }
}

Lowerer::Ref Lowerer::type_annotation(TSNode n) {
  if (sym(n) != Sym::Type) return expr(n);
  auto kids = code_children(n);
  if (kids.size() == 1) {
    switch (sym(kids[0])) {
      case Sym::Other:
        break;  // generic_type, union_type, ...: PEP 695 forms
      default:
        return expr(kids[0]);
    }
  }
  error(n, "unsupported annotation syntax");
  return placeholder(n);
}

Lowerer::Ref Lowerer::subscript(TSNode n, Ctx ctx) {
  auto s = make<Subscript>(span(n));
  s->value = expr(field(n, f_.value));
  s->ctx = ctx;
  auto parts = field_children(n, f_.subscript);
  // A comma anywhere between the brackets makes the index a tuple: a[1,] a[i, j].
  bool has_comma = has_token(n, ",");
  if (parts.size() == 1 && !has_comma) {
    s->slice = sym(parts[0]) == Sym::Slice ? slice(parts[0]) : expr(parts[0]);
    return s;
  }
  auto t = make<ast::Tuple>(parts.empty() ? span(n) : SourceSpan::cover(span(parts.front()), span(parts.back())));
  t->ctx = Ctx::Load;
  for (TSNode p : parts) t->elts.push_back(sym(p) == Sym::Slice ? slice(p) : expr(p));
  s->slice = t;
  return s;
}

Lowerer::Ref Lowerer::slice(TSNode n) {
  auto s = make<Slice>(span(n));
  int part = 0;  // 0: lower, 1: upper, 2: step
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    if (!ts_node_is_named(c)) {
      if (std::string_view(ts_node_type(c)) == ":") ++part;
      continue;
    }
    if (sym(c) == Sym::Comment) continue;
    Ref e = expr(c);
    if (part == 0) s->lower = e;
    else if (part == 1) s->upper = e;
    else s->step = e;
  }
  return s;
}

Lowerer::Ref Lowerer::call(TSNode n) {
  auto c = make<Call>(span(n));
  c->func = expr(field(n, f_.function));
  TSNode args = field(n, f_.arguments);
  if (sym(args) == Sym::GeneratorExpression) {
    c->args.push_back(comprehension(args));
    return c;
  }
  bool seen_keyword = false, seen_kwsplat = false;
  for (TSNode a : code_children(args)) {
    switch (sym(a)) {
      case Sym::KeywordArgument: {
        auto k = make<Keyword>(span(a));
        TSNode kname = field(a, f_.name);
        if (sym(kname) != Sym::Identifier) error(kname, "keyword argument name must be an identifier");
        k->arg = identifier(kname);
        for (const auto& prev : c->keywords) {
          if (!k->arg.empty() && prev->as<Keyword>().arg == k->arg) {
            error(a, fmt::format("keyword argument repeated: {}", k->arg));
          }
        }
        k->value = expr(field(a, f_.value));
        c->keywords.push_back(k);
        seen_keyword = true;
        break;
      }
      case Sym::DictionarySplat: {
        auto k = make<Keyword>(span(a));
        auto kids = code_children(a);
        k->value = kids.empty() ? placeholder(a) : expr(kids[0]);
        c->keywords.push_back(k);
        seen_kwsplat = true;
        break;
      }
      case Sym::ListSplat: {
        if (seen_kwsplat) error(a, "iterable argument unpacking follows keyword argument unpacking");
        c->args.push_back(expr(a));
        break;
      }
      default:
        if (seen_kwsplat) error(a, "positional argument follows keyword argument unpacking");
        else if (seen_keyword) error(a, "positional argument follows keyword argument");
        c->args.push_back(expr(a));
        break;
    }
  }
  return c;
}

Lowerer::Ref Lowerer::boolean_operator(TSNode n) {
  BoolOpKind op = text(field(n, f_.operator_)) == "and" ? BoolOpKind::And : BoolOpKind::Or;
  // tree-sitter nests `a and b and c` to the left; Python flattens the chain into
  // one BoolOp (parentheses, which appear as their own CST node, stop the flattening).
  std::vector<TSNode> operands;
  TSNode cur = n;
  while (sym(cur) == Sym::BooleanOperator &&
         (text(field(cur, f_.operator_)) == "and") == (op == BoolOpKind::And)) {
    operands.push_back(field(cur, f_.right));
    cur = field(cur, f_.left);
  }
  operands.push_back(cur);
  auto b = make<BoolOp>(span(n));
  b->op = op;
  for (size_t i = operands.size(); i-- > 0;) b->values.push_back(expr(operands[i]));
  return b;
}

Lowerer::Ref Lowerer::comparison(TSNode n) {
  auto c = make<Compare>(span(n));
  bool first = true;
  for (TSNode k : children(n, /*named_only=*/false)) {
    if (ts_node_is_named(k)) {
      if (sym(k) == Sym::Comment) continue;
      if (first) c->left = expr(k);
      else c->comparators.push_back(expr(k));
      first = false;
      continue;
    }
    std::string_view t = ts_node_type(k);
    CmpOpKind op;
    if (t == "==") op = CmpOpKind::Eq;
    else if (t == "!=") op = CmpOpKind::NotEq;
    else if (t == "<") op = CmpOpKind::Lt;
    else if (t == "<=") op = CmpOpKind::LtE;
    else if (t == ">") op = CmpOpKind::Gt;
    else if (t == ">=") op = CmpOpKind::GtE;
    else if (t == "is") op = CmpOpKind::Is;
    else if (t == "is not") op = CmpOpKind::IsNot;
    else if (t == "in") op = CmpOpKind::In;
    else if (t == "not in") op = CmpOpKind::NotIn;
    else if (t == "<>") {
      error(k, "'<>' is not valid Python 3; use '!='");
      op = CmpOpKind::NotEq;
    } else {
      continue;
    }
    c->ops.push_back(op);
  }
  if (c->ops.size() != c->comparators.size() || !c->left) {
    error(n, "malformed comparison");
    return placeholder(n);
  }
  return c;
}

Lowerer::Ref Lowerer::lambda(TSNode n) {
  auto l = make<Lambda>(span(n));
  l->args = arguments(field(n, f_.parameters), span(n));
  scope_is_function_.push_back(true);
  l->body = expr(field(n, f_.body));
  scope_is_function_.pop_back();
  return l;
}

Lowerer::Ref Lowerer::dictionary(TSNode n) {
  auto d = make<Dict>(span(n));
  for (TSNode c : code_children(n)) {
    if (sym(c) == Sym::Pair) {
      d->keys.push_back(expr(field(c, f_.key)));
      d->values.push_back(expr(field(c, f_.value)));
    } else if (sym(c) == Sym::DictionarySplat) {
      auto kids = code_children(c);
      d->keys.push_back(nullptr);
      d->values.push_back(kids.empty() ? placeholder(c) : expr(kids[0]));
    } else {
      error(c, "expected 'key: value' in a dictionary display");
    }
  }
  return d;
}

Refs Lowerer::generators(TSNode n) {
  Refs gens;
  std::shared_ptr<ast::Comprehension> cur;
  for (TSNode c : code_children(n)) {
    if (sym(c) == Sym::ForInClause) {
      if (has_token(c, "async")) {
        unsupported_if_valid(async_defs_ > 0, c, "asynchronous comprehensions are not supported");
      }
      if (cur) gens.push_back(cur);
      cur = make<ast::Comprehension>(span(c));
      cur->target = target(field(c, f_.left));
      auto rights = field_children(c, f_.right);
      Refs iters;
      for (TSNode r : rights) {
        if (!ts_node_is_named(r)) continue;
        iters.push_back(expr(r));
      }
      if (iters.size() == 1) {
        cur->iter = iters[0];
      } else {
        auto t = make<ast::Tuple>(span(c));
        t->elts = std::move(iters);
        cur->iter = t;
      }
    } else if (sym(c) == Sym::IfClause && cur) {
      auto kids = code_children(c);
      cur->ifs.push_back(kids.empty() ? placeholder(c) : expr(kids[0]));
    }
  }
  if (cur) gens.push_back(cur);
  return gens;
}

Lowerer::Ref Lowerer::comprehension(TSNode n) {
  SourceSpan sp = span(n);
  TSNode body = field(n, f_.body);
  switch (sym(n)) {
    case Sym::DictionaryComprehension: {
      auto d = make<DictComp>(sp);
      d->key = expr(field(body, f_.key));
      d->value = expr(field(body, f_.value));
      d->generators = generators(n);
      return d;
    }
    case Sym::ListComprehension: {
      auto l = make<ListComp>(sp);
      l->elt = expr(body);
      l->generators = generators(n);
      return l;
    }
    case Sym::SetComprehension: {
      auto s = make<SetComp>(sp);
      s->elt = expr(body);
      s->generators = generators(n);
      return s;
    }
    default: {
      auto g = make<GeneratorExp>(sp);
      g->elt = expr(body);
      g->generators = generators(n);
      return g;
    }
  }
}

Lowerer::Ref Lowerer::arguments(TSNode params, SourceSpan at) {
  auto a = make<Arguments>(ts_node_is_null(params) ? at : span(params));
  if (ts_node_is_null(params)) return a;
  bool keyword_only = false;
  bool seen_default = false;
  std::set<std::string> seen;
  auto add = [&](TSNode name_node, TSNode type_node, TSNode default_node) {
    if (sym(name_node) != Sym::Identifier) {
      error(name_node, "tuple parameters are not valid Python 3; unpack inside the function body");
      return;
    }
    auto arg = make<Arg>(span(name_node));
    arg->arg = identifier(name_node);
    if (!seen.insert(arg->arg).second) {
      error(name_node, fmt::format("duplicate argument '{}' in function definition", arg->arg));
    }
    if (!ts_node_is_null(type_node)) arg->annotation = type_annotation(type_node);
    Ref def = ts_node_is_null(default_node) ? nullptr : expr(default_node);
    if (keyword_only) {
      a->kwonlyargs.push_back(arg);
      a->kw_defaults.push_back(def);
    } else {
      if (def) {
        a->defaults.push_back(def);
        seen_default = true;
      } else if (seen_default) {
        error(name_node, "non-default argument follows default argument");
      }
      a->args.push_back(arg);
    }
  };
  auto splat = [&](TSNode n, TSNode type_node, bool kw) {
    auto kids = code_children(n);
    if (kids.empty() || sym(kids[0]) != Sym::Identifier) {
      error(n, "expected a parameter name");
      return;
    }
    auto arg = make<Arg>(span(kids[0]));
    arg->arg = identifier(kids[0]);
    if (!seen.insert(arg->arg).second) {
      error(kids[0], fmt::format("duplicate argument '{}' in function definition", arg->arg));
    }
    if (!ts_node_is_null(type_node)) arg->annotation = type_annotation(type_node);
    if (kw) {
      a->kwarg = arg;
    } else {
      a->vararg = arg;
      keyword_only = true;
    }
  };
  TSNode null_node{};
  for (TSNode p : code_children(params)) {
    switch (sym(p)) {
      case Sym::Identifier:
        add(p, null_node, null_node);
        break;
      case Sym::DefaultParameter:
        add(field(p, f_.name), null_node, field(p, f_.value));
        break;
      case Sym::TypedDefaultParameter:
        add(field(p, f_.name), field(p, f_.type), field(p, f_.value));
        break;
      case Sym::TypedParameter: {
        auto kids = code_children(p);
        TSNode inner = kids.empty() ? p : kids[0];
        if (sym(inner) == Sym::ListSplatPattern) splat(inner, field(p, f_.type), false);
        else if (sym(inner) == Sym::DictionarySplatPattern) splat(inner, field(p, f_.type), true);
        else add(inner, field(p, f_.type), null_node);
        break;
      }
      case Sym::ListSplatPattern:
        splat(p, null_node, false);
        break;
      case Sym::DictionarySplatPattern:
        splat(p, null_node, true);
        break;
      case Sym::KeywordSeparator:
        keyword_only = true;
        break;
      case Sym::PositionalSeparator:
        a->posonlyargs.insert(a->posonlyargs.end(), a->args.begin(), a->args.end());
        a->args.clear();
        break;
      default:
        error(p, "tuple parameters are not valid Python 3; unpack inside the function body");
        break;
    }
  }
  return a;
}

}  // namespace agc::frontend
