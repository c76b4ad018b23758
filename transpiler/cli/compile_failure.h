// What agc says when the C++ compiler rejects code it generated, which is
// always a bug in agc: each compiler error at the Python line the code came
// from (file:line:col, the line, a caret, as agc's other diagnostics), with
// the compiler's own message, then where the generated files are kept and
// how to report the bug.
#pragma once

#include "transpiler/cli/commands.h"
#include "transpiler/cli/compile.h"

namespace agc::cli {

/// Prints the report of `failure`, a failed build of `generated`, to stderr,
/// and puts a copy of FILE.py beside the kept files.
void report_compile_failure(const GeneratedCpp& generated, const CompileFailure& failure);

}  // namespace agc::cli
