#include "runtime/tpu/bfloat16_checks.h"

#include <set>

#include "runtime/core/error.h"
#include "runtime/core/proto/saved_model.pb.h"

namespace ag::tpu {
namespace {

bool has_bfloat16(const tensorflow::NodeDef& nd) {
  for (const auto& [key, value] : nd.attr()) {
    if (value.type() == tensorflow::DT_BFLOAT16) return true;
    for (int t : value.list().type()) {
      if (t == tensorflow::DT_BFLOAT16) return true;
    }
  }
  return false;
}

}  // namespace

std::vector<std::string> bfloat16_scope(const ConverterOptions& options, const ModelFunctions& model,
                                        const std::vector<std::string>& tpu_functions,
                                        const tensorflow::MetaGraphDef& meta) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  if (options.bfloat16_optimization_options().scope() == BFloat16OptimizationOptions::ALL) {
    for (const auto& f : meta.graph_def().library().function()) out.push_back(f.signature().name());
    return out;
  }
  for (const std::string& f : tpu_functions) {
    for (std::string& g : model.reachable(f)) {
      if (seen.insert(g).second) out.push_back(std::move(g));
    }
  }
  return out;
}

std::vector<std::string> check_bfloat16(const ConverterOptions& options, const ModelFunctions& model,
                                        const std::vector<std::string>& scope) {
  std::set<std::string> ops, bf16_ops;
  for (const std::string& f : scope) {
    const tensorflow::FunctionDef* def = model.find(f);
    if (def == nullptr) continue;
    for (const auto& nd : def->node_def()) {
      ops.insert(nd.op());
      if (has_bfloat16(nd)) bf16_ops.insert(nd.op());
    }
  }
  const auto& b = options.bfloat16_optimization_options();
  if (!bf16_ops.empty() && !b.skip_safety_checks()) {
    std::string names;
    for (const std::string& op : bf16_ops) names += (names.empty() ? "" : ", ") + op;
    throw FailedPreconditionError("bfloat16 optimization: the model already contains bfloat16 ops (" + names +
                                  "); set skip_safety_checks to proceed");
  }
  std::vector<std::string> warnings;
  for (const std::string& name : b.filterlist()) {
    if (!ops.count(name)) {
      warnings.push_back("bfloat16_optimization_options.filterlist: no op of type '" + name +
                         "' is in the optimized functions; ignored");
    }
  }
  return warnings;
}

}  // namespace ag::tpu
