// The checks Python's tokenizer makes before its parser runs: brackets,
// string and number literals, indentation, and block headers. tree-sitter
// recovers from these errors by guessing, which puts its messages far from the
// cause ("unexpected 'def'" ten lines after an unclosed bracket); checking them
// first reports them the way CPython does, at the right place.
#pragma once

#include "transpiler/base/diagnostic.h"
#include "transpiler/base/python_limits.h"

namespace agc::frontend {

/// Widest indentation agc accepts, in columns (tree-sitter-python's scanner
/// stores indents in 8 bits, so deeper code would be misparsed).
inline constexpr int kMaxIndentColumns = 255;

/// How bad the tokenizer-level errors in a file are.
enum class TokenCheck {
  Clean,
  /// Only errors confined to one token (a bad number, string prefix or
  /// backquote): the structure is intact, so parsing may go on to find more.
  Local,
  /// Brackets, strings, indentation or block headers are broken: anything a
  /// parser said after this would be a guess.
  Structural,
};

/// Reports tokenizer-level errors in `file` (at most one per line).
TokenCheck check_tokens(const SourceFile& file, DiagnosticSink& sink);

}  // namespace agc::frontend
