// The public names of the libraries a program imports, as the libraries
// themselves define them (not as agc implements them): TensorFlow's from its
// API golden files (tf_public_api.def), NumPy's and the standard modules'
// from the modules themselves (py_public_api.def), both written by
// scripts/public_api.py. They let a diagnostic tell a name the library lacks
// (the program's mistake: Python's AttributeError) from one agc lacks.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace agc::emit {

enum class NameKind { Module, Class, Function, Value };

struct PublicName {
  std::string_view path;
  NameKind kind;
  /// A function's parameters as Python writes them ("x, name=", "*args");
  /// "" for other kinds, "?" when unknown.
  std::string_view params;
};

/// What a library says of a dotted path under it: `library` is
/// "tensorflow", "numpy" or a standard module ("math"), `path` the rest
/// ("math.reduce_sum", "random.seed", "sqrt").
struct PublicLookup {
  enum class Outcome {
    /// The library has the path (or a non-module object on it, whose
    /// attributes are not listed: `found` names that object).
    Found,
    /// The module `module` lists all its members, and `attr` is not one.
    Missing,
    /// Nothing is known: the path runs through a module whose members are not listed.
    Unknown,
  };
  Outcome outcome = Outcome::Unknown;
  std::optional<PublicName> found;
  /// For Missing: the module's path under the library ("" for the library itself) and the missing member.
  std::string module;
  std::string attr;
};

PublicLookup lookup_public(std::string_view library, std::string_view path);

/// The public name at `path` of `library`, or nullopt.
std::optional<PublicName> find_public(std::string_view library, std::string_view path);

/// The members of module `module` (a path under `library`, "" for the
/// library itself) as far as they are listed.
std::vector<PublicName> public_members(std::string_view library, std::string_view module);

/// The module's name as Python prints it in an AttributeError: tf.math is
/// 'tensorflow._api.v2.math', tf.keras.layers 'keras.api._v2.keras.layers'
/// (Keras 2 as TF 2.x loads it), np.random 'numpy.random'.
std::string python_module_name(std::string_view library, std::string_view module);

}  // namespace agc::emit
