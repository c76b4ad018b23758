// Statement lowering and the Lowerer's shared helpers.
#include "transpiler/frontend/lower.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "transpiler/base/python_limits.h"
#include "transpiler/frontend/keywords.h"
#include "transpiler/frontend/lowerer.h"

namespace agc::frontend {

using namespace ast;

Lowerer::Lowerer(const SourceFile& file, DiagnosticSink& sink, bool check_context)
    : file_(file), sink_(sink), g_(Grammar::get()), f_(g_.fields()), check_context_(check_context) {}

SourceSpan Lowerer::span(TSNode n) const { return {&file_, ts_node_start_byte(n), ts_node_end_byte(n)}; }

std::string_view Lowerer::text(TSNode n) const {
  uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  return std::string_view(file_.text()).substr(b, e - b);
}

std::vector<TSNode> Lowerer::field_children(TSNode n, TSFieldId id) const {
  std::vector<TSNode> out;
  TSTreeCursor c = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      if (ts_tree_cursor_current_field_id(&c) == id) out.push_back(ts_tree_cursor_current_node(&c));
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  return out;
}

bool Lowerer::has_token(TSNode n, std::string_view token) const {
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    if (!ts_node_is_named(c) && token == ts_node_type(c)) return true;
  }
  return false;
}

std::string Lowerer::identifier(TSNode n) {
  std::string id(text(n));
  if (is_keyword(id)) error(n, fmt::format("invalid syntax: '{}' is a keyword and cannot be used as a name", id));
  return id;
}

void Lowerer::error(TSNode n, std::string message) { error(span(n), std::move(message)); }

void Lowerer::error(SourceSpan s, std::string message) { sink_.error(s, std::move(message)); }

void Lowerer::unsupported(TSNode n, std::string message) { sink_.unsupported(span(n), std::move(message)); }

void Lowerer::unsupported_if_valid(bool valid, TSNode n, std::string message) {
  if (valid) {
    unsupported(n, std::move(message));
  } else {
    error(n, std::move(message));
  }
}

bool Lowerer::in_function() const {
  return std::find(scope_is_function_.begin(), scope_is_function_.end(), true) != scope_is_function_.end();
}

Lowerer::Ref Lowerer::placeholder(TSNode n) { return constant(ConstantValue::none(), span(n)); }

bool Lowerer::too_deep(TSNode n) {
  if (depth_ <= kMaxNestingDepth) return false;
  if (!depth_reported_) {
    depth_reported_ = true;
    error(n, fmt::format("code is nested too deeply (more than {} levels); split it into smaller "
                         "expressions or functions",
                         kMaxNestingDepth));
  }
  return true;
}

Refs Lowerer::module(TSNode root) {
  Refs out;
  block(root, out);
  return out;
}

void Lowerer::block(TSNode n, Refs& out) {
  for (TSNode c : code_children(n)) stmt(c, out);
}

Refs Lowerer::body_of(TSNode block_node) {
  Refs out;
  if (!ts_node_is_null(block_node)) block(block_node, out);
  if (out.empty()) {
    // The tokenizer check reports a missing block first; this covers what it
    // cannot see. A placeholder keeps lowering going.
    if (ts_node_is_null(block_node) || code_children(block_node).empty()) {
      error(ts_node_is_null(block_node) ? SourceSpan{} : span(block_node), "expected an indented block");
    }
    out.push_back(make<Pass>(ts_node_is_null(block_node) ? SourceSpan{} : span(block_node)));
  }
  return out;
}

