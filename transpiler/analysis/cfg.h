// Control flow graphs, one per function, built the way AutoGraph's pyct.cfg
// builds them: nodes are statements plus the expressions that act as statements
// (if/while tests, for iterates, with items, a function's arguments, a loop's
// extra test); compound statements record the CFG nodes entering and leaving
// them. Exceptions raised by calls are not modelled; `raise` and try/except are.
#pragma once

#include <deque>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>

#include "transpiler/ast/ast.h"

namespace agc::analysis {

class AnalysisCache;

struct CfgNode {
  const ast::Node* ast = nullptr;
  std::vector<CfgNode*> next;
  std::vector<CfgNode*> prev;
  int id = 0;  // creation order (1, 2, ...), for deterministic iteration
  /// The id of the entry node of the outermost loop holding this node (its
  /// own id for that entry), 0 outside loops. Nodes are created in lexical
  /// order, so an edge to a smaller id is a loop's back edge, and a node
  /// reaches a smaller id only through the entry of a loop holding it: see
  /// can_reach_up_to().
  int outer_loop = 0;
};

/// Whether flow from `n` may reach some node whose id is at most `id`: only
/// if `n` is that node or before it, or a loop holding `n` starts there or
/// before. Dataflow searches use it to stop where they cannot matter.
inline bool can_reach_up_to(const CfgNode& n, int id) { return n.id <= id || (n.outer_loop && n.outer_loop <= id); }

struct NodeOrder {
  bool operator()(const CfgNode* a, const CfgNode* b) const { return a->id < b->id; }
};
using CfgNodeSet = std::set<CfgNode*, NodeOrder>;

struct Cfg {
  const ast::Node* function = nullptr;
  std::deque<CfgNode> nodes;  // stable addresses
  CfgNode* entry = nullptr;
  CfgNodeSet exits;
  std::unordered_map<const ast::Node*, CfgNode*> index;
  /// Of compound statements: CFG nodes outside that flow in / that are flowed to.
  std::unordered_map<const ast::Node*, CfgNodeSet> stmt_prev, stmt_next;

  /// The node with id `id` (1 <= id <= nodes.size()).
  const CfgNode& node(int id) const { return nodes[static_cast<size_t>(id - 1)]; }

  CfgNode* find(const ast::Node* n) const {
    auto it = index.find(n);
    return it == index.end() ? nullptr : it->second;
  }
};

/// The CFGs of a function and of every function nested in it.
class Cfgs {
 public:
  static Cfgs compute(const ast::Ref& root, AnalysisCache& cache);
  const Cfg* of(const ast::Node* function) const {
    auto it = graphs_.find(function);
    return it == graphs_.end() ? nullptr : &it->second;
  }

 private:
  friend class CfgBuilder;
  std::map<const ast::Node*, Cfg> graphs_;
};

}  // namespace agc::analysis
