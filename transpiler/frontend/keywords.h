// Python 3's hard keywords: words that can never name anything.
#pragma once

#include <algorithm>
#include <array>
#include <string_view>

namespace agc::frontend {

inline constexpr std::array<std::string_view, 35> kKeywords = {
    "False", "None",   "True",    "and",    "as",     "assert", "async", "await",    "break",
    "class", "continue", "def",   "del",    "elif",   "else",   "except", "finally", "for",
    "from",  "global", "if",      "import", "in",     "is",     "lambda", "nonlocal", "not",
    "or",    "pass",   "raise",   "return", "try",    "while",  "with",   "yield"};

/// Called for every identifier lowered, so it compares lengths before bytes.
inline bool is_keyword(std::string_view word) {
  if (word.size() < 2 || word.size() > 8) return false;
  return std::find(kKeywords.begin(), kKeywords.end(), word) != kKeywords.end();
}

}  // namespace agc::frontend
