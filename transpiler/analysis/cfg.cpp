#include "transpiler/analysis/cfg.h"

#include <algorithm>

#include "transpiler/ast/visitor.h"

namespace agc::analysis {

using namespace ast;

// Named, not anonymous: CfgBuilder (external linkage) holds a GraphBuilder.
namespace cfg_graph {

/// Builds one function's graph from nodes supplied in lexical order, with the
/// section bookkeeping of pyct's GraphBuilder (loops, conditionals, finally
/// guards, except sections).
class GraphBuilder {
 public:
  explicit GraphBuilder(Cfg& g) : g_(g) {}

  // Statements nest, so the active ones form a stack; a node records only the
  // innermost and each statement its enclosing one (pyct copies the whole set).
  // Each statement also gets the interval of a walk entering and leaving it,
  // so whether one holds another is two comparisons, not a search.
  void begin_statement(const Node* stmt) {
    stmts_.push_back({stmt, active_.empty() ? -1 : active_.back(), clock_++, 0});
    active_.push_back(static_cast<int>(stmts_.size()) - 1);
  }
  void end_statement(const Node* stmt) {
    AGC_CHECK(!active_.empty() && stmts_[static_cast<size_t>(active_.back())].node == stmt) << "statements must nest";
    stmts_[static_cast<size_t>(active_.back())].left = clock_++;
    active_.pop_back();
  }

  CfgNode* add_ordinary_node(const Node* ast) {
    CfgNode* n = add_new_node(ast);
    leaves_ = {n};
    return n;
  }

  void add_exit_node(const Node* ast, const Node* section, const std::vector<const Node*>& guards) {
    CfgNode* n = add_jump_node(ast, guards);
    exits_[section].insert(n);
    last_jump_ = n;
  }

  void add_continue_node(const Node* ast, const Node* section, const std::vector<const Node*>& guards) {
    CfgNode* n = add_jump_node(ast, guards);
    continues_[section].insert(n);
  }

  CfgNode* last_jump() const { return last_jump_; }

  void connect_raise_node(CfgNode* n, const std::vector<const Node*>& except_guards) {
    for (const Node* g : except_guards) raises_[g].push_back(n);
  }

  void enter_section(const Node* section) { exits_[section]; }
  void exit_section(const Node* section) {
    for (CfgNode* e : exits_[section]) {
      CfgNodeSet ends = connect_jump_to_finally_sections(e);
      leaves_.insert(ends.begin(), ends.end());
    }
    exits_.erase(section);
  }

  void enter_loop_section(const Node* section, const Node* entry) {
    continues_[section];
    CfgNode* n = add_ordinary_node(entry);
    if (loop_depth_++ == 0) outer_loop_ = n->outer_loop = n->id;
    section_entry_[section] = n;
  }
  void exit_loop_section(const Node* section) {
    if (--loop_depth_ == 0) outer_loop_ = 0;
    CfgNode* entry = section_entry_[section];
    connect(leaves_, entry);
    for (CfgNode* c : continues_[section]) connect(connect_jump_to_finally_sections(c), entry);
    leaves_ = {entry};
    continues_.erase(section);
    section_entry_.erase(section);
  }

  void enter_cond_section(const Node* section) { cond_leaves_[section]; }
  // A branch's leaves are moved, not copied, and merged smaller into larger:
  // in an elif chain n deep the else branch ends in the leaves of all the
  // branches after it, so copying them at each level was quadratic.
  void new_cond_branch(const Node* section) {
    auto it = cond_entry_.find(section);
    if (it != cond_entry_.end()) {
      cond_leaves_[section].push_back(std::move(leaves_));
      leaves_ = it->second;
    } else {
      cond_entry_[section] = leaves_;
    }
  }
  void exit_cond_section(const Node* section) {
    for (auto& split : cond_leaves_[section]) {
      if (split.size() > leaves_.size()) std::swap(split, leaves_);
      leaves_.insert(split.begin(), split.end());
    }
    cond_entry_.erase(section);
    cond_leaves_.erase(section);
  }

