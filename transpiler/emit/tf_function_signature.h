// What a def's `@tf.function(...)` decorator says about how it is called,
// read from the source: whether the def is a tf.function, and its
// input_signature when that is written out as a list or tuple of
// `tf.TensorSpec(shape, dtype)` with a literal shape and dtype. The header of
// a library agc builds gives such a function typed C++ overloads (one
// element type and a documented shape per parameter); any other signature
// is read by tf.function at run time only, and the header says why it has
// no typed overload.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "transpiler/ast/ast.h"

namespace agc::emit {

/// One tf.TensorSpec of an input_signature.
struct TensorSpecText {
  /// TF's dtype name ("float32").
  std::string dtype;
  /// The C++ element type of that dtype ("float", "int32_t", "std::string"),
  /// and whether it is one of C++'s arithmetic types (not a class).
  std::string cpp_type;
  bool arithmetic = true;
  /// The dims (-1 for None); nullopt for an unknown rank (shape=None).
  std::optional<std::vector<int64_t>> shape;

  /// "float32[None, 784]", "int32[]" (a scalar), "float32[any shape]".
  std::string text() const;
};

struct TfFunctionSignature {
  /// The def's outermost decorator is tf.function, so calling the name
  /// calls a tf.function.
  bool is_tf_function = false;
  /// The input_signature, one spec per parameter, when it could be read.
  std::optional<std::vector<TensorSpecText>> specs;
  /// Why an input_signature that is given could not be read ("" otherwise).
  std::string unread;
};

/// The tf.function facts of `f` whose callers pass `num_params` arguments
/// (a method's, without self), tf.* names resolved through `imports`.
TfFunctionSignature tf_function_signature(const ast::FunctionDef& f, size_t num_params,
                                          const std::map<std::string, std::string>& imports);

}  // namespace agc::emit
