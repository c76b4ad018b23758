#include "runtime/tpu/function_def_edit.h"

#include <algorithm>

#include "runtime/core/error.h"
#include "runtime/core/proto_convert.h"
#include "runtime/graph/node_def_format.h"
#include "runtime/ops/registry.h"

namespace ag::tpu {

using tensorflow::FunctionDef;
using tensorflow::NodeDef;

bool is_control(const std::string& ref) { return !ref.empty() && ref[0] == '^'; }
bool is_arg(const std::string& ref) { return !is_control(ref) && ref.find(':') == std::string::npos; }
std::string node_of(const std::string& ref) { return ref.substr(is_control(ref) ? 1 : 0, ref.find(':')); }

const OpDef* op_of(const NodeDef& n) { return OpRegistry::global().find(n.op()); }

const NodeDef* find_node(const FunctionDef& f, const std::string& name) {
  for (const NodeDef& n : f.node_def()) {
    if (n.name() == name) return &n;
  }
  return nullptr;
}

NodeDef* find_node(FunctionDef& f, const std::string& name) {
  for (NodeDef& n : *f.mutable_node_def()) {
    if (n.name() == name) return &n;
  }
  return nullptr;
}

int arg_index(const FunctionDef& f, const std::string& name) {
  for (int i = 0; i < f.signature().input_arg_size(); ++i) {
    if (f.signature().input_arg(i).name() == name) return i;
  }
  return -1;
}

std::string output_ref(const NodeDef& n) {
  const OpDef* op = op_of(n);
  if (op == nullptr) throw InternalError("output_ref: agc has no op " + n.op());
  return n.name() + ":" + node_def::signature_of(*op).outputs.at(0).name + ":0";
}

int uses(const FunctionDef& f, const std::string& ref) {
  int count = 0;
  for (const NodeDef& n : f.node_def()) count += static_cast<int>(std::count(n.input().begin(), n.input().end(), ref));
  for (const auto& [name, r] : f.ret()) count += r == ref;
  return count;
}

const NodeDef* sole_reader(const FunctionDef& f, const std::string& ref) {
  if (uses(f, ref) != 1) return nullptr;
  for (const NodeDef& n : f.node_def()) {
    if (std::count(n.input().begin(), n.input().end(), ref) == 1) return &n;
  }
  return nullptr;  // a result reads it
}

void replace_uses(FunctionDef& f, const std::string& from, const std::string& to, const std::string& except) {
  for (NodeDef& n : *f.mutable_node_def()) {
    if (n.name() == except) continue;
    for (std::string& in : *n.mutable_input()) {
      if (in == from) in = to;
    }
  }
  for (auto& [name, r] : *f.mutable_ret()) {
    if (r == from) r = to;
  }
}

void remove_node(FunctionDef& f, const std::string& name) {
  auto* nodes = f.mutable_node_def();
  for (int i = 0; i < nodes->size(); ++i) {
    if (nodes->Get(i).name() == name) {
      nodes->DeleteSubrange(i, 1);
      return;
    }
  }
}

void remove_if_unused(FunctionDef& f, const std::string& name) {
  const NodeDef* n = find_node(f, name);
  if (n == nullptr) return;
  for (const NodeDef& other : f.node_def()) {
    for (const std::string& in : other.input()) {
      if (!is_arg(in) && node_of(in) == name) return;
    }
  }
  for (const auto& [key, r] : f.ret()) {
    if (!is_arg(r) && node_of(r) == name) return;
  }
  const OpDef* op = op_of(*n);
  if (op == nullptr || !(op->role() == OpRole::Constant || op->role() == OpRole::Identity ||
                         op->traits.reads_variable || op->tpu.quantization == QuantRole::FakeQuant)) {
    return;
  }
  std::vector<std::string> inputs;
  for (const std::string& in : n->input()) {
    if (!is_arg(in)) inputs.push_back(node_of(in));
  }
  remove_node(f, name);
  for (const std::string& in : inputs) remove_if_unused(f, in);
}

const FunctionDef* find_function(const tensorflow::MetaGraphDef& meta, const std::string& name) {
  for (const FunctionDef& f : meta.graph_def().library().function()) {
    if (f.signature().name() == name) return &f;
  }
  return nullptr;
}

FunctionDef& function_named(tensorflow::MetaGraphDef& meta, const std::string& name) {
  for (FunctionDef& f : *meta.mutable_graph_def()->mutable_library()->mutable_function()) {
    if (f.signature().name() == name) return f;
  }
  throw InternalError("no function " + name + " in the SavedModel's library");
}

bool attr_true(const NodeDef& n, const char* attr) {
  auto t = n.attr().find(attr);
  return t != n.attr().end() && t->second.b();
}

bool attr_is(const NodeDef& n, const char* attr, DType t) {
  auto a = n.attr().find(attr);
  return a != n.attr().end() && proto::dtype_of(a->second.type()) == t;
}

tensorflow::AttrValue type_attr(DType t) {
  tensorflow::AttrValue v;
  v.set_type(proto::tf_data_type(t));
  return v;
}

std::string NodeEmitter::op(const std::string& type, const std::vector<std::string>& inputs,
                            const std::map<std::string, tensorflow::AttrValue>& attrs, const std::string& name) {
  NodeDef* n = f_.add_node_def();
  n->set_name(prefix_ + "/" + (name.empty() ? type : name) + "_" + std::to_string(next_++));
  n->set_op(type);
  for (const std::string& in : inputs) n->add_input(in);
  for (const auto& [k, v] : attrs) (*n->mutable_attr())[k] = v;
  return output_ref(*n);
}

std::string NodeEmitter::constant(const Tensor& t, const std::string& name) {
  tensorflow::AttrValue value;
  proto::write_tensor(t, value.mutable_tensor());
  return op("Const", {}, {{"value", value}, {"dtype", type_attr(t.dtype())}}, name);
}

std::string NodeEmitter::binary(const std::string& type, const std::string& a, const std::string& b, DType t) {
  return op(type, {a, b}, {{"T", type_attr(t)}});
}

std::string NodeEmitter::unary(const std::string& type, const std::string& a, DType t) {
  return op(type, {a}, {{"T", type_attr(t)}});
}

std::string NodeEmitter::cast(const std::string& a, DType from, DType to) {
  tensorflow::AttrValue truncate;
  truncate.set_b(false);
  return op("Cast", {a}, {{"SrcT", type_attr(from)}, {"DstT", type_attr(to)}, {"Truncate", truncate}});
}

std::string NodeEmitter::reshape(const std::string& a, const std::string& shape, DType t) {
  return op("Reshape", {a, shape}, {{"T", type_attr(t)}, {"Tshape", type_attr(DType::Int32)}});
}

}  // namespace ag::tpu