  void enter_except_section(const Node* section) {
    auto it = raises_.find(section);
    if (it != raises_.end()) leaves_.insert(it->second.begin(), it->second.end());
  }

  void enter_finally_section(const Node* section) {
    finally_subgraphs_[section] = {nullptr, {}};
    finally_direct_flow_[section] = !leaves_.empty();
    pending_finally_.insert(section);
  }
  void exit_finally_section(const Node* section) {
    finally_subgraphs_[section].second = leaves_;
    if (!finally_direct_flow_[section]) leaves_.clear();
    finally_direct_flow_.erase(section);
  }

  /// Each compound statement's stmt_next and stmt_prev: for an edge a -> b,
  /// the statements holding a but not b flow to b, those holding b but not a
  /// are flowed into from a. Walking up from a's innermost statement stops at
  /// the first one holding b, or at one that already flows to b: an earlier
  /// edge into b crossed it and went on from there to the same place (no
  /// statement in between holds b). So each edge costs what it adds, and the
  /// n branches of an elif chain n deep, all flowing to the statement after
  /// it, cost O(n), not O(n^2).
  void build() {
    g_.exits = leaves_;
    for (const Stmt& st : stmts_) {
      g_.stmt_prev[st.node];
      g_.stmt_next[st.node];
    }
    for (const auto& [first, second] : edges_) {
      int sa = innermost_[static_cast<size_t>(first->id - 1)];
      int sb = innermost_[static_cast<size_t>(second->id - 1)];
      for (int s = sa; s >= 0 && !holds(s, sb); s = stmts_[static_cast<size_t>(s)].parent) {
        if (!g_.stmt_next[stmts_[static_cast<size_t>(s)].node].insert(second).second) break;
      }
      for (int s = sb; s >= 0 && !holds(s, sa); s = stmts_[static_cast<size_t>(s)].parent) {
        if (!g_.stmt_prev[stmts_[static_cast<size_t>(s)].node].insert(first).second) break;
      }
    }
  }

 private:
  void connect(CfgNode* a, CfgNode* b) {
    if (std::find(a->next.begin(), a->next.end(), b) == a->next.end()) {
      a->next.push_back(b);
      b->prev.push_back(a);
      edges_.emplace_back(a, b);
    }
  }
  void connect(const CfgNodeSet& from, CfgNode* b) {
    for (CfgNode* a : from) connect(a, b);
  }

  /// Whether statement `s` holds statement `t` (or is it); -1 is no statement.
  bool holds(int s, int t) const {
    if (t < 0) return false;
    const Stmt& a = stmts_[static_cast<size_t>(s)];
    const Stmt& b = stmts_[static_cast<size_t>(t)];
    return a.entered <= b.entered && b.left <= a.left;
  }

  CfgNode* add_new_node(const Node* ast) {
    CfgNode& n = g_.nodes.emplace_back();
    n.ast = ast;
    n.id = static_cast<int>(g_.nodes.size());
    n.outer_loop = outer_loop_;
    g_.index[ast] = &n;
    innermost_.push_back(active_.empty() ? -1 : active_.back());
    if (!g_.entry) g_.entry = &n;
    connect(leaves_, &n);
    for (const Node* s : pending_finally_) finally_subgraphs_[s].first = &n;
    pending_finally_.clear();
    return &n;
  }

  CfgNode* add_jump_node(const Node* ast, const std::vector<const Node*>& guards) {
    CfgNode* n = add_new_node(ast);
    leaves_.clear();
    finally_sections_[n] = guards;
    return n;
  }

  CfgNodeSet connect_jump_to_finally_sections(CfgNode* n) {
    CfgNodeSet cursor{n};
    auto it = finally_sections_.find(n);
    if (it == finally_sections_.end()) return cursor;
    for (const Node* guard : it->second) {
      auto& [begin, ends] = finally_subgraphs_[guard];
      if (begin) connect(cursor, begin);
      cursor = ends;
    }
    finally_sections_.erase(it);
    return cursor;
  }

  struct Stmt {
    const Node* node;
    int parent;  // index in stmts_, -1 for none
    int entered, left;  // when the walk entered and left it
  };

