// How agc compiles generated C++ into a program or a library: its
// translation units side by side on the machine's cores, then one link (or
// `ar`); a progress line on a terminal while a build runs long, each step
// and its time under --verbose, and the inputs of a compile that failed
// kept for its report (cli/compile_failure.h). Nothing here knows Python.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "transpiler/cli/toolchain.h"

namespace agc::cli {

struct CompileRequest {
  /// File names in the work dir: <stem>.h, <stem>.cpp (the first unit),
  /// <stem>_2.cpp, ...
  std::string stem;
  std::string header;
  /// The translation units (emit::translation_units); the first holds main().
  std::vector<std::string> units;
  /// The program, or the static library when `library`.
  std::string output;
  bool library = false;
  /// --fast-build: -Og instead of -O2.
  bool fast = false;
  /// Print each command, its output and the time each step took.
  bool verbose = false;
  /// What is compiled, for the line a build that runs longer than a second
  /// prints on a terminal: "model.py (42 functions, 1,073 lines)".
  std::string description;
};

/// A compile whose tools failed: what they said, and where its inputs are.
struct CompileFailure {
  /// The tool that failed ("the C++ compiler", "the linker", "ar"; empty
  /// while none has), and its exit status (-1: it did not run, or was killed).
  std::string tool;
  int status = -1;
  /// Whether it was a compile of the units (not their link or `ar`).
  bool compiling = false;
  /// The failed steps' output, its paths into the work dir made paths into `kept`.
  std::string output;
  /// The directory keeping the header and units as the compiler read them,
  /// build.sh (the commands, to run them again) and compiler-output.txt;
  /// "" when they could not be kept.
  std::string kept;
  /// The units' file names, in order (<stem>.cpp first).
  std::vector<std::string> unit_files;
};

/// How many translation units to cut `bytes` of generated C++ into: one per
/// 64 KB, at most the build's jobs ($AGC_BUILD_JOBS, else the machine's
/// cores). Below 64 KB the fixed cost of a unit (0.3 s to load the
/// precompiled ag.h) is more than a second core saves.
size_t build_units(size_t bytes);
/// The compiles run at once: $AGC_BUILD_JOBS, else the machine's cores.
size_t build_jobs();

/// Writes the sources to a fresh directory under $TMPDIR, compiles the units
/// (build_jobs() at a time) and links them (or archives them with `ar`),
/// removes the directory. False when a tool failed, with `failure` filled
/// and its files kept under cache_dir()/failed (report_compile_failure
/// prints it), or when agc itself could not (a directory or file it could
/// not write: said on stderr, `failure.tool` left empty).
bool compile(const CompileRequest& request, const RuntimeLocation& rt, CompileFailure& failure);

}  // namespace agc::cli
