#include "runtime/tpu/model_cost.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "runtime/core/error.h"
#include "runtime/core/proto/saved_model.pb.h"
#include "runtime/core/proto_convert.h"
#include "runtime/core/variable.h"
#include "runtime/graph/function_def.h"
#include "runtime/ops/registry.h"

namespace ag::tpu {
namespace {

double elements(const Shape& s) {
  if (!s.rank_known()) return 1;
  double n = 1;
  for (int64_t d : s.dims()) n *= d < 0 ? 1 : static_cast<double>(d);
  return n;
}

bool free_op(const OpDef& op) {
  switch (op.role()) {
    case OpRole::Argument:
    case OpRole::Constant:
    case OpRole::Identity: return true;
    default: break;
  }
  return op.cost.kind == CostKind::Free || op.cost.kind == CostKind::ControlFlow || op.traits.semantic == OpSemantic::Cast;
}

int64_t node_cost(const Node& n) {
  if (free_op(*n.op)) return 0;
  double w = 0;
  if (n.op->cost.kind == CostKind::Contraction && n.op->cost.contraction) {
    ContractionDims d = with_context(n, [&](const InferContext& c) { return n.op->cost.contraction(c, n.outputs); });
    auto known = [](double x) { return x < 0 ? 1.0 : x; };
    w = 2 * known(d.b) * known(d.m) * known(d.k) * known(d.n);
  } else {
    for (const Output& in : n.inputs) w = std::max(w, elements(in.spec().shape));
    for (const TensorSpec& out : n.outputs) w = std::max(w, elements(out.shape));
  }
  return 1 + static_cast<int64_t>(w / 1000);
}

/// Each function's own cost, read as graphs: `g` is function `name`; the
/// graphs its nodes hold are the functions they name.
void cost_graph(const Graph& g, const std::string& name, std::map<std::string, int64_t>& costs) {
  if (costs.count(name)) return;
  int64_t total = 0;
  for (const auto& n : g.nodes()) {
    total += node_cost(*n);
    std::vector<std::string> names;
    if (n->attrs.has("f")) names.push_back(n->attrs.get<std::string>("f"));
    if (n->attrs.has("branches")) names = n->attrs.get<std::vector<std::string>>("branches");
    for (size_t i = 0; i < n->subgraphs.size() && i < names.size(); ++i) cost_graph(*n->subgraphs[i], names[i], costs);
  }
  costs[name] = total;
}

/// A function agc cannot read: 1 per node whose op is not known to be free.
int64_t proto_cost(const tensorflow::FunctionDef& def) {
  int64_t total = 0;
  for (const auto& nd : def.node_def()) {
    const OpDef* op = OpRegistry::global().find(nd.op());
    if (op == nullptr || !free_op(*op)) ++total;
  }
  return total;
}

}  // namespace

ModelCost model_cost(const tensorflow::MetaGraphDef& meta, const ModelFunctions& model,
                     const std::vector<TpuSelection>& selected) {
  std::map<std::string, int64_t> costs;
  FunctionDefReader reader(std::make_shared<tensorflow::FunctionDefLibrary>(meta.graph_def().library()));
  const auto& objects = meta.object_graph_def();
  for (const auto& [key, sig] : meta.signature_def()) {
    std::string w = model.signature_function(key);
    if (w.empty() || costs.count(w)) continue;
    // The signature's variables, as their saved dtypes and shapes.
    std::vector<std::shared_ptr<Variable>> vars;
    std::vector<int64_t> ids;
    if (auto it = objects.concrete_functions().find(w); it != objects.concrete_functions().end()) {
      for (int node : it->second.bound_inputs()) {
        if (node < 0 || node >= objects.nodes_size() || !objects.nodes(node).has_variable()) continue;
        const auto& sv = objects.nodes(node).variable();
        std::optional<DType> t = proto::dtype_of(sv.dtype());
        if (!t) continue;
        vars.push_back(Variable::create_uninitialized(*t, proto::read_shape(sv.shape()), sv.name()));
        ids.push_back(vars.back()->id());
      }
    }
    try {
      cost_graph(*reader.read(w, ids), w, costs);
    } catch (const Error&) {
      // An op agc lacks (or a function it cannot read): costed from the protos.
      for (const std::string& f : model.reachable(w)) {
        if (!costs.count(f) && model.find(f)) costs[f] = proto_cost(*model.find(f));
      }
    }
  }
  ModelCost out;
  for (const TpuSelection& s : selected) out.tpu.push_back({s.report_name, 0});
  for (const std::string& f : model.served()) {
    int64_t c = costs.count(f) ? costs[f] : (model.find(f) ? proto_cost(*model.find(f)) : 0);
    size_t charged = selected.size();
    for (size_t i = 0; i < selected.size() && charged == selected.size(); ++i) {
      for (const std::string& t : selected[i].functions) {
        std::vector<std::string> r = model.reachable(t);
        if (std::find(r.begin(), r.end(), f) != r.end()) charged = i;
      }
    }
    if (charged == selected.size()) {
      out.cpu += c;
    } else {
      out.tpu[charged].cost += c;
    }
  }
  return out;
}

}  // namespace ag::tpu
