// Lazily computed analyses, keyed by the identity of the tree they describe.
// Nodes are immutable, so a rewritten tree has a new root and never matches a
// stale entry (Pythran's invalidation for free). Passes ask
// `ctx.analyses.get<Liveness>(root)` instead of re-deriving facts.
#pragma once

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

 private:
  std::map<std::pair<std::type_index, const ast::Node*>, std::shared_ptr<const void>> cache_;
  std::vector<ast::Ref> roots_;
};

}  // namespace agc::analysis
