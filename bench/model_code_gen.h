// A large, deterministic module of TF2-style model code for benchmarks: a fixed
// set of templates (loops over tensors, if/elif chains, break/continue, early
// returns, nested functions, list appends, tf.TensorArray, Keras layers,
// comprehensions, lambdas, f-strings, keyword arguments) with varied names and sizes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace agc::bench {

struct GeneratedCode {
  std::string text;
  size_t definitions = 0;  // top-level functions and classes
};

/// At least `target_lines` lines of Python that agc converts without diagnostics.
/// The same `seed` always gives the same text.
GeneratedCode generate_model_code(size_t target_lines, uint64_t seed = 20240611);

}  // namespace agc::bench
