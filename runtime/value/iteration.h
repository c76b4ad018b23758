// Python's iteration protocol as `for` loops use it: lists, tuples, strs,
// dicts and tensors by a snapshot of their items (iterate()), and an object
// through __iter__, then its iterator's __next__ until StopIteration, one
// item at a time: a loop over an endless iterator (a repeated dataset) can
// break out of it. `for (const Value& x : ag::iteration(v))`.
#pragma once

#include <optional>
#include <vector>

#include "runtime/value/value.h"

namespace ag {

class Iteration {
 public:
  explicit Iteration(const Value& iterable);

  /// The next item, or nullopt once the iteration has ended.
  std::optional<Value> next();

  class iterator {
   public:
    explicit iterator(Iteration* it) : it_(it) { advance(); }
    const Value& operator*() const { return *current_; }
    iterator& operator++() {
      advance();
      return *this;
    }
    bool operator!=(const iterator& o) const { return current_.has_value() != o.current_.has_value(); }
    iterator() = default;

   private:
    void advance() { current_ = it_ ? it_->next() : std::nullopt; }
    Iteration* it_ = nullptr;
    std::optional<Value> current_;
  };
  iterator begin() { return iterator(this); }
  iterator end() { return iterator(); }

 private:
  std::vector<Value> items_;  // the snapshot, when there is no iterator object
  size_t next_ = 0;
  Value next_method_;  // the iterator object's bound __next__, or None
};

inline Iteration iteration(const Value& iterable) { return Iteration(iterable); }

/// Python's iter(v): an iterator object (its class defines __next__).
Value py_iter(const Value& v);
/// Python's next(it): its __next__(); StopIteration at the end.
Value py_next(const Value& it);

}  // namespace ag
