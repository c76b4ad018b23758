// Statements as C++. Python control flow that is left after conversion (at
// module level, or over Python values inside converted code) becomes C++
// control flow on Python truthiness; nested defs become lambdas; try/except
// becomes try/catch on the runtime's typed errors.
#include <fmt/format.h>

#include "transpiler/analysis/ag_operators.h"
#include "transpiler/base/check.h"
#include "transpiler/ast/python_printer.h"
#include "transpiler/emit/cpp_emitter_impl.h"
#include "transpiler/emit/cpp_text.h"
#include "transpiler/emit/tf_api_table.h"
#include "transpiler/passes/pass.h"

namespace agc::emit::cpp {

using namespace agc::ast;
using analysis::ag_operator;
using analysis::unwrap_ld;

void Emitter::line(const std::string& text) {
  // Multi-line text (a lambda's body) keeps its own relative indentation.
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view l(text.data() + start, end - start);
    if (!l.empty()) out_.append(static_cast<size_t>(indent) * 2, ' ');
    out_.append(l);
    out_ += '\n';
    start = end + 1;
  }
}

void Emitter::at(const Node& s) {
  int n = static_cast<int>(file_.line_col(s.span.begin).line);
  if (n == last_line_) return;
  last_line_ = n;
  std::string_view src = file_.line_text(static_cast<uint32_t>(n));
  size_t first = src.find_first_not_of(" \t");
  src = first == std::string_view::npos ? std::string_view() : src.substr(first);
  if (src.size() > 80) src = src.substr(0, 77);
  std::string comment(src);
  if (src.size() == 77) comment += "...";
  // A comment ending in a backslash would continue onto the next line.
  while (!comment.empty() && comment.back() == '\\') comment.pop_back();
  line(fmt::format("ag_frame.at({});  // {}", n, comment));
}

void Emitter::error(const Node& n, const std::string& message, const char* raises, const std::string& suggestion) {
  sink_->unsupported(n.span, message, raises, suggestion);
}

std::string Emitter::assign_code(const Ref& target, const std::string& rhs) {
  // The frontend accepts only the targets Python does (names, attributes,
  // subscripts, and tuples and lists of them).
  // A store that can raise is marked at its target, as CPython 3.11 marks it.
  if (const auto* n = target->dyn<Name>()) return fmt::format("{} = {};", variable(n->id), rhs);
  if (const auto* a = target->dyn<Attribute>()) {
    return marked(*target, [&] {
      return fmt::format("{}.setattr({}, {})", operand(a->value), attribute_name(a->attr), rhs);
    }) + ";";
  }
  if (const auto* s = target->dyn<Subscript>()) {
    return marked(*target, [&] {
      std::string parts = index_parts(s->slice);
      return fmt::format("ag::setitem({}, {}, {})", value(s->value), parts.empty() ? value(s->slice) : parts, rhs);
    }) + ";";
  }
  AGC_CHECK(target->is<Tuple>() || target->is<List>()) << "cannot assign to a " << kind_name(target->kind);
  const Refs& elts = target->is<Tuple>() ? target->as<Tuple>().elts : target->as<List>().elts;
  for (const Ref& e : elts) {
    if (e->is<Starred>()) {
      error(*e, "starred assignment targets are not supported yet");
      return "";
    }
  }
  std::string tmp = fresh("unpacked");
  std::string unpack = marked(*target, [&] { return fmt::format("ag::unpack({}, {})", rhs, elts.size()); });
  std::string out = fmt::format("{{\n  std::vector<ag::Value> {} = {};", tmp, unpack);
  for (size_t i = 0; i < elts.size(); ++i) {
    std::string inner = assign_code(elts[i], fmt::format("{}[{}]", tmp, i));
    // Nested unpacking spans lines: indent them inside the block.
    std::string indented;
    size_t start = 0;
    while (start < inner.size()) {
      size_t end = inner.find('\n', start);
      if (end == std::string::npos) end = inner.size();
      indented += "\n  " + inner.substr(start, end - start);
      start = end + 1;
    }
    out += indented;
  }
  return out + "\n}";
}

