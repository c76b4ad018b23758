// tf.keras.initializers: the classes (GlorotUniform(seed=None), ...), the
// names layers take ("glorot_uniform", "zeros", ...) and the values they draw.
//
// Keras 2's rules (initializers_v2): VarianceScaling's fans and scales, the
// truncated normal's 0.8796 correction, Orthogonal's QR with the sign fix.
// A seeded initializer draws with the stateless ops on the seed [seed, 0], as
// Keras's stateless RandomGenerator does, so its values are TensorFlow's. An
// unseeded one draws with tf.random.* under TF's global seed rules, so
// tf.random.set_seed makes weights reproducible in agc; Keras draws a Python
// random seed there, so those values are not TensorFlow's (nor are they
// reproducible in TensorFlow without keras.utils.set_random_seed).
#pragma once

#include <string>
#include <vector>

#include "runtime/core/tensor.h"
#include "runtime/value/value.h"

namespace ag::keras {

/// keras.initializers.get(identifier): an initializer object from a name, a
/// config dict {"class_name": ..., "config": ...}, or the object or callable
/// itself; ValueError "Could not interpret initializer identifier" otherwise.
Value get_initializer(const Value& identifier);
/// The class of keras.initializers.<name> ("GlorotUniform"); None when there is none.
const Value& initializer_class(const std::string& name);
/// The initial value `identifier` gives a weight of `shape` (drawn eagerly,
/// outside any trace, as Keras's init_scope does).
Tensor initial_value(const Value& identifier, const std::vector<int64_t>& shape, DType dtype);

}  // namespace ag::keras