void Lowerer::stmt(TSNode n, Refs& out) {
  DepthGuard guard(*this);
  if (too_deep(n)) return;
  SourceSpan sp = span(n);
  switch (sym(n)) {
    case Sym::ExpressionStatement:
      if (auto s = expression_statement(n)) out.push_back(s);
      return;
    case Sym::ReturnStatement: {
      if (check_context_ && (scope_is_function_.empty() || !scope_is_function_.back())) {
        error(n, "'return' outside function");
      }
      auto r = make<Return>(sp);
      auto kids = code_children(n);
      if (!kids.empty()) r->value = value(kids[0]);
      out.push_back(r);
      return;
    }
    case Sym::PassStatement:
      out.push_back(make<Pass>(sp));
      return;
    case Sym::BreakStatement:
    case Sym::ContinueStatement: {
      bool is_break = sym(n) == Sym::BreakStatement;
      if (check_context_ && loop_depth_ == 0) error(n, fmt::format("'{}' outside loop", is_break ? "break" : "continue"));
      if (is_break) out.push_back(make<Break>(sp));
      else out.push_back(make<Continue>(sp));
      return;
    }
    case Sym::DeleteStatement: {
      auto d = make<Delete>(sp);
      for (TSNode c : code_children(n)) {
        if (sym(c) == Sym::ExpressionList) {
          for (TSNode e : code_children(c)) d->targets.push_back(target(e, Ctx::Del));
        } else {
          d->targets.push_back(target(c, Ctx::Del));
        }
      }
      out.push_back(d);
      return;
    }
    case Sym::RaiseStatement: {
      auto r = make<Raise>(sp);
      TSNode cause = field(n, f_.cause);
      for (TSNode c : code_children(n)) {
        if (!ts_node_is_null(cause) && ts_node_eq(c, cause)) continue;
        if (sym(c) == Sym::ExpressionList) {
          error(c, "Python 2 'raise E, V' is not valid Python 3; write 'raise E(V)'");
          continue;
        }
        r->exc = expr(c);
      }
      if (!ts_node_is_null(cause)) r->cause = expr(cause);
      out.push_back(r);
      return;
    }
    case Sym::AssertStatement: {
      auto a = make<Assert>(sp);
      auto kids = code_children(n);
      if (!kids.empty()) a->test = expr(kids[0]);
      if (kids.size() > 1) a->msg = expr(kids[1]);
      out.push_back(a);
      return;
    }
    case Sym::GlobalStatement:
    case Sym::NonlocalStatement: {
      std::vector<std::string> names;
      for (TSNode c : code_children(n)) names.push_back(identifier(c));
      if (sym(n) == Sym::GlobalStatement) {
        auto g = make<Global>(sp);
        g->names = std::move(names);
        out.push_back(g);
      } else {
        if (check_context_ && scope_is_function_.empty()) error(n, "nonlocal declaration not allowed at module level");
        auto g = make<Nonlocal>(sp);
        g->names = std::move(names);
        out.push_back(g);
      }
      return;
    }
    case Sym::ImportStatement:
      out.push_back(import_statement(n));
      return;
    case Sym::ImportFromStatement:
      out.push_back(import_from_statement(n, false));
      return;
    case Sym::FutureImportStatement:
      out.push_back(import_from_statement(n, true));
      return;
    case Sym::IfStatement:
      out.push_back(if_statement(n));
      return;
    case Sym::WhileStatement:
      out.push_back(while_statement(n));
      return;
    case Sym::ForStatement:
      out.push_back(for_statement(n));
      return;
    case Sym::TryStatement:
      out.push_back(try_statement(n));
      return;
    case Sym::WithStatement:
      out.push_back(with_statement(n));
      return;
    case Sym::FunctionDefinition:
      out.push_back(function_definition(n, {}, n));
      return;
    case Sym::ClassDefinition:
      out.push_back(class_definition(n, {}, n));
      return;
    case Sym::DecoratedDefinition:
      out.push_back(decorated_definition(n));
      return;
    case Sym::MatchStatement:
      unsupported(n, "match statements are not supported; use if/elif chains");
      return;
    case Sym::PrintStatement:
      error(n, "Python 2 print statement is not valid Python 3; call print(...)");
      return;
    case Sym::ExecStatement:
      error(n, "the Python 2 exec statement is not valid Python 3");
      return;
    case Sym::TypeAliasStatement:
      unsupported(n, "type alias statements are not supported; assign the type to a name instead");
      return;
    default:
      error(n, fmt::format("unsupported statement '{}'", ts_node_type(n)));
      return;
  }
}

Lowerer::Ref Lowerer::expression_statement(TSNode n) {
  auto kids = code_children(n);
  SourceSpan sp = span(n);
  if (kids.size() == 1) {
    TSNode c = kids[0];
    if (sym(c) == Sym::Assignment) return assignment(c);
    if (sym(c) == Sym::AugmentedAssignment) return aug_assignment(c);
    auto e = make<Expr>(sp);
    e->value = expr(c);
    return e;
  }
  // `a, b` written as a statement is a tuple expression.
  auto t = make<ast::Tuple>(sp);
  t->ctx = Ctx::Load;
  for (TSNode c : kids) t->elts.push_back(expr(c));
  auto e = make<Expr>(sp);
  e->value = t;
  return e;
}

