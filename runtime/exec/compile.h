// compile(Graph, Target) -> Executable: the one way a traced graph becomes
// something that runs. A target names the optimizer's pass lists it runs, in
// order (fusion last: gradients and device placement are decided on the
// graph before it), and the kernel backend its plan takes kernels from. The
// CPU target is the one there is; the TPU emulator will be a second.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/exec/plan.h"
#include "runtime/graph/optimize/pipeline.h"

namespace ag {

class Graph;

struct Target {
  std::string name;
  Backend backend = Backend::Cpu;
  /// Pass lists run in order on a copy of the graph (graph/optimize/pipeline.h).
  std::vector<std::span<const GraphPass>> stages;
};

/// The CPU target: every simplification, then fusion, Eigen's kernels.
const Target& cpu_target();

/// A graph compiled for a target: the optimized copy it planned, and the plan.
class Executable {
 public:
  Executable() = default;
  Executable(std::shared_ptr<const Graph> optimized, Plan plan, const Target& target)
      : graph_(std::move(optimized)), plan_(std::move(plan)), target_(&target) {}

  const Plan& plan() const { return plan_; }
  /// The graph as optimized for the target (for dumps and drawings).
  const Graph& graph() const { return *graph_; }
  const Target& target() const { return *target_; }

 private:
  std::shared_ptr<const Graph> graph_;
  Plan plan_;
  const Target* target_ = nullptr;
};

/// Optimizes a copy of `g` with `target`'s stages and plans it with its
/// backend's kernels; `g` stays as traced.
Executable compile(const Graph& g, const Target& target = cpu_target());

}  // namespace ag
