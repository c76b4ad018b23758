// A tf.function called eagerly while a GradientTape records (GRADIENTS.md
// 1.5). TF records the call as one op whose backward differentiates the
// function's graph. agc runs such a call's graph op by op instead, through
// apply_op, so the tape records each op: the gradient is exact, higher
// derivatives work, and nothing runs twice (no forward is recomputed for
// the backward). The compiled plan serves every call no tape watches.
//
// A graph holding If or While nodes cannot run op by op (their bodies are
// not ops applied one at a time): such a call runs the forward half of a
// split of its graph, recorded as one entry whose backward runs the other
// half (TF's scheme for every call). The split is built once per traced
// graph: the forward graph is the traced one plus, as extra outputs, the
// intermediates the gradient reads; the backward graph takes those and the
// outputs' gradients and returns the inputs' and variables' gradients.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runtime/exec/compile.h"
#include "runtime/graph/tracing.h"

namespace ag {

class Graph;

/// The outputs of `graph` (a traced function) on `inputs` (one per input
/// placeholder), run op by op so that recording tapes see every op (a call
/// of another function runs that function's ops); nullopt when the graph has
/// nodes that cannot run that way (control flow, here or in a called function).
std::optional<std::vector<TensorHandle>> run_graph_taped(const Graph& graph, std::span<const TensorHandle> inputs);

/// A traced function's graph split into a forward and a backward executable.
class SplitGradient : public std::enable_shared_from_this<SplitGradient> {
 public:
  /// Builds the split of `traced` (left unchanged); `name` names the call in errors.
  SplitGradient(const Graph& traced, std::string name);

  /// Runs the forward half on `inputs` (one per input placeholder) and
  /// records the call on the recording tapes (the entry keeps this split
  /// alive); returns the function's outputs.
  std::vector<TensorHandle> call(std::span<const TensorHandle> inputs) const;

 private:
  /// The inputs' and variables' gradients from the outputs' (`grads`) and
  /// what the forward half returned (`results`: outputs, then saved tensors).
  std::vector<std::optional<TensorHandle>> run_backward(const std::vector<Tensor>& results,
                                                        std::span<const std::optional<TensorHandle>> grads) const;

  std::string name_;
  size_t num_outputs_ = 0;
  /// The outputs the backward takes a gradient for (float ones).
  std::vector<size_t> seeded_;
  /// Per input, then per variable read: the backward output holding its gradient, or -1 (None).
  std::vector<int> grad_index_;
  std::vector<std::pair<int64_t, DType>> variables_;
  Executable forward_;
  Executable backward_;
};

}  // namespace ag
