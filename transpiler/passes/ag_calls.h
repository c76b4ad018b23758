// Direct builders for the two calls the conversion emits most: `ag__.ld(x)` for
// every read of a user variable and `ag__.converted_call(...)` for every call.
// They build exactly what quote() builds from the one-line templates, without
// the template walk, which profiling showed was a tenth of conversion time.
#pragma once

#include "transpiler/ast/ast.h"

namespace agc::passes {

/// `ag__.<function>(args...)`, every new node with `span`.
ast::Ref ag_call(const char* function, ast::Refs args, SourceSpan span);

}  // namespace agc::passes
