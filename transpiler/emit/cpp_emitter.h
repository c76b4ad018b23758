// The C++ emitter: a module's converted AST (the one to_code prints) as C++20
// against libagrt. Functions become C++ functions over ag::Value, each
// module-level def twice: as written and converted (which one a call runs is
// TF's rule, see runtime/value/user_function.h); the nested
// defs AutoGraph generates (if_body, loop_body, get_state, ...) become lambdas
// capturing by reference, which is what their `nonlocal` means; ag__.*
// operators become ag::autograph calls; tf.* and builtins resolve at transpile
// time to ag::tf::api / ag::py functions (runtime/api/python_api.h). The
// module's own statements become its run() function, called by main() (or by
// the header's functions in a library). Output depends only on the input.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "transpiler/base/diagnostic.h"
#include "transpiler/passes/convert_module.h"

namespace agc::emit {

struct CppOutput {
  /// <stem>.h: the module's functions for a C++ app.
  std::string header;
  /// <stem>.cpp, the module and main() unless `library`, is
  /// head + data + definitions + run + close + rest of `parts`, which
  /// translation_units() deals out. It is kept only in parts: for a large
  /// function the text is hundreds of megabytes, written out piece by piece.
  std::vector<std::string_view> source_pieces() const;
  std::string source() const;
  size_t source_size() const;
  struct Parts {
    /// What every unit starts with: the include of <stem>.h, the module's
    /// namespace, kFile, the position table, the globals and what
    /// tf.autograph.to_code returns of each function (inline C++ variables,
    /// one for all units).
    std::string head;
    /// The first unit's constants: the Python source (for main()).
    std::string data;
    /// The C++ functions of each module-level def and method (as written and
    /// converted), then the parts of a long module's own code (run_partN),
    /// and their declarations.
    std::vector<std::string> definitions;
    std::vector<std::string> declarations;
    /// run(): the module-level code (or calls of its parts), which makes the
    /// function values of all definitions; then what closes the namespace;
    /// then init(), the header's functions and main().
    std::string run;
    std::string close;
    std::string rest;
  };
  Parts parts;
};

/// The C++ of a converted module (all of its entities). `stem` is the module's
/// name (the file name without .py) and becomes its C++ namespace. Problems
/// with the module's imports are reported to `sink` even when the conversion
/// failed; the output is empty when `cm` or `sink` holds an error.
CppOutput emit_cpp(const passes::ConvertedModule& cm, const std::string& stem, bool library, DiagnosticSink& sink);

/// `out.source` as at most `n` translation units, for a build that compiles
/// them side by side: the definitions dealt out in order in runs of about
/// equal size, each unit declaring them all, the first also holding run()
/// and main(). n <= 1: {out.source}.
std::vector<std::string> translation_units(const CppOutput& out, size_t n);

}  // namespace agc::emit
