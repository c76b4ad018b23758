// agc's dtypes, shapes and tensors as TensorFlow's protos (types.proto's
// DataType numbers, TensorShapeProto, TensorProto), shared by checkpoints
// (core/tensor_bundle) and GraphDefs and FunctionDefs (graph/function_def).
// Only .cpp files include the generated headers; this one forward-declares.
#pragma once

#include <optional>
#include <string>

#include "runtime/core/dtype.h"
#include "runtime/core/shape.h"
#include "runtime/core/tensor.h"

namespace tensorflow {
enum DataType : int;  // protoc declares its enums with int underlying
class TensorShapeProto;
class TensorProto;
}  // namespace tensorflow

namespace ag::proto {

/// TF's DataType number of `t` (DT_FLOAT = 1, ..., DT_VARIANT = 21).
int data_type(DType t);
/// The same, as the generated enum.
inline tensorflow::DataType tf_data_type(DType t) { return static_cast<tensorflow::DataType>(data_type(t)); }
/// The dtype of DataType number `t`; nullopt for one agc has not (DT_HALF, ...).
std::optional<DType> dtype_of(int t);
/// "DT_HALF" for the numbers agc has no dtype for (for error messages).
std::string data_type_name(int t);

void write_shape(const Shape& s, tensorflow::TensorShapeProto* out);
Shape read_shape(const tensorflow::TensorShapeProto& s);

/// A Const's value as TF writes it: numeric elements in tensor_content,
/// strings in string_val.
void write_tensor(const Tensor& t, tensorflow::TensorProto* out);
/// A TensorProto as TF reads it: tensor_content, or the typed *_val field
/// whose last value repeats to fill the shape. InvalidArgumentError when the
/// content does not fit the shape; UnimplementedError for a dtype agc has not.
Tensor read_tensor(const tensorflow::TensorProto& t);

}  // namespace ag::proto
