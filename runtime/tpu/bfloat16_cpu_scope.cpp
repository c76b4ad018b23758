#include "runtime/tpu/bfloat16_cpu_scope.h"

#include "runtime/core/proto_convert.h"
#include "runtime/graph/node_def_format.h"
#include "runtime/tpu/function_def_edit.h"

namespace ag::tpu {
namespace {

using tensorflow::FunctionDef;
using tensorflow::NodeDef;

/// `ref` (a float32 tensor of `f`) read through a Cast to bfloat16 and back,
/// the casts named after it ("unstack/output_1/bfloat16/Cast_0").
void round_value(FunctionDef& f, const std::string& ref) {
  std::string prefix = ref;
  if (size_t c = prefix.find(':'); c != std::string::npos) {
    prefix[c] = '/';
    prefix[prefix.find(':', c)] = '_';
  }
  NodeEmitter e(f, prefix + "/bfloat16");
  std::string down = e.cast(ref, DType::Float32, DType::BFloat16);
  std::string up = e.cast(down, DType::BFloat16, DType::Float32);
  replace_uses(f, ref, up, node_of(down));
}

/// The float32 outputs of `n`, as FunctionDefs name them ("node:arg:i").
std::vector<std::string> float_outputs(const NodeDef& n, const OpDef& op) {
  std::vector<std::string> out;
  if (!op.tf_signature) return out;
  for (const TfArg& a : op.tf_signature->outputs) {
    std::vector<tensorflow::DataType> types;
    auto attr = [&](const std::string& name) { return n.attr().find(name); };
    if (!a.type_list_attr.empty()) {
      if (auto t = attr(a.type_list_attr); t != n.attr().end()) {
        for (int type : t->second.list().type()) types.push_back(static_cast<tensorflow::DataType>(type));
      }
    } else {
      tensorflow::DataType type = tensorflow::DT_INVALID;
      if (a.type) {
        type = proto::tf_data_type(*a.type);
      } else if (auto t = attr(a.type_attr); !a.type_attr.empty() && t != n.attr().end()) {
        type = t->second.type();
      }
      int64_t count = 1;
      if (auto c = attr(a.number_attr); !a.number_attr.empty()) count = c == n.attr().end() ? 0 : c->second.i();
      types.assign(static_cast<size_t>(count), type);
    }
    for (size_t i = 0; i < types.size(); ++i) {
      if (types[i] == tensorflow::DT_FLOAT) out.push_back(n.name() + ":" + a.name + ":" + std::to_string(i));
    }
  }
  return out;
}

bool passes_values(OpRole role) {
  switch (role) {
    case OpRole::Call:
    case OpRole::DeviceCall:
    case OpRole::If:
    case OpRole::While:
    case OpRole::Batched:
    case OpRole::Identity: return true;
    default: return false;
  }
}

}  // namespace

void round_to_bfloat16(tensorflow::MetaGraphDef& meta, const std::vector<std::string>& functions) {
  for (const std::string& name : functions) {
    FunctionDef& f = function_named(meta, name);
    std::vector<std::string> values;
    for (const auto& a : f.signature().input_arg()) {
      if (a.type() == tensorflow::DT_FLOAT) values.push_back(a.name());
    }
    for (const NodeDef& n : f.node_def()) {
      const OpDef* op = op_of(n);
      if (op == nullptr || passes_values(op->role())) continue;
      for (std::string& ref : float_outputs(n, *op)) values.push_back(std::move(ref));
    }
    for (const std::string& ref : values) round_value(f, ref);
  }
}

}  // namespace ag::tpu
