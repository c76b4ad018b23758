#include "transpiler/report/statement_report.h"

#include <algorithm>
#include <functional>
#include <set>

#include "transpiler/analysis/ag_operators.h"
#include "transpiler/ast/visitor.h"
#include "transpiler/report/autograph_errors.h"

namespace agc::report {

using namespace ast;
using passes::ControlVariable;
using passes::StagedStatement;

namespace {

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

std::string joined(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

std::string code(const Ref& e) { return "`" + abbreviated(*e) + "`"; }

/// " (reason; reason)", or "".
std::string because(const ValueOf& v) { return v.reasons.empty() ? "" : " (" + joined(v.reasons, "; ") + ")"; }

/// What settles a value the source leaves open.
std::string decided_by(const ValueOf& v) {
  std::string reasons = joined(v.reasons, "; ");
  switch (v.kind) {
    case Kind::Argument: return "decided by the caller" + (reasons.empty() ? "" : ": " + reasons);
    case Kind::Mixed: return "decided by the values when traced" + (reasons.empty() ? "" : ": " + reasons);
    default: return "decided when traced" + (reasons.empty() ? "" : " by " + reasons);
  }
}

const Ref& test_of(const Node& n) {
  if (const auto* i = n.dyn<If>()) return i->test;
  if (const auto* e = n.dyn<IfExp>()) return e->test;
  if (const auto* w = n.dyn<While>()) return w->test;
  return n.as<For>().iter;
}

int line_at(const SourceSpan& s) { return s.known() ? static_cast<int>(s.file->line_col(s.begin).line) : 0; }

/// The names a for loop's target binds.
void target_names(const Ref& t, std::set<std::string>& out) {
  if (const auto* n = t->dyn<Name>()) out.insert(n->id);
  for_each_child(*t, [&](const Ref& c) { target_names(c, out); });
}

const char* role_text(ControlVariable::Role r) {
  switch (r) {
    case ControlVariable::Role::Break: return "break flag";
    case ControlVariable::Role::Continue: return "continue flag";
    case ControlVariable::Role::Return: return "return flag";
    case ControlVariable::Role::ReturnValue: return "return value";
  }
  return "";
}

}  // namespace

StatementReport::StatementReport(const FunctionDef& fn, const passes::ConversionFacts& facts,
                                 const FunctionValues& values, const FunctionMode& mode)
    : facts_(facts), values_(values), mode_(mode) {
  for (const StagedStatement& s : facts.statements) {
    if (!is_guard(s)) by_key_[{static_cast<int>(s.kind), s.span.begin, s.span.end}] = &s;
    order_.push_back(&s);
  }
  // Source order, an enclosing statement before those inside it, and each
  // one's innermost enclosing statement.
  std::sort(order_.begin(), order_.end(), [](auto* a, auto* b) { return before(*a, *b); });
  std::vector<const StagedStatement*> open;
  for (const StagedStatement* s : order_) {
    while (!open.empty() && open.back()->span.end <= s->span.begin) open.pop_back();
    parent_[s] = open.empty() ? nullptr : open.back();
    open.push_back(s);
  }
  std::function<void(const Ref&)> index = [&](const Ref& n) {
    if (n->is<If>() || n->is<While>() || n->is<For>()) {
      originals_[{static_cast<int>(n->kind), n->span.begin, n->span.end}] = n.get();
    }
    for_each_child(*n, [&](const Ref& c) {
      if (is_stmt(c->kind) || c->kind == NodeKind::ExceptHandler) index(c);
    });
  };
  for (const Ref& s : fn.body) index(s);
}

const Name* StatementReport::guard_flag(const StagedStatement& s) const {
  if (s.kind != NodeKind::If) return nullptr;
  // `not flag` before logical_expressions ran, or ag__.not_(flag).
  const Ref* operand = nullptr;
  if (const auto* u = s.test->dyn<UnaryOp>(); u && u->op == UnaryOpKind::Not) operand = &u->operand;
  if (analysis::ag_operator(s.test) == "not_" && s.test->as<Call>().args.size() == 1) {
    operand = &s.test->as<Call>().args[0];
  }
  const auto* n = operand ? (*operand)->dyn<Name>() : nullptr;
  return n && !n->from_source && facts_.control_variable(n->id) ? n : nullptr;
}

const StagedStatement* StatementReport::fact_of(const Node& original) const {
  auto it = by_key_.find({static_cast<int>(original.kind), original.span.begin, original.span.end});
  return it == by_key_.end() ? nullptr : it->second;
}

ValueOf StatementReport::decider(const Node& original) const {
  const FunctionValues::AtStatement* at = values_.at(&original);
  return at ? at->decider : ValueOf::of(Kind::Unknown);
}

StatementReport::Staging StatementReport::staging(const ValueOf& d) {
  switch (d.kind) {
    case Kind::Tensor:
    case Kind::Dataset: return Staging::Staged;
    case Kind::Python: return Staging::Python;
    default: return Staging::Either;
  }
}

std::string StatementReport::symbol_list(const std::vector<std::string>& names) const {
  std::vector<std::string> out;
  for (const std::string& n : names) {
    const ControlVariable* cv = facts_.control_variable(n);
    out.push_back(cv ? n + " (" + role_text(cv->role) + ")" : n);
  }
  return out.empty() ? "none" : joined(out, ", ");
}

StatementLines StatementReport::statement(const Node& original) const {
  StatementLines out;
  ValueOf d = decider(original);
  if (!mode_.converted()) {
    out.details.push_back(unconverted_verdict(original, d));
    return out;
  }
  out.details.push_back(verdict(original, d));
  const StagedStatement* f = fact_of(original);
  if (!f) return out;
  if (original.is<If>()) if_rules(*f, staging(d), false, out.details);
  else loop_rules(original, *f, staging(d), out.details);
  return out;
}

StatementLines StatementReport::conditional_expressions(const Node& stmt) const {
  StatementLines out;
  const FunctionValues::AtStatement* at = values_.at(&stmt);
  if (!at) return out;
  for (const auto& [e, d] : at->conditionals) {
    out.details.push_back(mode_.converted() ? verdict(*e, d) : unconverted_verdict(*e, d));
  }
  return out;
}

StatementLines StatementReport::guard(const StagedStatement& s) const {
  const std::string& var = guard_flag(s)->id;
  ControlVariable::Role role = facts_.control_variable(var)->role;
  // A break lowers to `break_ = True; continue`, so its guards are continue's.
  const std::string what = role == ControlVariable::Role::Return || role == ControlVariable::Role::ReturnValue
                               ? "return"
                               : "break or continue";
  StatementLines out;
  out.header = "if not " + var + ":  (made by the " + what + " lowering)";
  out.details.push_back("-> tf.cond when " + var + " is a Tensor (a " + what +
                        " above it under a staged if), else a Python if: the rest of the block runs only when no " +
                        what + " happened");
  if_rules(s, Staging::Either, true, out.details);
  return out;
}

std::string StatementReport::verdict(const Node& original, const ValueOf& d) const {
  const std::string t = code(test_of(original));
  Staging s = staging(d);
  if (original.is<If>()) {
    if (s == Staging::Staged) return "-> tf.cond: " + t + " is a Tensor" + because(d);
    if (s == Staging::Python) {
      return "-> Python if: " + t + " is a Python value" + because(d) + "; only the branch taken is traced";
    }
    return "-> tf.cond when " + t + " is a Tensor, else a Python if; " + decided_by(d);
  }
  if (original.is<IfExp>()) {
    const std::string e = "`" + abbreviated(original) + "`";
    if (s == Staging::Staged) return "-> " + e + ": tf.cond: " + t + " is a Tensor" + because(d);
    if (s == Staging::Python) return "-> " + e + ": Python's: " + t + " is a Python value" + because(d);
    return "-> " + e + ": tf.cond when " + t + " is a Tensor, else Python's; " + decided_by(d);
  }
  if (original.is<While>()) {
    if (s == Staging::Staged) return "-> tf.while_loop: " + t + " is a Tensor" + because(d);
    if (s == Staging::Python) return "-> Python loop, unrolled at trace time: " + t + " is a Python value" + because(d);
    return "-> tf.while_loop when " + t + " is a Tensor, else a Python loop unrolled at trace time; " + decided_by(d);
  }
  if (d.kind == Kind::Tensor) {
    if (d.range) return "-> tf.while_loop counting through " + t + because(d);
    return "-> tf.while_loop over the rows of " + t + ", a Tensor" + because(d);
  }
  if (d.kind == Kind::Dataset) return "-> a tf.data loop over the elements of " + t + because(d);
  if (s == Staging::Python) {
    std::string count =
        d.length >= 0 ? " (" + std::to_string(d.length) + " iteration" + (d.length == 1 ? "" : "s") + ")" : "";
    std::string type = d.python_type.empty() ? "iterable" : d.python_type;
    return "-> Python loop, unrolled at trace time" + count + ": " + t + " is a Python " + type + because(d);
  }
  if (d.range) {
    return "-> tf.while_loop when the bounds of " + t + " are Tensors (range then makes a tf.range), else a Python "
           "loop unrolled at trace time; " + decided_by(d);
  }
  return "-> tf.while_loop when " + t + " is a Tensor, a tf.data loop when it is a Dataset, else a Python loop "
         "unrolled at trace time; " + decided_by(d);
}

std::string StatementReport::unconverted_verdict(const Node& original, const ValueOf& d) const {
  const std::string t = code(test_of(original));
  Staging s = staging(d);
  std::string what = original.is<If>()      ? "Python if"
                     : original.is<IfExp>() ? "Python conditional expression"
                                            : "Python loop";
  std::string out = "-> " + what + ", as written (not converted)";
  if (original.is<For>()) {
    if (d.kind == Kind::Tensor) return out + ": " + t + " is a Tensor, so TF raises " + kIterateTensor;
    if (s == Staging::Either) return out + ": when " + t + " is a Tensor, TF raises " + kIterateTensor;
    return out;
  }
  if (s == Staging::Staged) return out + ": " + t + " is a Tensor, so TF raises " + kTensorAsBool;
  if (s == Staging::Either) return out + ": when " + t + " is a Tensor, TF raises " + kTensorAsBool;
  return out;
}

void StatementReport::if_rules(const StagedStatement& f, Staging s, bool guard, std::vector<std::string>& out) const {
  std::vector<std::string> outputs(f.symbols.begin(), f.symbols.begin() + static_cast<std::ptrdiff_t>(f.nouts));
  out.push_back("outputs: " + symbol_list(outputs));
  const std::string staged = s == Staging::Either ? "staged, " : "";
  for (const std::string& v : outputs) {
    bool in_main = contains(f.bound_in_body, v), in_else = contains(f.bound_in_orelse, v);
    if (in_main == in_else) continue;
    const std::string missing = in_main ? "else" : "main", has = in_main ? "main" : "else";
    if (const ControlVariable* cv = facts_.control_variable(v)) {
      // A guard's else path is the one where a return already happened.
      if (cv->role == ControlVariable::Role::ReturnValue && !guard && s != Staging::Python && !in_loop_carrying(f, v)) {
        out.push_back("return: only the " + has + " branch returns: " + staged + "TF raises " +
                      missing_return(missing));
      }
      continue;
    }
    if (!contains(f.undefined, v)) continue;
    std::vector<std::string> parts;
    if (s != Staging::Python) parts.push_back(staged + "TF raises " + undefined_in_branch(v, missing));
    if (s != Staging::Staged) {
      parts.push_back("as Python, reading " + v + " after the " + missing + " branch ran raises " +
                      used_before_assignment(v));
    }
    out.push_back("undefined: " + v + " has no value before the if and is set only in the " + has + " branch: " +
                  joined(parts, "; "));
  }
}

bool StatementReport::in_loop_carrying(const StagedStatement& inner, const std::string& var) const {
  for (auto it = parent_.find(&inner); it != parent_.end() && it->second; it = parent_.find(it->second)) {
    if (it->second->kind != NodeKind::If && contains(it->second->symbols, var)) return true;
  }
  return false;
}

const Node* StatementReport::staged_if_setting(const StagedStatement& loop, const std::string& var, bool* any) const {
  *any = false;
  // Statements nest, so those inside the loop follow it in source order.
  auto first = std::upper_bound(order_.begin(), order_.end(), &loop, [](auto* a, auto* b) { return before(*a, *b); });
  for (auto it = first; it != order_.end() && (*it)->span.begin < loop.span.end; ++it) {
    const StagedStatement& s = **it;
    if (s.kind != NodeKind::If || is_guard(s) ||
        !contains({s.symbols.begin(), s.symbols.begin() + static_cast<std::ptrdiff_t>(s.nouts)}, var)) {
      continue;
    }
    *any = true;
    auto o = originals_.find({static_cast<int>(s.kind), s.span.begin, s.span.end});
    if (o != originals_.end() && staging(decider(*o->second)) != Staging::Python) return o->second;
  }
  return nullptr;
}

void StatementReport::loop_rules(const Node& original, const StagedStatement& f, Staging s,
                                 std::vector<std::string>& out) const {
  out.push_back("loop-carried: " + symbol_list(f.symbols));
  const std::string staged = s == Staging::Either ? "staged, " : "";
  const bool is_for = original.is<For>();
  std::set<std::string> targets;
  if (is_for) target_names(original.as<For>().target, targets);
  const FunctionValues::AtStatement* at = values_.at(&original);
  const char* python_loop_exit = is_for ? kPythonForLoopTensorExit : kPythonWhileLoopTensorTest;

  if (const auto* w = original.dyn<While>(); w && at && s == Staging::Python) {
    // The test again, each time round: a Tensor now means the loop changed kind.
    const ValueOf& later = at->decider_at_head;
    if (later.kind == Kind::Tensor) {
      out.push_back("condition: " + code(w->test) + " is a Tensor after an iteration" + because(later) +
                    ": TF raises " + kPythonWhileLoopTensorTest);
    } else if (later.kind == Kind::Mixed || later.kind == Kind::Argument) {
      out.push_back("condition: " + code(w->test) + " may be a Tensor after an iteration" + because(later) +
                    ": then TF raises " + kPythonWhileLoopTensorTest);
    }
  }
  for (size_t i = 0; i < f.symbols.size(); ++i) {
    const std::string& v = f.symbols[i];
    if (facts_.control_variable(v)) continue;
    if (contains(f.undefined, v) && !targets.count(v)) {
      if (i >= f.nouts) {
        // Only read in the loop, before it is set, and not used after.
        std::vector<std::string> parts;
        if (s != Staging::Python) parts.push_back(staged + "TF raises " + undefined_before_loop(v));
        if (s != Staging::Staged) parts.push_back("as Python, " + used_before_assignment(v));
        out.push_back("undefined: " + v + " has no value before the loop, which reads it before setting it: " +
                      joined(parts, "; "));
      } else if (s != Staging::Python) {
        out.push_back("undefined: " + v + " has no value before the loop: " + staged +
                      "AutoGraph gives it one from a first traced iteration (if that iteration reads it before "
                      "setting it, TF raises " + undefined_before_loop(v) + ")");
      }
    }
    if (!at || s == Staging::Python) continue;
    auto entry = at->entry.find(v);
    auto head = at->head.find(v);
    // Only where the loop may make it a Tensor, whose dtype the body decides.
    Kind later = head == at->head.end() ? Kind::Unknown : head->second.kind;
    if (entry == at->entry.end() || entry->second.kind != Kind::Python || entry->second.literal.empty() ||
        (later != Kind::Tensor && later != Kind::Mixed && later != Kind::Argument)) {
      continue;
    }
    const std::string& type = entry->second.python_type;
    std::string dtype = type == "int" ? "int32" : type == "float" ? "float32" : type == "bool" ? "bool" : "";
    if (dtype.empty()) continue;
    out.push_back("dtype: " + v + " enters the loop as the Python " + type + " " + entry->second.literal + ", " +
                  staged + (dtype == "int32" ? "an " : "a ") + dtype + " Tensor: the loop must keep it " + dtype +
                  " (else TF raises TypeError, from an op mixing dtypes or as " + loop_dtype(v, dtype) + ")");
  }
  for (const std::string& l : f.lists) {
    if (!contains(f.symbols, l)) continue;
    std::vector<std::string> parts;
    if (s != Staging::Python) parts.push_back(staged + "it is carried as a TensorArray");
    if (s != Staging::Staged) parts.push_back("as Python, it stays a list");
    out.push_back("lists: " + l + " grows or shrinks in the loop (ag__.list_append, ag__.list_pop): " +
                  joined(parts, "; "));
  }
  for (const std::string& name : f.symbols) {
    const ControlVariable* cv = facts_.control_variable(name);
    if (!cv) continue;
    bool own_break = cv->role == ControlVariable::Role::Break && cv->span.begin == original.span.begin &&
                     cv->span.end == original.span.end;
    if (!own_break && cv->role != ControlVariable::Role::ReturnValue) continue;
    bool conditional = false;
    const Node* tensor_if = staged_if_setting(f, name, &conditional);
    const char* what = own_break ? "break" : "return";
    if (s != Staging::Python) {
      if (own_break) {
        out.push_back("break: lowered to the flag " + name + ", which the loop carries and its test reads " +
                      "(works in a staged loop)");
      } else if (conditional) {
        out.push_back("return: inside the loop, under a condition: " + staged + "TF raises " + kReturnInTfLoop);
      } else {
        out.push_back("return: the loop returns in its first iteration");
      }
    }
    if (s != Staging::Staged && tensor_if) {
      bool tensor = staging(decider(*tensor_if)) == Staging::Staged;
      out.push_back(std::string(what) + ": under " + code(test_of(*tensor_if)) + " at line " +
                    std::to_string(line_at(tensor_if->span)) + (tensor ? ", a Tensor: " : ": when that is a Tensor, ") +
                    (s == Staging::Either ? "as a Python loop, " : "") + "TF raises " + python_loop_exit);
    }
  }
}

}  // namespace agc::report
