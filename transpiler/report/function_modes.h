// How AutoGraph treats each function of a module, from its decorators and
// the module's tf.function(...) calls: converted when a tf.function traces
// it, traced unconverted (tf.function(autograph=False), do_not_convert), or
// converted only when a tf.function calls it; and which parameters an
// input_signature makes Tensors. For `agc explain`.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "transpiler/ast/ast.h"
#include "transpiler/passes/convert_module.h"

namespace agc::report {

struct FunctionMode {
  enum class Conversion {
    TfFunction,    // @tf.function (or wrapped by tf.function(f)): converted when traced
    Unconverted,   // tf.function(autograph=False): traced as written
    DoNotConvert,  // @tf.autograph.experimental.do_not_convert
    WhenCalled,    // a plain function or method: converted when a tf.function calls it
  };
  Conversion conversion = Conversion::WhenCalled;
  /// A method whose first parameter is the object (or class).
  bool method = false;
  /// The decorator's input_signature, when it has one: which positional
  /// parameters it declares as tf.TensorSpec.
  bool has_signature = false;
  std::vector<bool> tensor_specs;
  /// The line of the tf.function(f) call that wraps it, when no decorator
  /// makes it a tf.function (0 otherwise): called directly, it runs as written.
  int wrapped_at = 0;
  /// Why agc could not convert it ("" when it did).
  std::string failure;

  /// Whether its if/while/for go through AutoGraph's ag__ operators when traced.
  bool converted() const { return conversion == Conversion::TfFunction || conversion == Conversion::WhenCalled; }
};

/// The mode of every entity of `cm`, by its def as written.
std::map<const ast::Node*, FunctionMode> function_modes(const passes::ConvertedModule& cm);

/// The verdict line of a function: how AutoGraph treats it.
std::string describe(const FunctionMode& mode);
/// What its parameters are when traced, or "" when it has none to speak of.
std::string arguments(const ast::FunctionDef& fn, const FunctionMode& mode);

}  // namespace agc::report
