// Reading and editing a FunctionDef's nodes in place, for the converter's
// rewrites on protos (tpu/quantization): FunctionDef tensor references
// ("arg", "node:output:i", "^node"), finding and removing nodes, redirecting
// reads, and NodeEmitter, which adds TF nodes under one name prefix.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "runtime/core/dtype.h"
#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/core/tensor.h"
#include "runtime/ops/op_def.h"

namespace ag::tpu {

bool is_control(const std::string& ref);
/// A function argument's name (no ':').
bool is_arg(const std::string& ref);
/// The node a reference reads ("MatMul" of "MatMul:product:0" or "^MatMul").
std::string node_of(const std::string& ref);

/// The op of a node, or null when agc does not know it.
const OpDef* op_of(const tensorflow::NodeDef& n);
const tensorflow::NodeDef* find_node(const tensorflow::FunctionDef& f, const std::string& name);
tensorflow::NodeDef* find_node(tensorflow::FunctionDef& f, const std::string& name);
/// The index of argument `name`, or -1.
int arg_index(const tensorflow::FunctionDef& f, const std::string& name);
/// Output 0 of node `n` as FunctionDefs name it ("MatMul:product:0").
std::string output_ref(const tensorflow::NodeDef& n);
/// How many node inputs and results read `ref`.
int uses(const tensorflow::FunctionDef& f, const std::string& ref);
/// The one node reading `ref`, when nothing else (another node, a result) does.
const tensorflow::NodeDef* sole_reader(const tensorflow::FunctionDef& f, const std::string& ref);
/// Every read of `from` (node inputs, results) reads `to` instead, but in
/// node `except`.
void replace_uses(tensorflow::FunctionDef& f, const std::string& from, const std::string& to,
                  const std::string& except = "");
void remove_node(tensorflow::FunctionDef& f, const std::string& name);
/// Removes node `name` when nothing reads it any more, and then the
/// constants, identities, variable reads and fake quantizations that fed it,
/// as freezing leaves them.
void remove_if_unused(tensorflow::FunctionDef& f, const std::string& name);
/// The function `name` of `meta`'s library, or null.
const tensorflow::FunctionDef* find_function(const tensorflow::MetaGraphDef& meta, const std::string& name);
/// The function `name` of `meta`'s library; InternalError if there is none.
tensorflow::FunctionDef& function_named(tensorflow::MetaGraphDef& meta, const std::string& name);

bool attr_true(const tensorflow::NodeDef& n, const char* attr);
/// True when type attr `attr` of `n` is `t`.
bool attr_is(const tensorflow::NodeDef& n, const char* attr, DType t);
tensorflow::AttrValue type_attr(DType t);

/// Adds nodes to a FunctionDef under one name prefix; each call returns the
/// added node's output 0.
class NodeEmitter {
 public:
  NodeEmitter(tensorflow::FunctionDef& f, std::string prefix) : f_(f), prefix_(std::move(prefix)) {}

  /// A node of op `type`, named prefix/name_i (`name` defaults to the type).
  std::string op(const std::string& type, const std::vector<std::string>& inputs,
                 const std::map<std::string, tensorflow::AttrValue>& attrs, const std::string& name = "");
  std::string constant(const Tensor& t, const std::string& name = "Const");
  std::string binary(const std::string& type, const std::string& a, const std::string& b, DType t);
  std::string unary(const std::string& type, const std::string& a, DType t);
  std::string cast(const std::string& a, DType from, DType to);
  std::string reshape(const std::string& a, const std::string& shape, DType t);

 private:
  tensorflow::FunctionDef& f_;
  std::string prefix_;
  int next_ = 0;
};

}  // namespace ag::tpu