Lowerer::Ref Lowerer::assignment(TSNode n) {
  SourceSpan sp = span(n);
  TSNode left = field(n, f_.left);
  TSNode right = field(n, f_.right);
  TSNode type = field(n, f_.type);
  if (!ts_node_is_null(type)) {
    auto a = make<AnnAssign>(sp);
    a->target = target(left);
    a->annotation = type_annotation(type);
    a->simple = sym(left) == Sym::Identifier;
    if (!ts_node_is_null(right)) {
      if (sym(right) == Sym::Assignment || sym(right) == Sym::AugmentedAssignment) {
        error(right, "an annotated assignment cannot be chained");
      } else {
        a->value = value(right);
      }
    }
    return a;
  }
  auto a = make<Assign>(sp);
  a->targets.push_back(target(left));
  while (!ts_node_is_null(right) && sym(right) == Sym::Assignment) {
    if (!ts_node_is_null(field(right, f_.type))) error(right, "an annotated assignment cannot be chained");
    a->targets.push_back(target(field(right, f_.left)));
    right = field(right, f_.right);
  }
  if (ts_node_is_null(right)) {
    error(n, "assignment has no value");
    a->value = constant(ConstantValue::none(), sp);
  } else if (sym(right) == Sym::AugmentedAssignment) {
    error(right, "an augmented assignment cannot be chained");
    a->value = placeholder(right);
  } else {
    a->value = value(right);
  }
  return a;
}

bool binop_from_text(std::string_view t, BinOpKind& op) {
  static const std::pair<std::string_view, BinOpKind> table[] = {
      {"+", BinOpKind::Add},     {"-", BinOpKind::Sub},     {"*", BinOpKind::Mult},
      {"@", BinOpKind::MatMult}, {"/", BinOpKind::Div},     {"%", BinOpKind::Mod},
      {"**", BinOpKind::Pow},    {"<<", BinOpKind::LShift}, {">>", BinOpKind::RShift},
      {"|", BinOpKind::BitOr},   {"^", BinOpKind::BitXor},  {"&", BinOpKind::BitAnd},
      {"//", BinOpKind::FloorDiv},
  };
  for (const auto& [s, k] : table) {
    if (s == t) {
      op = k;
      return true;
    }
  }
  return false;
}

Lowerer::Ref Lowerer::aug_assignment(TSNode n) {
  auto a = make<AugAssign>(span(n));
  TSNode left = field(n, f_.left);
  Sym ls = sym(left);
  if (ls != Sym::Identifier && ls != Sym::Attribute && ls != Sym::Subscript) {
    error(left, "illegal target for augmented assignment; only a name, attribute or subscript can be updated in place");
  }
  a->target = target(left);
  std::string_view op = text(field(n, f_.operator_));
  if (!op.empty() && op.back() == '=') op.remove_suffix(1);
  if (!binop_from_text(op, a->op)) error(field(n, f_.operator_), "unknown augmented assignment operator");
  TSNode right = field(n, f_.right);
  if (sym(right) == Sym::Assignment || sym(right) == Sym::AugmentedAssignment) {
    error(right, "an augmented assignment cannot be chained");
    a->value = placeholder(right);
  } else {
    a->value = value(right);
  }
  return a;
}

Lowerer::Ref Lowerer::if_statement(TSNode n) {
  auto node = make<If>(span(n));
  node->test = expr(field(n, f_.condition));
  node->body = body_of(field(n, f_.consequence));
  auto alternatives = field_children(n, f_.alternative);
  elif_chain(alternatives, 0, node->orelse);
  return node;
}

// Lowers alternatives[i..] (elif/else clauses) into the orelse block of an If.
void Lowerer::elif_chain(const std::vector<TSNode>& alts, size_t i, Refs& orelse_out) {
  if (i >= alts.size()) return;
  TSNode c = alts[i];
  if (sym(c) == Sym::ElseClause) {
    orelse_out = body_of(field(c, f_.body));
    return;
  }
  // Each elif nests one statement deeper; CPython refuses the whole file
  // (and every later phase here recurses once per elif).
  if (i + 1 >= static_cast<size_t>(kMaxCompilerNesting)) {
    error(c, fmt::format("too many elif clauses: CPython cannot compile an if statement with {} or more (RecursionError: "
                         "maximum recursion depth exceeded during compilation); split the chain, or look the branch "
                         "up in a dict",
                         kMaxCompilerNesting));
    return;
  }
  auto node = make<If>(span(c));
  node->test = expr(field(c, f_.condition));
  node->body = body_of(field(c, f_.consequence));
  elif_chain(alts, i + 1, node->orelse);
  orelse_out = {node};
}

