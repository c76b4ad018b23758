// Golden files in the tree-sitter corpus style: one .txt per feature holding many
// cases, each
//
//   === case name ===
//   source: tf                 (optional: text from real TensorFlow output or the seeds)
//   options: --autograph-compat --function f   (optional)
//   <input>
//   ---
//   <expected output>
//
// `source: tf` cases are the contract and are never rewritten by AGC_BLESS.
#pragma once

#include <string>
#include <vector>

namespace agc::testing {

struct GoldenCase {
  std::string name;
  bool from_tf = false;
  std::vector<std::string> options;
  std::string input;
  std::string expected;
  int line = 0;  // of the header, for messages
};

/// Parses a corpus file's text; malformed files yield an error message instead.
std::vector<GoldenCase> parse_golden(const std::string& text, std::string& error);
/// Writes cases back in the same format.
std::string format_golden(const std::vector<GoldenCase>& cases);

/// TensorFlow prints some lists in Python set order, which varies between runs:
/// the names of `nonlocal`/`global` declarations and runs of consecutive
/// `x = ag__.Undefined('x')` lines. Sorts those so a TF-sourced expectation
/// compares equal to agc's deterministic (sorted) output.
std::string canonicalize_set_order(const std::string& code);

/// `s` without trailing whitespace.
std::string rstrip(const std::string& s);

}  // namespace agc::testing
