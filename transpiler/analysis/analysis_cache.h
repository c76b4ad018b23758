// Lazily computed analyses, keyed by the identity of the tree they describe.
// Nodes are immutable, so a rewritten tree has a new root and never matches a
// stale entry (Pythran's invalidation for free). Passes ask
// `ctx.analyses.get<Liveness>(root)` instead of re-deriving facts.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <map>
#include <memory>
#include <typeindex>
#include <utility>
#include <vector>

#include "transpiler/ast/ast.h"

namespace agc::analysis {

class AnalysisCache {
 public:
  /// The analysis T of the tree rooted at `root`, computed on first use with
  /// `T::compute(root, *this)`.
  template <class T>
  const T& get(const ast::Ref& root) {
    return *get_shared<T>(root);
  }
  /// get(), as shared ownership: for an analysis that keeps another one it
  /// reads later (the cache may be gone by then).
  template <class T>
  std::shared_ptr<const T> get_shared(const ast::Ref& root) {
    auto key = std::make_pair(std::type_index(typeid(T)), root.get());
    auto it = cache_.find(key);
    if (it != cache_.end()) return std::static_pointer_cast<const T>(it->second);
    auto value = std::make_shared<T>(T::compute(root, *this));
    // Keeping the root alive guarantees its address is not reused by a later tree.
    roots_.push_back(root);
    cache_.emplace(key, value);
    return value;
  }

  /// Forgets the analyses of every tree but `keep` (and lets those trees go):
  /// a pipeline moves from tree to tree and never asks about an earlier one
  /// again, and a function's analyses cost as much memory as its tree.
  void retain_only(std::initializer_list<const ast::Node*> keep) {
    auto kept = [&](const ast::Node* n) { return std::find(keep.begin(), keep.end(), n) != keep.end(); };
    std::erase_if(cache_, [&](const auto& entry) { return !kept(entry.first.second); });
    std::erase_if(roots_, [&](const ast::Ref& r) { return !kept(r.get()); });
  }

 private:
  std::map<std::pair<std::type_index, const ast::Node*>, std::shared_ptr<const void>> cache_;
  std::vector<ast::Ref> roots_;
};

}  // namespace agc::analysis
