// Python's sys module as agc compiles it (py_modules.def's sys rows,
// py_sys.cpp): argv, exit, the standard streams as objects with write() and
// flush(), version and version_info, platform, maxsize. print, tf.print and AutoGraph's print
// find the standard streams through standard_stream().
#pragma once

#include <string>
#include <vector>

#include "runtime/value/value.h"

namespace ag::pymod {

/// "stdout" or "stderr" when `v` is sys.stdout or sys.stderr (or the text
/// "sys.stdout"/"sys.stderr" signatures' defaults spell), else nullptr.
const char* standard_stream(const Value& v);

/// Writes `text` to "stdout" or "stderr" as print does: the other stream
/// flushed first, so `2>&1` keeps program order, and this one after.
void write_standard_stream(const char* stream, const std::string& text);

/// sys.argv: the program's file, then `args` (program_main: what follows `--`).
void set_argv(const std::string& file, const std::vector<std::string>& args);

/// The exit status of a SystemExit carrying `code` (sys.exit's argument), as
/// CPython exits: None is 0, an int itself, anything else is printed to
/// stderr and is 1.
int exit_status(const Value& code);

}  // namespace ag::pymod
