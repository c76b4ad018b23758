// Limits of CPython's own parser that agc keeps to, both for what it reads and
// for the Python it prints (to-code output must load back into Python).
#pragma once

namespace agc {

/// Indentation levels CPython's tokenizer accepts, the file's own level 0
/// included (its MAXINDENT): statements nest at most 99 blocks deep.
inline constexpr int kMaxIndentLevels = 100;

}  // namespace agc
