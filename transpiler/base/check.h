// AGC_CHECK: invariants of agc itself. A failure is a bug in agc, never the user's
// fault, and surfaces as InternalError ("this is a bug in agc") instead of abort().
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace agc {

class InternalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {

class CheckFailure {
 public:
  CheckFailure(const char* file, int line, const char* cond) {
    os_ << "internal error (this is a bug in agc): check failed: " << cond << " at " << file << ":" << line;
  }
  template <class T>
  CheckFailure& operator<<(const T& v) {
    os_ << (first_ ? ": " : "") << v;
    first_ = false;
    return *this;
  }
  // Throwing from the destructor is what lets `AGC_CHECK(c) << "msg";` read like a
  // statement; the object only ever lives as a temporary in that expression.
  [[noreturn]] ~CheckFailure() noexcept(false) { throw InternalError(os_.str()); }

 private:
  std::ostringstream os_;
  bool first_ = true;
};

/// Throws InternalError; for code paths that must not be reached.
[[noreturn]] inline void unreachable(const char* what, const char* file, int line) {
  std::ostringstream os;
  os << "internal error (this is a bug in agc): unreachable: " << what << " at " << file << ":" << line;
  throw InternalError(os.str());
}

}  // namespace detail
}  // namespace agc

#define AGC_UNREACHABLE(what) ::agc::detail::unreachable(what, __FILE__, __LINE__)

#define AGC_CHECK(cond) \
  if (cond) {           \
  } else                \
    ::agc::detail::CheckFailure(__FILE__, __LINE__, #cond)
