// Python structures of specs and values as TensorFlow's StructuredValue
// (struct.proto; TF's nested_structure_coder): what a SavedModel records of
// a function's arguments and results, so a loaded function takes and
// returns the same structures. None, bools, ints, floats, strs, dtypes,
// TensorShapes, TensorSpecs (a tensor is written as its spec, unnamed, as
// TF writes an output signature), lists, tuples and dicts with str keys.
#pragma once

#include "runtime/value/value.h"

namespace tensorflow {
class StructuredValue;
}  // namespace tensorflow

namespace ag {

/// `v` into `out`; UnimplementedError naming the value's type for anything
/// else (a SavedModel of agc cannot hold it).
void encode_structure(const Value& v, tensorflow::StructuredValue* out);
/// The structure `s` holds (TensorSpec values where tensors go).
/// UnimplementedError for kinds agc does not read (TypeSpecs of composite
/// tensors, NumPy values).
Value decode_structure(const tensorflow::StructuredValue& s);

}  // namespace ag
