// TF's error for a shape function that fails while a node is added to a
// graph: TF builds the node, runs the op's shape function, and Python's
// ops.py turns the InvalidArgumentError into a ValueError whose message is the
// shape function's, followed by the node as its NodeDef summary reads:
//   Dimensions must be equal, but are 3 and 4 for '{{node MatMul}} =
//   MatMul[T=DT_FLOAT, transpose_a=false, transpose_b=false](x, y)' with input
//   shapes: [4,3], [4,2].
// (one line). Graph::add_node is the one place that formats it.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "runtime/graph/graph.h"

namespace ag {

/// What the failing node would have been: its name, op, inputs, attributes,
/// explicit control inputs and device, and the shape rule's context (which
/// input values it asked for).
struct FailedNode {
  std::string_view name;
  const OpDef& op;
  std::span<const Output> inputs;
  const Attrs& attrs;
  std::span<Node* const> control_inputs;
  std::string_view device;
  const InferContext& ctx;
};

/// `message` + " for '<NodeDef summary>' with input shapes: ...", as TF's
/// InferenceContext::AttachContext words it (the values of the inputs the
/// rule read, when known, as " and with computed input tensors: input[1] =
/// <5>"), ending with a period.
std::string shape_function_error(std::string_view message, const FailedNode& node);

/// TF's SummarizeNodeDef: "{{node NAME}} = OP[a=1, b=DT_FLOAT](in, in_1:1, ^ctrl)",
/// attributes sorted by name.
std::string summarize_node(const FailedNode& node);

}  // namespace ag
