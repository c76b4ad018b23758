// Builders of If and While nodes (see control_flow.h). The shape rules that
// check the branches and bodies run inside add_node and read the subgraphs
// from the SubgraphScope set here.
#include "runtime/exec/control_flow.h"

#include "runtime/core/error.h"
#include "runtime/exec/subgraph_context.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

void check_parent(const Graph& g, const Graph& sub, const char* what) {
  if (sub.parent() != &g) {
    throw InvalidArgumentError(std::string("the ") + what + " graph '" + sub.name() + "' is not nested in graph '" +
                               g.name() + "'");
  }
}

void append_captures(const Graph& sub, std::vector<Output>& inputs) {
  for (const auto& [outer, inner] : sub.captures()) inputs.push_back(outer);
}

}  // namespace

bool has_stateful_nodes(const Graph& g) {
  for (const auto& n : g.nodes()) {
    if (n->stateful()) return true;
    for (const auto& sub : n->subgraphs) {
      if (has_stateful_nodes(*sub)) return true;
    }
  }
  return false;
}

Node* add_if(Graph& g, Output cond, std::vector<Output> args, std::shared_ptr<Graph> then_g,
             std::shared_ptr<Graph> else_g, std::vector<std::string> output_names, std::string_view name) {
  check_parent(g, *then_g, "then");
  check_parent(g, *else_g, "else");
  std::vector<Output> inputs;
  inputs.reserve(1 + args.size() + then_g->captures().size() + else_g->captures().size());
  inputs.push_back(cond);
  inputs.insert(inputs.end(), args.begin(), args.end());
  append_captures(*then_g, inputs);
  append_captures(*else_g, inputs);
  Attrs attrs;
  if (!output_names.empty()) attrs.set("output_names", std::move(output_names));
  bool stateful = has_stateful_nodes(*then_g) || has_stateful_nodes(*else_g);
  std::vector<std::shared_ptr<Graph>> subgraphs{std::move(then_g), std::move(else_g)};
  SubgraphScope scope(subgraphs);
  const OpDef& op = OpRegistry::global().get(stateful ? op::If : op::StatelessIf);
  return g.add_node(op, std::move(inputs), std::move(attrs), name, subgraphs);
}

Node* add_while(Graph& g, std::vector<Output> loop_vars, std::shared_ptr<Graph> cond_g, std::shared_ptr<Graph> body_g,
                const WhileOptions& options) {
  check_parent(g, *cond_g, "cond");
  check_parent(g, *body_g, "body");
  std::vector<Output> inputs = std::move(loop_vars);
  append_captures(*cond_g, inputs);
  append_captures(*body_g, inputs);
  Attrs attrs;
  if (!options.names.empty()) attrs.set("loop_var_names", options.names);
  for (size_t i = 0; i < options.shape_invariants.size(); ++i) {
    if (options.shape_invariants[i]) attrs.set("shape_invariant_" + std::to_string(i), *options.shape_invariants[i]);
  }
  if (options.maximum_iterations >= 0) attrs.set("maximum_iterations", options.maximum_iterations);
  bool stateful = has_stateful_nodes(*cond_g) || has_stateful_nodes(*body_g);
  std::vector<std::shared_ptr<Graph>> subgraphs{std::move(cond_g), std::move(body_g)};
  SubgraphScope scope(subgraphs);
  const OpDef& op = OpRegistry::global().get(stateful ? op::While : op::StatelessWhile);
  return g.add_node(op, std::move(inputs), std::move(attrs), options.name, subgraphs);
}

}  // namespace ag