  Cfg& g_;
  CfgNodeSet leaves_;
  std::vector<Stmt> stmts_;
  std::vector<int> active_;  // indices in stmts_
  std::vector<int> innermost_;  // by node id - 1: index in stmts_, or -1
  int clock_ = 0;
  int loop_depth_ = 0;
  int outer_loop_ = 0;  // the entry id of the outermost loop being built, or 0
  std::vector<std::pair<CfgNode*, CfgNode*>> edges_;
  std::map<CfgNode*, std::vector<const Node*>> finally_sections_;
  std::map<const Node*, std::pair<CfgNode*, CfgNodeSet>> finally_subgraphs_;
  std::map<const Node*, bool> finally_direct_flow_;
  std::set<const Node*> pending_finally_;
  std::map<const Node*, CfgNodeSet> exits_, continues_;
  std::map<const Node*, CfgNode*> section_entry_;
  std::map<const Node*, std::vector<CfgNode*>> raises_;
  std::map<const Node*, CfgNodeSet> cond_entry_;
  std::map<const Node*, std::vector<CfgNodeSet>> cond_leaves_;
  CfgNode* last_jump_ = nullptr;
};

}  // namespace cfg_graph

using namespace cfg_graph;

/// Walks the AST, one GraphBuilder per function (pyct's AstToCfg).
class CfgBuilder {
 public:
  explicit CfgBuilder(Cfgs& out) : out_(out) {}

  void function(const Ref& fn) {
    if (builder_) builder_->add_ordinary_node(fn.get());
    Cfg& g = out_.graphs_[fn.get()];
    g.function = fn.get();
    GraphBuilder b(g);
    GraphBuilder* saved = builder_;
    builder_ = &b;
    lexical_.push_back(fn.get());
    b.enter_section(fn.get());
    const auto& f = fn->as<FunctionDef>();
    b.add_ordinary_node(f.args.get());
    for (const auto& s : f.body) stmt(s);
    b.exit_section(fn.get());
    lexical_.pop_back();
    b.build();
    builder_ = saved;
  }

 private:
  bool is_loop(const Node* n) const { return n->is<While>() || n->is<For>(); }

  /// The innermost lexical scope accepted by `stop`, with the try/finally
  /// statements crossed on the way.
  template <class Pred>
  const Node* enclosing(Pred stop, std::vector<const Node*>& finally_guards) const {
    for (auto it = lexical_.rbegin(); it != lexical_.rend(); ++it) {
      const Node* n = *it;
      if (const auto* t = n->dyn<Try>(); t && !t->finalbody.empty()) finally_guards.push_back(n);
      if (stop(n)) return n;
    }
    return nullptr;
  }

  std::vector<const Node*> enclosing_except_handlers() const {
    std::vector<const Node*> out;
    for (auto it = lexical_.rbegin(); it != lexical_.rend(); ++it) {
      const Node* n = *it;
      if (const auto* t = n->dyn<Try>()) {
        for (const auto& h : t->handlers) out.push_back(h.get());
      }
      if (n->is<FunctionDef>()) break;
    }
    return out;
  }

  /// Nested function definitions inside expressions are not statements; only
  /// statement-level defs get CFG nodes (lambdas stay part of their statement).
  void basic(const Node* n) { builder_->add_ordinary_node(n); }

