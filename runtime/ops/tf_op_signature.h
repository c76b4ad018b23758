// TF's OpDef argument lists of an op (the Input/Output lines of its
// REGISTER_OP), declared with the op's definition (OpBuilder::tf_signature):
// how a GraphDef or FunctionDef names a node's inputs and outputs
// ("MatMul:product:0") and which type and number attrs the NodeDef carries
// (T, N, ...). graph/function_def reads it to write and read TF's graphs.
//
// The declaration is TF's argument syntax, inputs and outputs apart:
//   "a: T, b: T -> product: T"          type attr T, the dtype of a and b
//   "values: N * T, axis: Tidx -> output: T"   a list of N tensors
//   "resource: resource -> value: dtype"       a fixed type (resource, int32, ...)
//   "args: Tin[] -> output: Tout[]"            type-list attrs (list(type))
//   "element_shape: shape_type = shape(element_shape)"
//       an input TF takes as a tensor and agc keeps as an attr of its node:
//       a Shape (TF's -1 for an unknown dim, a scalar -1 for an unknown
//       rank), or `= int(max_num_elements)` an integer (-1 when unset)
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/dtype.h"

namespace ag {

struct TfArg {
  std::string name;
  /// The dtype comes from this type attr ("T"), or is `type` when empty.
  std::string type_attr;
  std::optional<DType> type;
  /// A resource handle (DT_RESOURCE: agc's variable ops name their variable
  /// by attr instead).
  bool resource = false;
  /// A list of `number_attr` tensors of one type, or of types `type_list_attr`.
  std::string number_attr;
  std::string type_list_attr;

  /// An input agc's node holds as attr `attr` instead (a Shape, or an int).
  enum class AttrKind { None, Shape, Int };
  AttrKind attr_kind = AttrKind::None;
  std::string attr;

  bool is_list() const { return !number_attr.empty() || !type_list_attr.empty(); }
  bool from_attr() const { return attr_kind != AttrKind::None; }
};

struct TfSignature {
  std::vector<TfArg> inputs;
  std::vector<TfArg> outputs;
};

/// Parses a declaration as above; InternalError naming `op` when it is
/// malformed (declarations are agc's own).
TfSignature parse_tf_signature(std::string_view op, std::string_view spec);

}  // namespace ag
