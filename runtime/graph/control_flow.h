// Functional ops in the graph IR (TF's functional_ops): an If node owns
// {then, else} branch graphs, a While node owns {cond, body}, a call of a
// traced function owns that function's graph {body}. Branch and body graphs
// take their arguments as Placeholders, then the outer tensors they captured
// (Graph::captures()); the node passes those captured tensors as extra inputs:
//   If:    [cond, args..., then captures..., else captures...]
//   While: [loop vars..., cond captures..., body captures...]
//   Call:  [args..., body captures...]
// A node whose subgraphs hold a stateful op is "If"/"While"/
// "StatefulPartitionedCall" (stateful: kept in program order, never folded or
// pruned); otherwise "StatelessIf"/"StatelessWhile"/"PartitionedCall".
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/graph/graph.h"

namespace ag {

/// Adds an If node to `g`: runs `then_g` when `cond` (a bool scalar) is true,
/// else `else_g`, on `args` (one per argument placeholder of each branch).
/// Both branches' parent must be `g`. `output_names` name the outputs in
/// errors (AutoGraph's symbol names; default 'retval_'). Throws TypeError or
/// ValueError, in AutoGraph's words, when the branches' outputs disagree.
Node* add_if(Graph& g, Output cond, std::vector<Output> args, std::shared_ptr<Graph> then_g,
             std::shared_ptr<Graph> else_g, std::vector<std::string> output_names = {},
             std::string_view name = "cond");

struct WhileOptions {
  /// Loop variable names for errors (default: the body's placeholder names).
  std::vector<std::string> names;
  /// Per loop variable, a less specific shape the variable may take (empty: none).
  std::vector<std::optional<Shape>> shape_invariants;
  /// Stop after this many iterations; negative: no limit.
  int64_t maximum_iterations = -1;
  std::string name = "while";
};

/// Adds a While node to `g`: while `cond_g` (bool scalar output) holds, runs
/// `body_g`, whose outputs are the next loop variables. Both subgraphs take the
/// loop variables as their argument placeholders. Throws TypeError/ValueError
/// in AutoGraph's words when the body changes a variable's dtype or shape.
Node* add_while(Graph& g, std::vector<Output> loop_vars, std::shared_ptr<Graph> cond_g, std::shared_ptr<Graph> body_g,
                const WhileOptions& options = {});

/// Adds a call of a traced function to `g`: `body` (the function's graph,
/// a copy nested in `g`) runs on `args`, one per argument placeholder of
/// `body`; the node's outputs are `body`'s. A tf.function called while
/// another is traced becomes one (TF traces it once per signature and calls
/// it); the optimizer inlines it (optimize/inline_calls.cpp) unless its
/// graph holds control flow, and then its kernel runs the body's plan.
/// `f` is the function's concrete name ("__inference_f_12"), which a
/// SavedModel's call node names it by.
Node* add_call(Graph& g, std::vector<Output> args, std::shared_ptr<Graph> body, std::string f,
               std::string_view name = {});

/// Adds a TPUPartitionedCall to `g`: `body` (nested in `g`) runs on the
/// TPU core `device_ordinal` (TPUOrdinalSelector's output) on `args`; `f`
/// is the function's concrete name.
Node* add_device_call(Graph& g, std::vector<Output> args, Output device_ordinal, std::shared_ptr<Graph> body,
                      std::string f, std::string_view name = {});

/// Adds a BatchFunction to `g`: `body` (nested in `g`) runs on batches of
/// `in_tensors` gathered along dim 0 from concurrent calls, with the last
/// call's `captured` tensors; `options` are TF's attrs (num_batch_threads,
/// max_batch_size, batch_timeout_micros, max_enqueued_batches,
/// allowed_batch_sizes, enable_large_batch_splitting, container,
/// shared_name, batching_queue). The node's inputs are the batched tensors,
/// then the captured ones (attr "num_captured" counts those).
Node* add_batch_function(Graph& g, std::vector<Output> in_tensors, std::vector<Output> captured,
                         std::shared_ptr<Graph> body, std::string f, Attrs options, std::string_view name = {});

/// True when `g` or a graph nested in it holds a stateful node.
bool has_stateful_nodes(const Graph& g);

}  // namespace ag
