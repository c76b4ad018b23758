// libFuzzer target: `agc to-code` on arbitrary bytes. Each input is a source
// file run through the mutation fuzzer's checks (tests/fuzz/fuzz_checks.h:
// parse_module and to_code never throw, every diagnostic is well formed and
// points into the file, conversion is deterministic, converted code parses)
// with to_code requests drawn from a generator seeded by the input itself, so
// a saved input reproduces its failure.
#include <cstdint>
#include <random>
#include <string>

#include "tests/fuzz/fuzz_checks.h"
#include "tests/fuzz/libfuzzer/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(ag::fuzz::as_text(data, size));
  std::mt19937 rng(static_cast<uint32_t>(std::hash<std::string>{}(text)));
  static agc::fuzz::Stats stats;
  const std::vector<std::string> problems = agc::fuzz::check_source(text, rng, stats, agc::fuzz::CheckOptions{});
  if (!problems.empty()) {
    std::string all;
    for (const std::string& p : problems) all += "\n  " + p;
    ag::fuzz::fail(std::to_string(problems.size()) + " problem(s) converting the input:" + all);
  }
  return 0;
}
