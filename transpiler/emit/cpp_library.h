// The entry points of a module's C++ header, what a C++ app calls: one per
// module-level def (taking an ag::Value per parameter), one per module-level
// object that is an instance of one of the module's classes (the object
// itself) and one per tf.function method of it (`model_serve(x)` for
// `model.serve(x)`), and, for a tf.function whose input_signature the source
// spells out, a typed overload (TensorViews of the app's buffers, plain
// numbers for scalars). Every entry point runs the module's code first
// (init()) and throws nothing but ag::Error. Internal to transpiler/emit.
#pragma once

#include <map>
#include <string>

#include "transpiler/ast/ast.h"

namespace agc::emit {

struct LibraryApi {
  /// The header's declarations, inside the module's namespace.
  std::string declarations;
  /// Their definitions, inside the module's namespace in the source, after
  /// init(); they reach the module's globals as py::NAME.
  std::string definitions;
};

/// The entry points of `m`, whose imports are `imports` (local name →
/// dotted module path).
LibraryApi library_api(const ast::Module& m, const std::map<std::string, std::string>& imports);

}  // namespace agc::emit