namespace {

std::string conversion_options(const Ref& e) {
  std::vector<std::string> fields;
  if (auto* c = e ? e->dyn<Call>() : nullptr) {
    for (const Ref& k : c->keywords) {
      const Keyword& kw = k->as<Keyword>();
      if (kw.arg == "optional_features") {
        std::vector<std::string> feats;
        // optional_features=(ag__.Feature.X, ...) or ()
        if (auto* t = kw.value->dyn<Tuple>()) {
          for (const Ref& f : t->elts) {
            if (auto* a = f->dyn<Attribute>()) feats.push_back(cpp_string(a->attr));
          }
        }
        std::string list;
        for (size_t i = 0; i < feats.size(); ++i) list += (i ? ", " : "") + feats[i];
        fields.push_back(".optional_features = {" + list + "}");
        continue;
      }
      auto* v = kw.value->dyn<Constant>();
      if (!v || v->value.kind != ConstantValue::Kind::Bool) continue;
      fields.push_back(fmt::format(".{} = {}", kw.arg, v->value.boolean ? "true" : "false"));
    }
  }
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) out += (i ? ", " : "") + fields[i];
  return "{" + out + "}";
}

/// The operation storing to an assignment's target, which raises at the
/// target: an attribute or item store, an unpacking; null for a name.
const Node* store_operation(const Ref& target) { return target->is<Name>() ? nullptr : target.get(); }

bool is_docstring(const Ref& s) {
  auto* e = s->dyn<Expr>();
  auto* c = e ? e->value->dyn<Constant>() : nullptr;
  return c && c->value.kind == ConstantValue::Kind::Str;
}

}  // namespace

void Emitter::block(const Refs& stmts) {
  for (const Ref& s : stmts) stmt(s);
}

void Emitter::stmt(const Ref& s) {
  if (!failing_statements_) return stmt_code(s);
  DiagnosticSink local;
  DiagnosticSink* outer = report_to(&local);
  const size_t mark = out_.size();
  const int line_before = last_line_;
  stmt_code(s);
  report_to(outer);
  // The parse-level problems inside s that no statement within it claimed.
  std::vector<Diagnostic> problems;
  auto& pending = *failing_statements_;
  for (auto it = pending.begin(); it != pending.end();) {
    if (it->span.begin >= s->span.begin && it->span.end <= s->span.end) {
      problems.push_back(std::move(*it));
      it = pending.erase(it);
    } else {
      ++it;
    }
  }
  bool fatal = false;
  for (const Diagnostic& d : local.diagnostics()) {
    if (d.severity == Severity::Error && !d.function_local()) fatal = true;
    if (d.severity == Severity::Error || !problems.empty()) problems.push_back(d);
  }
  if (problems.empty() || fatal) {
    sink_->report_all(local);
    return;
  }
  // Python runs the module up to this statement, which raises.
  out_.resize(mark);
  last_line_ = line_before;
  const Diagnostic& first = problems.front();
  at(*s);
  line(fmt::format("ag_frame.at({});", file_.line_col(first.span.begin).line));
  line(fmt::format("ag::raise_value(ag::make_exception({}, {{{}}}));", cpp_string(first.raises),
                   cpp_string(first.message)));
  last_line_ = -1;
  for (Diagnostic d : problems) {
    d.severity = Severity::Warning;
    d.notes.push_back({Severity::Note, s->span, fmt::format("running this statement raises {}", first.raises), {}, {}});
    sink_->report(std::move(d));
  }
}

