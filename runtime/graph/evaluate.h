// Values of graph tensors known while tracing, as TF's graph construction
// computes them: a variable's initializer lifted out of the function and run
// once (lift_to_graph), and the shape refiner's constant evaluation and
// partial shapes (ConstantPartialShape), which give a Fill of a packed
// [1, n, 2] the static shape (1, None, 2).
#pragma once

#include <optional>

#include "runtime/graph/graph.h"

namespace ag {

/// `o` computed now, eagerly, by running the nodes it depends on, when none
/// of them is an argument of its graph (a function input) or runs a
/// subgraph (TF's lift_to_graph of a variable's initial value); nullopt
/// otherwise.
std::optional<Tensor> lift_to_eager(const Output& o);

/// `o`'s value when a few stateless nodes on small constants compute it
/// (the shape refiner's EvaluateConstantTensor: `tf.shape(x)[0]` of a
/// statically shaped x); nullopt otherwise.
std::optional<Tensor> constant_value_of(const Output& o);

/// What `o`, a vector read as a shape (a Fill's dims, a Reshape's shape),
/// is known to hold: its value when constant_value_of knows it (a negative
/// entry an unknown dim), else what its op's ShapeValueFn says (a Pack of
/// scalars: [1,?,2]), else as many unknown dims as it has elements;
/// nullopt when not even that is known.
std::optional<Shape> partial_shape_value(const Output& o);

}  // namespace ag
