// What a TF1 Session runs: the part of a graph that given fetches need,
// with given tensors fed. TF's Session prunes its graph per run the same
// way (DirectSession's "executor for (feeds, fetches, targets)"): only the
// nodes the fetched tensors and target operations reach through inputs and
// control inputs run, and a fed tensor cuts the walk there.
#pragma once

#include <memory>
#include <span>

#include "runtime/graph/graph.h"

namespace ag {

/// A new graph whose argument placeholders are `feeds` (in order), whose
/// outputs are `fetches` (in order), holding copies of the nodes of `g`
/// that the fetches and `targets` need. InvalidArgumentError (TF's "You must
/// feed a value for placeholder tensor ...") when a needed placeholder is not fed.
std::shared_ptr<Graph> extract_subgraph(const Graph& g, std::span<const Output> feeds,
                                        std::span<const Output> fetches, std::span<Node* const> targets);

}  // namespace ag
