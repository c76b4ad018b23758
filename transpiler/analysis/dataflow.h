// Pieces the dataflow analyses share. Every QN a function's CFG mentions gets
// an index (SymbolIndex). Liveness and reaching definitions are gen/kill
// problems with one independent bit per name, so they are solved one name at
// a time: a search over the CFG from where the name is read (or defined),
// stopping where it is overwritten (or deleted), marks exactly the nodes the
// bit-vector fixed point would set that bit at, in time proportional to those
// nodes and in memory proportional to the CFG (NodeMarks), instead of a set
// as wide as the function's names at every node (3 GB for 100,000
// assignments in one function).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "transpiler/analysis/qual_names.h"

namespace agc::analysis {

class SymbolIndex {
 public:
  int add(const QN& q) {
    auto [it, inserted] = index_.emplace(q.id(), static_cast<int>(qns_.size()));
    if (inserted) qns_.push_back(q);
    return it->second;
  }
  void add_all(const QNSet& s) {
    for (const auto& q : s) add(q);
  }
  /// Index of q, or -1 if q never appears.
  int find(const QN& q) const {
    auto it = index_.find(q.id());
    return it == index_.end() ? -1 : it->second;
  }
  size_t size() const { return qns_.size(); }
  const QN& at(size_t i) const { return qns_[i]; }

 private:
  std::unordered_map<const void*, int> index_;
  std::vector<QN> qns_;
};

/// Marks on the nodes of one CFG (by id, 1..n) for the name being searched: a
/// node is marked when its stamp is the current one, so one array serves
/// every name and nothing is cleared in between.
class NodeMarks {
 public:
  explicit NodeMarks(size_t nodes) : stamp_(nodes + 1, 0) {}
  /// Forgets every mark (starts the next name).
  void clear() { ++now_; }
  /// Marks node `id`; false if it was marked already.
  bool mark(int id) {
    uint32_t& s = stamp_[static_cast<size_t>(id)];
    if (s == now_) return false;
    s = now_;
    return true;
  }
  bool marked(int id) const { return stamp_[static_cast<size_t>(id)] == now_; }

 private:
  std::vector<uint32_t> stamp_;
  uint32_t now_ = 1;
};

}  // namespace agc::analysis
