// Liveness (AutoGraph's pyct.static_analysis.liveness): which names may be read
// before being overwritten, at the entry and exit of each statement. A nested
// function's free variables count as live wherever its definition reaches,
// since calling it may read them.
#pragma once

#include <unordered_map>

#include "transpiler/analysis/qual_names.h"
#include "transpiler/ast/ast.h"

namespace agc::analysis {

class AnalysisCache;

class Liveness {
 public:
  static Liveness compute(const ast::Ref& root, AnalysisCache& cache);

  /// Names live on entry to a statement (for If/While: at the test; For: at the
  /// iterate; compound statements only where AutoGraph annotates them).
  const QNSet& live_in(const ast::Node* stmt) const { return find(in_, stmt); }
  /// Names live after a statement (If, While, For, Try, ExceptHandler, Expr).
  const QNSet& live_out(const ast::Node* stmt) const { return find(out_, stmt); }

 private:
  friend class LivenessAnalyzer;
  static const QNSet& find(const std::unordered_map<const ast::Node*, QNSet>& m, const ast::Node* n) {
    static const QNSet empty;
    auto it = m.find(n);
    return it == m.end() ? empty : it->second;
  }
  std::unordered_map<const ast::Node*, QNSet> in_, out_;
};

}  // namespace agc::analysis