void Emitter::stmt_code(const Ref& s) {
  switch (s->kind) {
    case NodeKind::Expr: {
      if (is_docstring(s)) return;
      const Ref& v = s->as<Expr>().value;
      at(*s);
      yield_position_ = v.get();
      if (const auto* y = v->dyn<YieldFrom>()) {
        // `yield from it` as a statement: each item of it, yielded in turn.
        if (yield_allowed(*v)) {
          std::string item = fresh("item");
          line(fmt::format("for (const ag::Value& {} : ag::iteration({})) co_yield {};", item, value(y->value), item));
        }
        return;
      }
      line(expr(v) + ";");
      return;
    }
    case NodeKind::Assign: {
      at(*s);
      const Assign& a = s->as<Assign>();
      yield_position_ = a.value.get();
      if (a.targets.size() == 1) {
        line(assign_code(a.targets[0], operands_of(store_operation(a.targets[0]), [&] { return expr(a.value); })));
        return;
      }
      std::string tmp = fresh("value");
      line(fmt::format("ag::Value {} = {};", tmp, expr(a.value)));
      for (const Ref& t : a.targets) line(assign_code(t, tmp));
      return;
    }
    case NodeKind::AnnAssign: {
      const AnnAssign& a = s->as<AnnAssign>();
      if (!a.value) return;
      at(*s);
      line(assign_code(a.target, operands_of(store_operation(a.target), [&] { return expr(a.value); })));
      return;
    }
    case NodeKind::AugAssign: {
      at(*s);
      const AugAssign& a = s->as<AugAssign>();
      // The operation is marked at the statement (CPython 3.11's place for
      // it), the target's read and write at the target.
      auto operation = [&](auto current) {
        return marked(*s, [&] { return augmented(a.op, current(), a.value); });
      };
      if (a.target->is<Name>()) {
        line(assign_code(a.target, operation([&] { return value(with_context(a.target, ExprContext::Load)); })));
        return;
      }
      // obj.attr += v / obj[k] += v: obj and k evaluated once.
      line("{");
      ++indent;
      if (auto* at_ = a.target->dyn<Attribute>()) {
        std::string obj = fresh("obj");
        line(fmt::format("ag::Value {} = {};", obj, value(at_->value)));
        const std::string attr = attribute_name(at_->attr);
        line(marked(*a.target, [&] {
          return fmt::format("{}.setattr({}, {})", obj, attr, operation([&] {
            return marked(*a.target, [&] { return fmt::format("{}.getattr({})", obj, attr); });
          }));
        }) + ";");
      } else if (auto* sub = a.target->dyn<Subscript>()) {
        std::string obj = fresh("obj"), key = fresh("key");
        line(fmt::format("ag::Value {} = {};", obj, value(sub->value)));
        std::string parts = index_parts(sub->slice);
        if (parts.empty()) {
          line(fmt::format("ag::Value {} = {};", key, value(sub->slice)));
        } else {
          line(fmt::format("const std::vector<ag::IndexPart> {} = {};", key, parts));
        }
        line(marked(*a.target, [&] {
          return fmt::format("ag::setitem({}, {}, {})", obj, key, operation([&] {
            return marked(*a.target, [&] { return fmt::format("ag::getitem({}, {})", obj, key); });
          }));
        }) + ";");
      } else {
        error(*s, "unsupported augmented assignment target");
      }
      --indent;
      line("}");
      return;
    }
    case NodeKind::Return: {
      at(*s);
      const Ref& v = s->as<Return>().value;
      const char* ret = !scopes.empty() && scopes.back().generator ? "co_return" : "return";
      line(v ? fmt::format("{} {};", ret, value(v)) : fmt::format("{} ag::Value();", ret));
      return;
    }
    case NodeKind::If: {
      at(*s);
      const If* i = &s->as<If>();
      line(fmt::format("if ({}) {{", truthy(i->test)));
      while (true) {
        ++indent;
        block(i->body);
        --indent;
        if (i->orelse.size() == 1 && i->orelse[0]->is<If>()) {
          i = &i->orelse[0]->as<If>();
          line(fmt::format("}} else if ({}) {{", truthy(i->test)));
          continue;
        }
        if (!i->orelse.empty()) {
          line("} else {");
          ++indent;
          block(i->orelse);
          --indent;
        }
        break;
      }
      line("}");
      return;
    }
    case NodeKind::While: {
      at(*s);
      const While& w = s->as<While>();
      loop(w.body, w.orelse, fmt::format("while ({}) {{", truthy(w.test)), "");
      return;
    }
    case NodeKind::For: {
      at(*s);
      const For& f = s->as<For>();
      std::string item = fresh("item");
      std::string iteration = marked(*s, [&] { return fmt::format("ag::iteration({})", value(f.iter)); });
      loop(f.body, f.orelse, fmt::format("for (const ag::Value& {} : {}) {{", item, iteration),
           assign_code(f.target, item));
      return;
    }
    case NodeKind::Break:
      at(*s);
      if (!loop_break_flags_.empty() && !loop_break_flags_.back().empty()) {
        line(loop_break_flags_.back() + " = true;");
      }
      line("break;");
      return;
    case NodeKind::Continue: at(*s); line("continue;"); return;
    case NodeKind::Pass: return;
    case NodeKind::Global:
    case NodeKind::Nonlocal: return;
    case NodeKind::Import:
    case NodeKind::ImportFrom: return;  // resolved at transpile time (cpp_module.cpp checks them)
    case NodeKind::With: {
      const With& w = s->as<With>();
      if (std::string name = passes::function_context_name(w); !name.empty()) {
        const Call& c = w.items[0]->as<WithItem>().context_expr->as<Call>();
        line(fmt::format("ag::autograph::FunctionScope {}({}, {}, {});", cpp_ident(name),
                         c.args.size() > 0 ? expr(c.args[0]) : "\"\"",
                         c.args.size() > 1 ? expr(c.args[1]) : "\"fscope\"",
                         conversion_options(c.args.size() > 2 ? c.args[2] : nullptr)));
        block(w.body);
        return;
      }
      with_stmt(w, *s);
      return;
    }
    case NodeKind::Try: try_stmt(s->as<Try>(), *s); return;
    case NodeKind::Raise: {
      at(*s);
      const Raise& r = s->as<Raise>();
      if (!r.exc) {
        if (handler_tracebacks_.empty()) {
          error(*s, "a bare 'raise' is only supported inside an 'except' clause");
          return;
        }
        if (!handler_tracebacks_.back().empty()) {
          line(fmt::format("ag::restore_traceback(std::move({}));", handler_tracebacks_.back()));
        }
        line("throw;");
        return;
      }
      line(marked(*s, [&] { return fmt::format("ag::raise_value({})", value(r.exc)); }) + ";");
      return;
    }
    case NodeKind::Assert: {
      at(*s);
      // CPython 3.11 raises the AssertionError at the test, message or not.
      const Assert& a = s->as<Assert>();
      std::string test = marked(*a.test, [&] { return truthy(a.test); });
      std::string args = a.msg ? "{" + operands_of(a.test.get(), [&] { return expr(a.msg); }) + "}" : "{}";
      line(fmt::format("if (!{}) ag::raise_value(ag::make_exception(\"AssertionError\", {}));", test, args));
      return;
    }
    case NodeKind::Delete: {
      at(*s);
      for (const Ref& t : s->as<Delete>().targets) {
        if (auto* sub = t->dyn<Subscript>()) {
          line(marked(*t, [&] { return fmt::format("ag::delitem({}, {})", value(sub->value), value(sub->slice)); }) +
               ";");
        } else if (auto* n = t->dyn<Name>()) {
          line(fmt::format("{} = ag::autograph::Undefined({});", variable(n->id), cpp_string(n->id)));
        } else {
          error(*t, "only names and subscripts can be deleted");
        }
      }
      return;
    }
    case NodeKind::FunctionDef:
      at(*s);
      if (!current() && module_def) {
        line(fmt::format("{} = {};", variable(s->as<FunctionDef>().name), module_def(s->as<FunctionDef>())));
        return;
      }
      nested_def(s->as<FunctionDef>());
      return;
    case NodeKind::ClassDef: error(*s, "classes are only supported at module level"); return;
#define AGC_STMT(Name, Fields)
#define AGC_EXPR(Name, Fields) case NodeKind::Name:
#define AGC_AUX(Name, Fields) case NodeKind::Name:
#include "transpiler/ast/nodes.def"
#undef AGC_STMT
#undef AGC_EXPR
#undef AGC_AUX
      AGC_UNREACHABLE("a statement list holds only statements");
  }
}

