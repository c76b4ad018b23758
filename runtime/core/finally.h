// A scope guard: runs a function when the scope ends, normally or by an
// exception. Generated code uses it for Python's `finally:` clauses.
#pragma once

#include <utility>

namespace ag {

template <class F>
class Finally {
 public:
  explicit Finally(F f) : f_(std::move(f)) {}
  ~Finally() { f_(); }
  Finally(const Finally&) = delete;
  Finally& operator=(const Finally&) = delete;

 private:
  F f_;
};

}  // namespace ag