Lowerer::Ref Lowerer::while_statement(TSNode n) {
  auto node = make<While>(span(n));
  node->test = expr(field(n, f_.condition));
  ++loop_depth_;
  node->body = body_of(field(n, f_.body));
  --loop_depth_;
  TSNode alt = field(n, f_.alternative);
  if (!ts_node_is_null(alt)) node->orelse = body_of(field(alt, f_.body));
  return node;
}

Lowerer::Ref Lowerer::for_statement(TSNode n) {
  if (has_token(n, "async")) {
    unsupported_if_valid(async_defs_ > 0, n, "async for loops are not supported; use a plain for loop");
  }
  auto node = make<For>(span(n));
  node->target = target(field(n, f_.left));
  node->iter = value(field(n, f_.right));
  ++loop_depth_;
  node->body = body_of(field(n, f_.body));
  --loop_depth_;
  TSNode alt = field(n, f_.alternative);
  if (!ts_node_is_null(alt)) node->orelse = body_of(field(alt, f_.body));
  return node;
}

Lowerer::Ref Lowerer::try_statement(TSNode n) {
  auto node = make<Try>(span(n));
  node->body = body_of(field(n, f_.body));
  for (TSNode c : code_children(n)) {
    switch (sym(c)) {
      case Sym::ExceptClause: {
        auto h = make<ExceptHandler>(span(c));
        TSNode block_node{};
        for (TSNode k : code_children(c)) {
          if (sym(k) == Sym::Block) block_node = k;
        }
        TSNode type = field(c, f_.value);
        TSNode alias_node = field(c, f_.alias);
        if (!ts_node_is_null(type) && sym(type) == Sym::AsPattern) {
          auto parts = code_children(type);
          if (!parts.empty()) h->type = expr(parts[0]);
          alias_node = field(type, f_.alias);
        } else if (!ts_node_is_null(type)) {
          h->type = expr(type);
        }
        if (!ts_node_is_null(alias_node)) {
          TSNode id = alias_node;
          if (sym(id) == Sym::AsPatternTarget) {
            auto ids = code_children(id);
            id = ids.empty() ? id : ids[0];
          }
          if (sym(id) != Sym::Identifier) error(id, "an except clause can only bind a plain name");
          h->name = identifier(id);
        }
        h->body = body_of(block_node);
        node->handlers.push_back(h);
        break;
      }
      case Sym::ExceptGroupClause:
        unsupported(c, "except* (exception groups) is not supported; catch the group with a plain except");
        break;
      case Sym::ElseClause:
        node->orelse = body_of(field(c, f_.body));
        break;
      case Sym::FinallyClause: {
        for (TSNode k : code_children(c)) {
          if (sym(k) == Sym::Block) node->finalbody = body_of(k);
        }
        break;
      }
      default:
        break;
    }
  }
  return node;
}

Lowerer::Ref Lowerer::with_statement(TSNode n) {
  if (has_token(n, "async")) {
    unsupported_if_valid(async_defs_ > 0, n, "async with statements are not supported; use a plain with statement");
  }
  auto node = make<With>(span(n));
  for (TSNode c : code_children(n)) {
    if (sym(c) == Sym::WithClause) {
      for (TSNode item : code_children(c)) {
        if (sym(item) != Sym::WithItem) continue;
        auto w = make<WithItem>(span(item));
        TSNode v = field(item, f_.value);
        if (sym(v) == Sym::AsPattern) {
          auto parts = code_children(v);
          w->context_expr = parts.empty() ? placeholder(v) : expr(parts[0]);
          TSNode alias_node = field(v, f_.alias);
          if (!ts_node_is_null(alias_node)) {
            auto inner = code_children(alias_node);
            w->optional_vars = target(inner.empty() ? alias_node : inner[0]);
          }
        } else {
          w->context_expr = expr(v);
        }
        node->items.push_back(w);
      }
    } else if (sym(c) == Sym::Block) {
      node->body = body_of(c);
    }
  }
  if (node->body.empty()) node->body = body_of(field(n, f_.body));
  return node;
}

Lowerer::Ref Lowerer::decorated_definition(TSNode n) {
  Refs decorators;
  for (TSNode c : code_children(n)) {
    if (sym(c) != Sym::Decorator) continue;
    auto kids = code_children(c);
    decorators.push_back(kids.empty() ? placeholder(c) : expr(kids[0]));
  }
  TSNode def = field(n, f_.definition);
  if (sym(def) == Sym::ClassDefinition) return class_definition(def, std::move(decorators), n);
  return function_definition(def, std::move(decorators), n);
}