void Emitter::loop(const Refs& body, const Refs& orelse, const std::string& head, const std::string& first) {
  // Python's loop `else` runs unless a `break` left the loop: a flag it sets.
  std::string broke = orelse.empty() ? "" : fresh("broke");
  if (!broke.empty()) line(fmt::format("bool {} = false;", broke));
  line(head);
  ++indent;
  if (!first.empty()) line(first);
  loop_break_flags_.push_back(broke);
  block(body);
  loop_break_flags_.pop_back();
  --indent;
  line("}");
  if (broke.empty()) return;
  line(fmt::format("if (!{}) {{", broke));
  ++indent;
  block(orelse);
  --indent;
  line("}");
}

std::string Emitter::augmented(BinOpKind op, const std::string& current, const Ref& rhs) {
  // Python's a.__iadd__(b): NumPy arrays and lists change in place (runtime's augmented_assign).
  return fmt::format("ag::augmented_assign({}, {}, {})", current, binop_code(op, current, expr(rhs)),
                     cpp_string(ast::binop_text(op)));
}

void Emitter::with_stmt(const With& w, const Node& s) {
  // runtime/api/with_statement.h shows the form. Items nest, the first
  // outermost; each manager lives in the block around its try, so its
  // destructor runs __exit__ on every normal way out of the body.
  at(s);
  std::vector<std::string> managers;
  for (const Ref& r : w.items) {
    const WithItem& item = r->as<WithItem>();
    std::string manager = fresh("with");
    line("{");
    ++indent;
    line(fmt::format("ag::WithStatement {}({});", manager, value(item.context_expr)));
    line("try {");
    ++indent;
    if (item.optional_vars) {
      line(assign_code(item.optional_vars, manager + ".enter()"));
    } else {
      line(manager + ".enter();");
    }
    managers.push_back(std::move(manager));
  }
  block(w.body);
  for (auto it = managers.rbegin(); it != managers.rend(); ++it) {
    --indent;
    line(fmt::format("}} catch (const ag::Error& ag_error) {{ if (!{}.exit_with(ag_error)) throw; }}", *it));
    --indent;
    line("}");
  }
}

