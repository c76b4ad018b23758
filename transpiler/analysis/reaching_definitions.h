// Reaching definitions (AutoGraph's pyct.static_analysis.reaching_definitions),
// reduced to what the conversion needs: the names that may be defined on entry
// to each compound statement (DEFINED_VARS_IN). Names first bound inside a
// block are the ones AutoGraph initializes with ag__.Undefined.
#pragma once

#include <unordered_map>

#include "transpiler/analysis/qual_names.h"
#include "transpiler/ast/ast.h"

namespace agc::analysis {

class AnalysisCache;

class ReachingDefinitions {
 public:
  static ReachingDefinitions compute(const ast::Ref& root, AnalysisCache& cache);

  /// Names with a definition that may reach the start of an If/While/For/Try.
  const QNSet& defined_in(const ast::Node* stmt) const {
    static const QNSet empty;
    auto it = defined_in_.find(stmt);
    return it == defined_in_.end() ? empty : it->second;
  }

 private:
  friend class ReachingDefinitionsAnalyzer;
  std::unordered_map<const ast::Node*, QNSet> defined_in_;
};

}  // namespace agc::analysis
