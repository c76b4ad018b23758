// Activity analysis (AutoGraph's pyct.static_analysis.activity): for every
// statement, test expression and block, the names it reads, modifies, binds and
// deletes, and the global/nonlocal declarations made in it. Block scopes
// accumulate everything their statements do; function scopes are isolated and
// pass only their free reads outward.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <tuple>
#include <set>
#include <string>
#include <unordered_set>
#include <unordered_map>

#include "transpiler/analysis/qual_names.h"
#include "transpiler/ast/ast.h"
#include "transpiler/base/namer.h"

namespace agc::analysis {

class AnalysisCache;

struct Scope {
  const Scope* parent = nullptr;
  bool isolated = false;
  /// A comprehension's own scope: its targets are `bound`.
  bool comprehension = false;
  QNSet read, modified, bound, deleted, globals, nonlocals;

  /// Everything read here or in an enclosing scope (AutoGraph's `referenced`).
  QNSet referenced() const;
  /// Whether `referenced()` reserves `name` against fresh names.
  bool reserves(const std::string& name) const;
  /// reserves() as the namer's predicate.
  Namer::Reserved reserved() const {
    return [this](const std::string& name) { return reserves(name); };
  }

 private:
  // The names `read` reserves, built on the first reserves() call: a function
  // with n loops asks n times about a scope reading O(n) names. Only scopes
  // reading many names build it, so it is allocated then (an empty set is as
  // big as a third of a Scope, and a converted function has dozens per loop).
  mutable std::unique_ptr<std::unordered_set<std::string>> reserved_;
};

/// The union of what several scopes reserve (null scopes are skipped).
Namer::Reserved reserved_by(std::initializer_list<const Scope*> scopes);

class Activity {
 public:
  static Activity compute(const ast::Ref& root, AnalysisCache& cache);
  /// Only function_scope() answers, and its scopes' `parent` is null: what
  /// Closures reads, in memory proportional to the number of functions, not
  /// of statements.
  static Activity compute_function_scopes(const ast::Ref& root);

  /// SCOPE: of a statement, an if/while test, a for iterate, a with item, a
  /// function's arguments, a loop's extra test, a lambda. Null if none.
  const Scope* scope(const ast::Node* n) const { return find(scope_, n); }
  /// BODY_SCOPE of If/While/For/With/ExceptHandler/FunctionDef/ClassDef.
  const Scope* body_scope(const ast::Node* n) const { return find(body_, n); }
  /// ORELSE_SCOPE of If/While/For.
  const Scope* orelse_scope(const ast::Node* n) const { return find(orelse_, n); }
  /// ITERATE_SCOPE of For: the target plus the extra loop test.
  const Scope* iterate_scope(const ast::Node* n) const { return find(iterate_, n); }
  /// ARGS_SCOPE of a Call.
  const Scope* args_scope(const ast::Node* n) const { return find(args_, n); }
  /// ARGS_AND_BODY_SCOPE of a FunctionDef or Lambda (its isolated scope), or
  /// the own scope of a comprehension (Python 3 gives it one; the first
  /// iterable is evaluated outside it).
  const Scope* function_scope(const ast::Node* n) const { return find(function_, n); }

  /// The body (or call-arguments) scope of the node `n` was rewritten from:
  /// found by identity, else by kind and source span, which rewrites keep.
  /// AutoGraph names generated symbols from the scopes of the code as first
  /// analysed, so the canonicalizing passes ask the original analysis this way
  /// instead of re-analysing every intermediate tree.
  const Scope* original_body_scope(const ast::Node* n) const { return find_original(body_, n); }
  const Scope* original_args_scope(const ast::Node* n) const { return find_original(args_, n); }

 private:
  friend class ActivityAnalyzer;
  using Map = std::unordered_map<const ast::Node*, const Scope*>;
  static const Scope* find(const Map& m, const ast::Node* n) {
    auto it = m.find(n);
    return it == m.end() ? nullptr : it->second;
  }
  const Scope* find_original(const Map& m, const ast::Node* n) const;
  std::deque<Scope> scopes_;
  Map scope_, body_, orelse_, iterate_, args_, function_;
  // (kind, begin, end) of the node of every entry in body_ and args_.
  // Built on the first find_original(): only the original function's
  // activity is asked, and the others (control_flow's, the emitter's) would
  // pay a tree-sized map for nothing.
  mutable std::map<std::tuple<int, uint32_t, uint32_t>, const ast::Node*> by_span_;
  mutable bool by_span_built_ = false;
};

/// Identifiers a set of QNs reserves against fresh names.
std::set<std::string> reserved_names(const QNSet& qns);

}  // namespace agc::analysis
