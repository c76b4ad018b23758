// Limits of CPython's own parser that agc keeps to, both for what it reads and
// for the Python it prints (to-code output must load back into Python).
#pragma once

namespace agc {

/// Indentation levels CPython's tokenizer accepts, the file's own level 0
/// included (its MAXINDENT): statements nest at most 99 blocks deep.
inline constexpr int kMaxIndentLevels = 100;

/// Nested statements CPython's compiler recurses through (its symtable pass,
/// 3 x the default recursion limit of 1,000 in Python 3.9-3.11) before
/// "RecursionError: maximum recursion depth exceeded during compilation".
/// Blocks nest at most 99 deep, but an elif sits in the else of the if before
/// it, so only an if/elif chain gets here: one with this many elif clauses
/// never compiles (3.11 compiles 2,987 in a function; past about 6,000 its
/// parser already gives up with a MemoryError).
inline constexpr int kMaxCompilerNesting = 3000;

}  // namespace agc
