// One statement's block of `agc explain`: what its if/while/for becomes at
// trace time, decided by the value value_kinds.h finds for its test or
// iterate, with the state the conversion carries through it
// (passes::ConversionFacts) and the rules of TensorFlow's control_flow.py
// that state can break, quoting what TensorFlow raises.
#pragma once

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "transpiler/ast/ast.h"
#include "transpiler/passes/conversion_facts.h"
#include "transpiler/report/function_modes.h"
#include "transpiler/report/value_flow.h"

namespace agc::report {

struct StatementLines {
  /// The header after `FILE:LINE:COL: `; empty for the statement's first line as written.
  std::string header;
  /// The indented lines: the verdict (`-> ...`), then `topic: ...` lines.
  std::vector<std::string> details;
};

class StatementReport {
 public:
  /// `fn`: the def as written, whose (and whose nested defs') statements
  /// `facts` describe.
  StatementReport(const ast::FunctionDef& fn, const passes::ConversionFacts& facts, const FunctionValues& values,
                  const FunctionMode& mode);

  /// Whether `s` is a guard the return or continue lowering made
  /// (`if not do_return:` around the rest of a block), not a user's if.
  bool is_guard(const passes::StagedStatement& s) const { return guard_flag(s) != nullptr; }
  /// The block of an if/while/for as written.
  StatementLines statement(const ast::Node& original) const;
  /// The block of a simple statement's conditional expressions
  /// (ag__.if_exp), without details when it has none.
  StatementLines conditional_expressions(const ast::Node& stmt) const;
  /// The block of a guard.
  StatementLines guard(const passes::StagedStatement& s) const;

 private:
  enum class Staging { Staged, Python, Either };
  using Key = std::tuple<int, uint32_t, uint32_t>;

  /// A guard's flag (`do_return` of `if not do_return:`), a control
  /// variable the user did not write; null for any other statement.
  const ast::Name* guard_flag(const passes::StagedStatement& s) const;
  const passes::StagedStatement* fact_of(const ast::Node& original) const;
  /// What decides the statement: an if's or a while's test (the first time),
  /// a for's iterate.
  ValueOf decider(const ast::Node& original) const;
  static Staging staging(const ValueOf& decider);

  std::string verdict(const ast::Node& original, const ValueOf& d) const;
  std::string unconverted_verdict(const ast::Node& original, const ValueOf& d) const;
  void if_rules(const passes::StagedStatement& f, Staging s, bool guard, std::vector<std::string>& out) const;
  void loop_rules(const ast::Node& original, const passes::StagedStatement& f, Staging s,
                  std::vector<std::string>& out) const;
  /// A break or return in a loop: the if (as written) inside it that sets
  /// the control variable `var` and may be staged, or null; `any`: whether
  /// any if inside sets it.
  const ast::Node* staged_if_setting(const passes::StagedStatement& loop, const std::string& var, bool* any) const;
  /// Source order, an enclosing statement first.
  static bool before(const passes::StagedStatement& a, const passes::StagedStatement& b) {
    return a.span.begin != b.span.begin ? a.span.begin < b.span.begin : a.span.end > b.span.end;
  }
  /// Whether a loop around `inner` carries `var` (a return inside it is
  /// then the loop's rule, which TF raises first).
  bool in_loop_carrying(const passes::StagedStatement& inner, const std::string& var) const;
  std::string symbol_list(const std::vector<std::string>& names) const;

  const passes::ConversionFacts& facts_;
  const FunctionValues& values_;
  const FunctionMode& mode_;
  std::map<Key, const passes::StagedStatement*> by_key_;
  std::map<Key, const ast::Node*> originals_;
  /// The facts in source order (before()), and each one's innermost enclosing one.
  std::vector<const passes::StagedStatement*> order_;
  std::map<const passes::StagedStatement*, const passes::StagedStatement*> parent_;
};

}  // namespace agc::report