Lowerer::Ref Lowerer::function_definition(TSNode n, Refs decorators, TSNode outer) {
  bool is_async = has_token(n, "async");
  if (is_async) unsupported(n, "async functions are not supported; agc converts synchronous functions only");
  TSNode tparams = field(n, f_.type_parameters);
  if (!ts_node_is_null(tparams)) {
    unsupported(tparams, "type parameter lists are not supported; drop the [...] after the name");
  }
  auto fn = make<FunctionDef>(span(outer));
  TSNode name_node = field(n, f_.name);
  fn->name = identifier(name_node);
  fn->decorator_list = std::move(decorators);
  fn->args = arguments(field(n, f_.parameters), span(name_node));
  TSNode ret = field(n, f_.return_type);
  if (!ts_node_is_null(ret)) fn->returns = type_annotation(ret);
  int saved_loops = loop_depth_;
  loop_depth_ = 0;
  scope_is_function_.push_back(true);
  async_defs_ += is_async;
  fn->body = body_of(field(n, f_.body));
  async_defs_ -= is_async;
  scope_is_function_.pop_back();
  loop_depth_ = saved_loops;
  return fn;
}

Lowerer::Ref Lowerer::class_definition(TSNode n, Refs decorators, TSNode outer) {
  TSNode tparams = field(n, f_.type_parameters);
  if (!ts_node_is_null(tparams)) {
    unsupported(tparams, "type parameter lists are not supported; drop the [...] after the name");
  }
  auto cls = make<ClassDef>(span(outer));
  cls->name = identifier(field(n, f_.name));
  cls->decorator_list = std::move(decorators);
  TSNode supers = field(n, f_.superclasses);
  if (!ts_node_is_null(supers)) {
    for (TSNode a : code_children(supers)) {
      switch (sym(a)) {
        case Sym::KeywordArgument: {
          auto k = make<Keyword>(span(a));
          k->arg = identifier(field(a, f_.name));
          k->value = expr(field(a, f_.value));
          cls->keywords.push_back(k);
          break;
        }
        case Sym::DictionarySplat: {
          auto k = make<Keyword>(span(a));
          auto kids = code_children(a);
          k->value = kids.empty() ? placeholder(a) : expr(kids[0]);
          cls->keywords.push_back(k);
          break;
        }
        default:
          cls->bases.push_back(expr(a));
          break;
      }
    }
  }
  int saved_loops = loop_depth_;
  loop_depth_ = 0;
  scope_is_function_.push_back(false);
  cls->body = body_of(field(n, f_.body));
  scope_is_function_.pop_back();
  loop_depth_ = saved_loops;
  return cls;
}

std::string Lowerer::dotted_name(TSNode n) {
  if (sym(n) != Sym::DottedName) return std::string(text(n));
  std::string out;
  for (TSNode c : code_children(n)) {
    if (!out.empty()) out += '.';
    out += identifier(c);
  }
  return out;
}

Lowerer::Ref Lowerer::alias(TSNode n) {
  auto a = make<Alias>(span(n));
  if (sym(n) == Sym::AliasedImport) {
    a->name = dotted_name(field(n, f_.name));
    a->asname = identifier(field(n, f_.alias));
  } else {
    a->name = dotted_name(n);
  }
  return a;
}

Lowerer::Ref Lowerer::import_statement(TSNode n) {
  auto imp = make<Import>(span(n));
  for (TSNode c : field_children(n, f_.name)) imp->names.push_back(alias(c));
  return imp;
}

Lowerer::Ref Lowerer::import_from_statement(TSNode n, bool future) {
  auto imp = make<ImportFrom>(span(n));
  if (future) {
    imp->module = "__future__";
  } else {
    TSNode m = field(n, f_.module_name);
    if (sym(m) == Sym::RelativeImport) {
      for (TSNode c : code_children(m)) {
        if (sym(c) == Sym::ImportPrefix) imp->level = static_cast<int>(text(c).size());
        else imp->module = dotted_name(c);
      }
    } else {
      imp->module = dotted_name(m);
    }
  }
  for (TSNode c : field_children(n, f_.name)) imp->names.push_back(alias(c));
  for (TSNode c : code_children(n)) {
    if (sym(c) == Sym::WildcardImport) {
      auto a = make<Alias>(span(c));
      a->name = "*";
      imp->names.push_back(a);
    }
  }
  return imp;
}

ast::Refs lower_module(TSNode root, const SourceFile& file, DiagnosticSink& sink, bool check_context) {
  Lowerer l(file, sink, check_context);
  return l.module(root);
}

}  // namespace agc::frontend