  void stmt(const Ref& n) {
    switch (n->kind) {
      case NodeKind::FunctionDef:
        function(n);
        return;
      case NodeKind::ClassDef:
        basic(n.get());
        return;
      case NodeKind::Return: {
        std::vector<const Node*> guards;
        const Node* fn = enclosing([](const Node* x) { return x->is<FunctionDef>(); }, guards);
        builder_->add_exit_node(n.get(), fn, guards);
        return;
      }
      case NodeKind::Raise: {
        std::vector<const Node*> guards;
        const Node* fn = enclosing([](const Node* x) { return x->is<FunctionDef>(); }, guards);
        builder_->add_exit_node(n.get(), fn, guards);
        builder_->connect_raise_node(builder_->last_jump(), enclosing_except_handlers());
        return;
      }
      case NodeKind::Break: {
        std::vector<const Node*> guards;
        const Node* loop = enclosing([this](const Node* x) { return is_loop(x); }, guards);
        if (loop) builder_->add_exit_node(n.get(), loop, guards);
        return;
      }
      case NodeKind::Continue: {
        std::vector<const Node*> guards;
        const Node* loop = enclosing([this](const Node* x) { return is_loop(x); }, guards);
        if (loop) builder_->add_continue_node(n.get(), loop, guards);
        return;
      }
      case NodeKind::If: {
        const auto& s = n->as<If>();
        builder_->begin_statement(n.get());
        builder_->enter_cond_section(n.get());
        basic(s.test.get());
        builder_->new_cond_branch(n.get());
        for (const auto& c : s.body) stmt(c);
        builder_->new_cond_branch(n.get());
        for (const auto& c : s.orelse) stmt(c);
        builder_->exit_cond_section(n.get());
        builder_->end_statement(n.get());
        return;
      }
      case NodeKind::While: {
        const auto& s = n->as<While>();
        builder_->begin_statement(n.get());
        lexical_.push_back(n.get());
        builder_->enter_section(n.get());
        builder_->enter_loop_section(n.get(), s.test.get());
        for (const auto& c : s.body) stmt(c);
        builder_->exit_loop_section(n.get());
        lexical_.pop_back();
        for (const auto& c : s.orelse) stmt(c);
        builder_->exit_section(n.get());
        builder_->end_statement(n.get());
        return;
      }
      case NodeKind::For: {
        const auto& s = n->as<For>();
        builder_->begin_statement(n.get());
        lexical_.push_back(n.get());
        builder_->enter_section(n.get());
        builder_->enter_loop_section(n.get(), s.iter.get());
        if (s.extra_test) basic(s.extra_test.get());
        for (const auto& c : s.body) stmt(c);
        builder_->exit_loop_section(n.get());
        lexical_.pop_back();
        for (const auto& c : s.orelse) stmt(c);
        builder_->exit_section(n.get());
        builder_->end_statement(n.get());
        return;
      }
      case NodeKind::Try: {
        const auto& s = n->as<Try>();
        builder_->begin_statement(n.get());
        lexical_.push_back(n.get());
        // Like pyct: the try body is assumed to run to completion; a handler may
        // then run instead of the rest.
        for (const auto& c : s.body) stmt(c);
        if (!s.orelse.empty()) {
          const Node* rep = s.orelse[0].get();
          builder_->enter_cond_section(rep);
          builder_->new_cond_branch(rep);
          for (const auto& c : s.orelse) stmt(c);
          builder_->new_cond_branch(rep);
          builder_->exit_cond_section(rep);
        }
        lexical_.pop_back();
        if (!s.handlers.empty()) {
          const Node* rep = s.handlers[0].get();
          builder_->enter_cond_section(rep);
          for (const auto& h : s.handlers) {
            builder_->new_cond_branch(rep);
            handler(h);
          }
          builder_->new_cond_branch(rep);
          builder_->exit_cond_section(rep);
        }
        if (!s.finalbody.empty()) {
          builder_->enter_finally_section(n.get());
          for (const auto& c : s.finalbody) stmt(c);
          builder_->exit_finally_section(n.get());
        }
        builder_->end_statement(n.get());
        return;
      }
      case NodeKind::With: {
        const auto& w = n->as<With>();
        for (const auto& item : w.items) basic(item.get());
        for (const auto& c : w.body) stmt(c);
        return;
      }
      default:
        basic(n.get());
        return;
    }
  }

  void handler(const Ref& h) {
    builder_->begin_statement(h.get());
    builder_->enter_except_section(h.get());
    for (const auto& c : h->as<ExceptHandler>().body) stmt(c);
    builder_->end_statement(h.get());
  }

  Cfgs& out_;
  GraphBuilder* builder_ = nullptr;
  std::vector<const Node*> lexical_;
};

Cfgs Cfgs::compute(const ast::Ref& root, AnalysisCache&) {
  Cfgs out;
  if (root && root->is<FunctionDef>()) CfgBuilder(out).function(root);
  return out;
}

}  // namespace agc::analysis
