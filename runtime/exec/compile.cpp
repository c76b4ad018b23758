#include "runtime/exec/compile.h"

#include "runtime/graph/graph.h"

namespace ag {

const Target& cpu_target() {
  static const Target target{"cpu", Backend::Cpu, {simplification_passes(), fusion_passes()}};
  return target;
}

Executable compile(const Graph& g, const Target& target) {
  std::shared_ptr<Graph> optimized = g.clone();
  for (std::span<const GraphPass> stage : target.stages) run_passes(*optimized, stage);
  Plan plan = compile_plan(*optimized, target.backend);
  return Executable(std::move(optimized), std::move(plan), target);
}

}  // namespace ag
