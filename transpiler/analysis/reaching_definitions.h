// Reaching definitions (AutoGraph's pyct.static_analysis.reaching_definitions),
// reduced to what the conversion needs: the names that may be defined on entry
// to each compound statement (DEFINED_VARS_IN). Names first bound inside a
// block are the ones AutoGraph initializes with ag__.Undefined.
#pragma once

#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "transpiler/analysis/qual_names.h"
#include "transpiler/ast/ast.h"

namespace agc::analysis {

class AnalysisCache;

class ReachingDefinitions {
 public:
  static ReachingDefinitions compute(const ast::Ref& root, AnalysisCache& cache);

  /// Whether a definition of `q` may reach the start of an If/While/For/Try/ExceptHandler.
  /// The names a statement binds (what control_flow asks about) are answered
  /// from what compute() found; any other name is searched for when asked.
  bool defined_in(const ast::Node* stmt, const QN& q) const;

  /// One function's flow, kept for the questions compute() did not answer.
  struct Flow;

 private:
  friend class ReachingDefinitionsAnalyzer;
  // Not a set of defined names per statement: in a function with n loops
  // each one may see O(n) names defined, quadratic in memory even as bits
  // (1.25 GB for 100,000 loops). Only the names the statement binds.
  struct Defined {
    std::shared_ptr<const Flow> flow;
    /// The names the statement binds, by symbol index, ascending, each with
    /// whether it is defined on entry.
    std::vector<std::pair<int, bool>> bound;
  };
  std::unordered_map<const ast::Node*, Defined> defined_in_;
};

}  // namespace agc::analysis