void Emitter::try_stmt(const Try& t, const Node& s) {
  at(s);
  bool has_finally = !t.finalbody.empty();
  if (has_finally) {
    // finally: runs on leaving the block, normally or by an exception.
    line("{");
    ++indent;
    ++in_finally_;
    std::string fin = nested_text([&] { block(t.finalbody); });
    --in_finally_;
    line("ag::Finally ag_finally([&] {");
    out_ += fin;
    line("});");
    line("try {");
    ++indent;
  }
  // else: runs when the body completed (no exception, return, break or
  // continue left it), outside the handlers' reach.
  std::string completed = t.orelse.empty() ? "" : fresh("completed");
  if (!completed.empty()) line(fmt::format("bool {} = false;", completed));
  if (t.handlers.empty()) {
    block(t.body);
    if (!completed.empty()) line(completed + " = true;");
  } else {
    line("try {");
    ++indent;
    bool catches = std::any_of(t.handlers.begin(), t.handlers.end(),
                               [&](const Ref& h) { return catches_type_error(h->as<ExceptHandler>()); });
    catching_type_error_ += catches;
    block(t.body);
    catching_type_error_ -= catches;
    if (!completed.empty()) line(completed + " = true;");
    --indent;
    // One catch of ag::Error tries the handlers in order, as Python does; an
    // unmatched error propagates unchanged.
    bool catch_all = false;
    for (const Ref& h : t.handlers) catch_all = catch_all || !h->as<ExceptHandler>().type;
    bool only_bare = t.handlers.size() == 1 && catch_all;
    if (only_bare) {
      // `except: ...; raise` (AutoGraph's return handling): anything, C++ errors included.
      const ExceptHandler& h = t.handlers[0]->as<ExceptHandler>();
      line("} catch (...) {");
      ++indent;
      handler_tracebacks_.push_back("");
      block(h.body);
      handler_tracebacks_.pop_back();
      --indent;
      line("}");
    } else {
      line("} catch (const ag::Error& ag_error) {");
      ++indent;
      std::string tb = fresh("traceback");
      line(fmt::format("std::vector<ag::TracebackEntry> {} = ag::take_traceback();", tb));
      bool first = true;
      bool exhaustive = false;
      for (const Ref& hr : t.handlers) {
        const ExceptHandler& h = hr->as<ExceptHandler>();
        std::string test = handler_test(h);
        if (!h.type || test == "true") {
          line(first ? "{" : "} else {");
          exhaustive = true;
        } else {
          line(fmt::format("{}if ({}) {{", first ? "" : "} else ", test));
        }
        first = false;
        ++indent;
        // The exception being handled, for traceback.print_exc(): the frame
        // is still where the try body raised.
        line(fmt::format("ag::HandledException {}(ag_error, {}, ag_frame);", fresh("handled"), tb));
        if (!h.name.empty()) line(assign_code(name(h.name, ExprContext::Store, hr->span), "ag::exception_value(ag_error)"));
        handler_tracebacks_.push_back(tb);
        block(h.body);
        handler_tracebacks_.pop_back();
        --indent;
        if (exhaustive) break;
      }
      if (!exhaustive) {
        line("} else {");
        line(fmt::format("  ag::restore_traceback(std::move({}));", tb));
        line("  throw;");
      }
      line("}");
      --indent;
      line("}");
    }
  }
  if (!completed.empty()) {
    line(fmt::format("if ({}) {{", completed));
    ++indent;
    block(t.orelse);
    --indent;
    line("}");
  }
  if (has_finally) {
    // An exception: the clause runs in the handler (runtime/core/finally.h),
    // its own exceptions handled or not, and the first goes on unchanged.
    --indent;
    std::string tb = fresh("traceback");
    line("} catch (...) {");
    line(fmt::format("  std::vector<ag::TracebackEntry> {} = ag::take_traceback();", tb));
    line("  ag_finally.run_now();");
    line(fmt::format("  ag::restore_traceback(std::move({}));", tb));
    line("  throw;");
    line("}");
    --indent;
    line("}");
  }
}

