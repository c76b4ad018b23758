// Python's `finally:` clause for generated code:
//
//   {
//     ag::Finally ag_finally([&] { <finally clause> });
//     try {
//       <body>                 // return/break/continue: the clause runs as
//     } catch (...) {          //   the guard goes out of scope
//       ag_finally.run_now();  // an exception: the clause runs here, where
//       throw;                 //   one it raises replaces the one in flight
//     }
//   }
//
// The clause runs in a catch handler when an exception leaves the body: a
// destructor cannot throw while an exception unwinds, and Python lets the
// clause raise (its exception replaces the first).
#pragma once

#include <utility>

namespace ag {

template <class F>
class Finally {
 public:
  explicit Finally(F f) : f_(std::move(f)) {}
  ~Finally() noexcept(false) {
    if (armed_) f_();
  }
  Finally(const Finally&) = delete;
  Finally& operator=(const Finally&) = delete;

  void run_now() {
    armed_ = false;
    f_();
  }

 private:
  F f_;
  bool armed_ = true;
};

}  // namespace ag
