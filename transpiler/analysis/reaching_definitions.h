// Reaching definitions (AutoGraph's pyct.static_analysis.reaching_definitions),
// reduced to what the conversion needs: the names that may be defined on entry
// to each compound statement (DEFINED_VARS_IN). Names first bound inside a
// block are the ones AutoGraph initializes with ag__.Undefined.
#pragma once

#include <memory>
#include <unordered_map>

#include "transpiler/analysis/dataflow.h"
#include "transpiler/analysis/qual_names.h"
#include "transpiler/ast/ast.h"

namespace agc::analysis {

class AnalysisCache;

class ReachingDefinitions {
 public:
  static ReachingDefinitions compute(const ast::Ref& root, AnalysisCache& cache);

  /// Whether a definition of `q` may reach the start of an If/While/For/Try.
  bool defined_in(const ast::Node* stmt, const QN& q) const {
    auto it = defined_in_.find(stmt);
    if (it == defined_in_.end()) return false;
    int i = it->second.symbols->find(q);
    return i >= 0 && it->second.bits.test(i);
  }

 private:
  friend class ReachingDefinitionsAnalyzer;
  // Bits over the function's symbols rather than a set per statement: in a
  // function with n loops each one may see O(n) names defined, and sets made
  // that quadratic in memory.
  struct Defined {
    std::shared_ptr<const SymbolIndex> symbols;
    BitSet bits;
  };
  std::unordered_map<const ast::Node*, Defined> defined_in_;
};

}  // namespace agc::analysis
