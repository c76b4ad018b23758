// The checks the mutation fuzzer runs on each source text: parse_module,
// to_code and agc explain's report must not throw, every diagnostic must be well formed, converting the
// same text twice must give the same bytes, and converted code must parse.
#pragma once

#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <sys/types.h>

namespace agc::fuzz {

/// Counters for the summary.
struct Stats {
  long trials = 0;
  long parsed_clean = 0;
  long converted = 0;       // mutants for which every to_code run succeeded
  long convert_errors = 0;  // to_code runs that reported diagnostics
  long unknown_span_errors = 0;
  std::map<std::string, long> unknown_span_messages;
  std::map<std::string, long> failure_kinds;
  long too_deep_for_cpython = 0;  // outputs past CPython's 200 nested brackets
  long unverified_outputs = 0;    // outputs too deep to check with tree-sitter
  long slow_trials = 0;
  double slowest_s = 0;
  std::string slowest_log;
};

/// Optional oracle (--python=PYTHON): one CPython process that compiles each text
/// it is sent. It finds input that agc accepts although Python rejects it, and
/// converted code that Python cannot compile; tree-sitter is lenient on both.
class PythonOracle {
 public:
  PythonOracle() = default;
  PythonOracle(const PythonOracle&) = delete;
  PythonOracle& operator=(const PythonOracle&) = delete;
  ~PythonOracle();

  /// Starts `python`; false if it cannot run.
  bool start(const std::string& python);
  /// "ok", or "error <Python's message>". Answers "ok" once Python is gone.
  std::string compile(const std::string& text);

 private:
  pid_t pid_ = -1;
  FILE* to_ = nullptr;
  FILE* from_ = nullptr;
};

struct CheckOptions {
  /// Convert with lists on and off, each with no and with all optional
  /// features, instead of one random request per list mode.
  bool exhaustive = false;
  PythonOracle* oracle = nullptr;
};

/// Runs every check on `text` (as file "mutant.py") and returns the problems
/// found, each "kind: detail". `rng` picks the to_code requests. Sets
/// `*parsed_clean` (if given) to whether parse_module accepted the text.
std::vector<std::string> check_source(const std::string& text, std::mt19937& rng, Stats& stats,
                                      const CheckOptions& options, bool* parsed_clean = nullptr);

}  // namespace agc::fuzz
