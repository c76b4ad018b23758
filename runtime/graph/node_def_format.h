// A node as TensorFlow's NodeDef spells it, shared by graph/function_def's
// writer and reader: how a node's tensors fall on its op's TF argument lists
// (ops/tf_op_signature.h), agc's attribute values as TF's AttrValue and back,
// and an argument's static shape as a FunctionDef records it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "runtime/ops/attrs.h"
#include "runtime/ops/op_def.h"
#include "runtime/ops/tf_op_signature.h"

namespace tensorflow {
class AttrValue;
class FunctionDef;
}  // namespace tensorflow

namespace ag::node_def {

/// Where each of an arg list's args starts among a node's tensors, and how
/// many it takes: a list takes what the single args leave when it is the
/// only one, else its count is the node's number attr. `skip_resources`:
/// resource args take no tensor (agc names the variable by attr). An arg
/// agc holds as an attr (TfArg::from_attr) takes none either.
struct Span {
  size_t start = 0, count = 0;
};
std::vector<Span> spans(const std::vector<TfArg>& args, size_t n_tensors, const Attrs& attrs, const std::string& op,
                        bool skip_resources);

/// The op's TF argument lists; UnimplementedError naming the op when it has
/// none declared.
const TfSignature& signature_of(const OpDef& op);

/// The constant tensor TF's input `a` is, from the attr agc holds it in.
Tensor attr_input_value(const TfArg& a, const Attrs& attrs);
/// The attr agc holds for TF's input `a`, from that input's constant value
/// `t`; InvalidArgumentError naming op and input when `t` is no such value.
AttrValue attr_from_input(const TfArg& a, const Tensor& t, const std::string& op);

void write_attr(const AttrValue& v, tensorflow::AttrValue* out);
/// An attribute as agc holds it; nullopt for kinds agc's ops never read
/// (type lists, function names, placeholders).
std::optional<AttrValue> read_attr(const tensorflow::AttrValue& v);

/// Argument `i`'s static shape (its "_output_shapes" arg attr), if recorded.
std::optional<Shape> arg_output_shape(const tensorflow::FunctionDef& f, int i);

}  // namespace ag::node_def