bool Emitter::catches_type_error(const ExceptHandler& h) const {
  if (!h.type) return true;
  Refs types = h.type->is<Tuple>() ? h.type->as<Tuple>().elts : Refs{h.type};
  return std::any_of(types.begin(), types.end(), [&](const Ref& in) {
    const auto* n = unwrap_ld(in)->dyn<Name>();
    return n && builtin_name(n->id) && (n->id == "TypeError" || n->id == "Exception" || n->id == "BaseException");
  });
}

std::string Emitter::handler_test(const ExceptHandler& h) {
  if (!h.type) return "true";
  Refs types;
  if (auto* t = h.type->dyn<Tuple>()) {
    types = t->elts;
  } else {
    types = {h.type};
  }
  std::string out;
  for (const Ref& in : types) {
    // A built-in or tf.errors class (the converted code reads it through
    // ag__.ld) is a C++ type test; any other class (a user's, one held in a
    // variable, a tuple value) is tested as Python does, on its value.
    const Ref& ty = unwrap_ld(in);
    const char* cpp = nullptr;
    std::string path;
    if (tf_path(ty, path)) {
      cpp = find_exception_type(path, true);
    } else if (auto* n = ty->dyn<Name>(); n && builtin_name(n->id)) {
      cpp = find_exception_type(n->id, false);
    }
    if (cpp && std::string_view(cpp) == "ag::Error") {
      // BaseException catches everything; Exception all but SystemExit and its siblings.
      const std::string& name = path.empty() ? ty->as<Name>().id : path;
      if (name == "BaseException") return "true";
      out += (out.empty() ? "" : " || ") + std::string("ag_error.is_exception()");
      continue;
    }
    std::string test = cpp ? fmt::format("dynamic_cast<const {}*>(&ag_error)", cpp)
                           : fmt::format("ag::exception_matches(ag_error, {})", value(in));
    out += (out.empty() ? "" : " || ") + test;
  }
  return out;
}

}  // namespace agc::emit::cpp
