// Dense sets of a function's names for the dataflow analyses: every QN the
// function's CFG mentions gets an index, and sets are bit vectors, so the
// fixed-point iterations are word operations instead of tree insertions.
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

class BitSet {
 public:
  explicit BitSet(size_t bits = 0) : w_((bits + 63) / 64, 0) {}
  void set(int i) { w_[static_cast<size_t>(i) >> 6] |= uint64_t{1} << (i & 63); }
  void reset(int i) { w_[static_cast<size_t>(i) >> 6] &= ~(uint64_t{1} << (i & 63)); }
  bool test(int i) const { return (w_[static_cast<size_t>(i) >> 6] >> (i & 63)) & 1; }
  void unite(const BitSet& o) {
    for (size_t k = 0; k < w_.size(); ++k) w_[k] |= o.w_[k];
  }
  bool operator==(const BitSet& o) const { return w_ == o.w_; }
  bool operator!=(const BitSet& o) const { return w_ != o.w_; }

  static BitSet of(const QNSet& s, const SymbolIndex& idx) {
    BitSet b(idx.size());
    for (const auto& q : s) {
      int i = idx.find(q);
      if (i >= 0) b.set(i);
    }
    return b;
  }
  QNSet to_set(const SymbolIndex& idx) const {
    // Word by word: sets are sparse over a large function's symbols.
    std::vector<QN> members;
    for (size_t k = 0; k < w_.size(); ++k) {
      for (uint64_t w = w_[k]; w; w &= w - 1) members.push_back(idx.at(k * 64 + static_cast<size_t>(__builtin_ctzll(w))));
    }
    QNSet out;
    out.insert(members.begin(), members.end());
    return out;
  }

 private:
  std::vector<uint64_t> w_;
};

}  // namespace agc::analysis
