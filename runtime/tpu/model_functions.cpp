#include "runtime/tpu/model_functions.h"

#include <algorithm>
#include <functional>

#include "runtime/core/proto/saved_model.pb.h"

namespace ag::tpu {
namespace {

/// The functions a node names (f, then_branch, else_branch, cond, body), in
/// attr-name order so the result does not depend on the map's order.
std::vector<std::string> functions_named(const tensorflow::NodeDef& nd) {
  std::map<std::string, std::string> by_attr;
  for (const auto& [key, value] : nd.attr()) {
    if (value.value_case() == tensorflow::AttrValue::kFunc) by_attr[key] = value.func().name();
  }
  std::vector<std::string> out;
  for (const auto& [key, name] : by_attr) out.push_back(name);
  return out;
}

}  // namespace

ModelFunctions::ModelFunctions(const tensorflow::MetaGraphDef& meta) : meta_(meta) {
  for (const auto& f : meta.graph_def().library().function()) functions_[f.signature().name()] = &f;
  for (const auto& [name, def] : functions_) {
    std::vector<std::string>& out = callees_[name];
    for (const auto& nd : def->node_def()) {
      for (std::string& c : functions_named(nd)) {
        if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(std::move(c));
      }
    }
  }
  // A signature's function: its TensorInfo names "<call node>:<i>".
  std::map<std::string, std::string> node_function;
  for (const auto& nd : meta.graph_def().node()) {
    std::vector<std::string> f = functions_named(nd);
    if (!f.empty()) node_function[nd.name()] = f[0];
  }
  for (const auto& [key, sig] : meta.signature_def()) {
    for (const auto& [out, info] : sig.outputs()) {
      std::string node = info.name().substr(0, info.name().find(':'));
      if (auto it = node_function.find(node); it != node_function.end()) signatures_[key] = it->second;
    }
  }
}

const tensorflow::FunctionDef* ModelFunctions::find(const std::string& name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? nullptr : it->second;
}

const std::vector<std::string>& ModelFunctions::callees(const std::string& f) const {
  static const std::vector<std::string> none;
  auto it = callees_.find(f);
  return it == callees_.end() ? none : it->second;
}

std::vector<std::string> ModelFunctions::reachable(const std::string& f) const {
  std::vector<std::string> out;
  std::set<std::string> seen;
  std::function<void(const std::string&)> visit = [&](const std::string& g) {
    if (!seen.insert(g).second) return;
    out.push_back(g);
    for (const std::string& c : callees(g)) visit(c);
  };
  visit(f);
  return out;
}

std::vector<std::string> ModelFunctions::aliased(const std::string& alias) const {
  std::vector<std::string> out;
  for (const auto& [name, a] : meta_.meta_info_def().function_aliases()) {
    if (a == alias) out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string ModelFunctions::alias_of(const std::string& f) const {
  auto it = meta_.meta_info_def().function_aliases().find(f);
  return it == meta_.meta_info_def().function_aliases().end() ? std::string() : it->second;
}

std::string ModelFunctions::signature_function(const std::string& key) const {
  auto it = signatures_.find(key);
  return it == signatures_.end() ? std::string() : it->second;
}

std::vector<std::string> ModelFunctions::jit_compiled() const {
  std::set<std::string> out;
  for (const auto& node : meta_.object_graph_def().nodes()) {
    if (node.has_function() && node.function().function_spec().jit_compile() == tensorflow::FunctionSpec::ON) {
      for (const std::string& c : node.function().concrete_functions()) out.insert(c);
    }
  }
  for (const auto& [name, def] : functions_) {
    auto it = def->attr().find("_XlaMustCompile");
    if (it != def->attr().end() && it->second.b()) out.insert(name);
  }
  return {out.begin(), out.end()};
}

std::vector<std::string> ModelFunctions::served() const {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& [key, f] : signatures_) {
    for (std::string& g : reachable(f)) {
      if (seen.insert(g).second) out.push_back(std::move(g));
    }
  }
  return out;
}

}  // namespace ag::tpu
