// What every libFuzzer target of agc's runtime checks: the code under test
// either succeeds or raises one of agc's own errors (ag::Error: the
// Python/TensorFlow exception a user sees, with its message); anything else
// (another C++ exception, an InternalError, which is agc's own bug by its
// definition, or a message that names nothing) is a failure, reported and
// turned into a crash so libFuzzer keeps the input. Crashes, hangs, leaks and
// sanitizer reports are libFuzzer's and ASan's to catch.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "runtime/core/error.h"

namespace ag::fuzz {

/// Prints "fuzz target failure: WHAT" and aborts (libFuzzer saves the input).
[[noreturn]] void fail(const std::string& what);

/// Checks the error a call raised: a message that is not empty. `context`
/// says which call raised it. With AGC_FUZZ_TRACE set, prints it (to see
/// what a saved input does: `AGC_FUZZ_TRACE=1 NAME_fuzz FILE`).
void check_error(const Error& e, std::string_view context);
/// Whether AGC_FUZZ_TRACE is set.
bool tracing();

/// Runs `f`; an ag::Error it raises is checked (check_error) and swallowed,
/// any other exception fails. True when `f` returned normally.
template <class F>
bool expect_clean(std::string_view context, F&& f) {
  try {
    f();
    return true;
  } catch (const InternalError& e) {
    fail(std::string(context) + ": InternalError (an agc bug by definition): " + e.what());
  } catch (const Error& e) {
    check_error(e, context);
  } catch (const std::exception& e) {
    fail(std::string(context) + ": a C++ exception escaped instead of an agc error: " + e.what());
  } catch (...) {
    fail(std::string(context) + ": a non-std exception escaped");
  }
  return false;
}

/// A path in this process's scratch directory (agc-fuzz-PID in /dev/shm, else
/// in $TMPDIR or /tmp; made on first use and removed at exit), for the
/// readers that take a file name.
std::string scratch_path(std::string_view name);
/// Writes `bytes` to `path` (truncating it); fails the target if it cannot.
void write_file(const std::string& path, std::string_view bytes);

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace ag::fuzz
