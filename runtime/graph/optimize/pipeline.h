// The optimizer as named, ordered pass lists (as the transpiler's pipeline
// is): a target compiles a graph by running its lists in order (compile.h).
// Each list runs on the graphs nested in a node before the graph itself, so
// an If is lowered once its branches are as small as they get and a loop
// body is fused before its loop is compiled.
//
// Environment switches, read once per process:
//   AG_VERIFY_GRAPHS=1        verify_graph() after every pass (the test suite sets it)
//   AG_DUMP_GRAPH_AFTER=NAME  print each graph a pass named NAME changed ("all": any pass), to stderr
//   AG_TIME_GRAPH_PASSES=1    time each pass; the totals go to stderr at exit
#pragma once

#include <cstdio>
#include <span>
#include <string>

namespace ag {

class Graph;

struct GraphPass {
  const char* name;
  void (*run)(Graph& g);
};

/// What the environment asks of a pass run (see above).
struct PassOptions {
  bool verify = false;
  std::string dump_after;  // a pass name, "all", or empty
  bool time = false;
  std::FILE* log = stderr;  // where dumps go
  static const PassOptions& from_environment();
};

/// Runs `passes`, in order, on every graph nested in `g` and then on `g`.
void run_passes(Graph& g, std::span<const GraphPass> passes, const PassOptions& options = PassOptions::from_environment());

/// The rewrites that simplify a graph, in order (optimize.cpp gives the
/// reason for each position): canonicalization, identity removal, constant
/// folding, If-conversion, CSE, row-product hoisting.
std::span<const GraphPass> simplification_passes();
/// Fusion, the last graph stage (differentiation and device placement see
/// the graph before it): pruning, scalar, MatMul and elementwise fusion,
/// pruning.
std::span<const GraphPass> fusion_passes();

}  // namespace ag
