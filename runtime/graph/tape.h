// GradientTape's recording (GRADIENTS.md section 1.1). A tape records an op
// when it is active on this thread, in the graph the op goes to (an eager
// tape sees eager ops; a tape made inside a tf.function sees that trace's
// nodes), some input is watched, and that input's dtype is trainable (float
// types). The outputs of a recorded op are watched in turn, so recording
// spreads downstream. apply_op() calls record_op(); a tf.function call or a
// custom gradient records itself with its own backward function.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <span>
#include <unordered_set>
#include <vector>

#include "runtime/graph/tracing.h"
#include "runtime/ops/grad_context.h"

namespace ag {

/// A tensor's identity on a tape: a graph output (node, index), an eager
/// tensor (its handle's id), or a variable (its id).
struct TensorKey {
  const void* node = nullptr;
  uint64_t n = 0;
  friend bool operator==(const TensorKey&, const TensorKey&) = default;
};
struct TensorKeyHash {
  size_t operator()(const TensorKey& k) const {
    return std::hash<const void*>()(k.node) ^ (std::hash<uint64_t>()(k.n) * 0x9e3779b97f4a7c15ULL);
  }
};
TensorKey key_of(const TensorHandle& t);
TensorKey variable_key(int64_t variable_id);

/// The backward of a recorded call (a tf.function, a custom gradient): the
/// gradients of its outputs (nullopt: none) to one per differentiable input.
using CallBackward =
    std::function<std::vector<std::optional<TensorHandle>>(std::span<const std::optional<TensorHandle>>)>;

/// One recorded op or call: what its gradient reads.
struct TapeEntry {
  /// The op, or nullptr for a recorded call with its own `backward`.
  const OpDef* op = nullptr;
  Attrs attrs;
  /// The op's own inputs and outputs (a call's tensors).
  std::vector<TensorHandle> inputs;
  std::vector<TensorHandle> outputs;
  /// What gradients flow to, with their dtypes: the inputs' keys, or for a
  /// variable read (or a call reading variables) the variables'.
  std::vector<TensorKey> input_keys;
  std::vector<DType> input_dtypes;
  std::vector<std::shared_ptr<Graph>> subgraphs;
  CallBackward backward;
  /// What errors name it by (the node's name, or the op's name hint).
  std::string name;
};

/// True for the dtypes gradients flow through (TF's IsDtypeTrainable).
bool is_trainable_dtype(DType t);

class Tape {
 public:
  Tape(bool persistent, bool watch_accessed_variables);

  bool persistent() const { return persistent_; }
  bool watch_accessed_variables() const { return watch_accessed_variables_; }
  /// The graph whose ops it records (nullptr: eager ones).
  Graph* graph() const { return graph_; }

  void watch(const TensorHandle& t);
  void watch_variable(int64_t variable_id);
  bool watching(const TensorKey& k) const { return watched_.count(k) != 0; }
  /// Variable ids in the order they were first watched.
  const std::vector<int64_t>& watched_variables() const { return watched_variables_; }

  /// Records `entry` if some input is watched with a trainable dtype, and
  /// then watches its outputs.
  void maybe_record(const TapeEntry& entry);
  const std::vector<TapeEntry>& entries() const { return entries_; }

  /// Forgets every recorded op and watched tensor (tape.reset()).
  void clear();

  /// Pushes this tape on the thread's recording stack for the graph being
  /// traced (or eager); ValueError if it is already recording.
  void start();
  /// Pops it (it may be below others: nested tapes end in any order).
  void stop();
  bool recording() const { return recording_; }

 private:
  bool persistent_;
  bool watch_accessed_variables_;
  bool recording_ = false;
  Graph* graph_ = nullptr;
  std::unordered_set<TensorKey, TensorKeyHash> watched_;
  std::vector<int64_t> watched_variables_;
  std::vector<TapeEntry> entries_;
};

namespace detail {
/// How many tapes record on this thread: apply_op's one-load fast check.
extern constinit thread_local int t_recording_tapes;
}  // namespace detail

inline bool any_tape_recording() { return detail::t_recording_tapes > 0; }

/// Offers one op's execution to the tapes recording on this thread.
void record_op(const OpDef& op, const Attrs& attrs, std::span<const TensorHandle> inputs,
               std::span<const TensorHandle> outputs, std::string_view name);
/// Offers a call recorded as one entry with its own backward.
void record_call(const TapeEntry& entry);

/// The variables read in `graphs` and the graphs nested in them, once each,
/// in first-read order: (id, dtype of the value read).
std::vector<std::pair<int64_t, DType>> variables_read(std::span<const std::shared_ptr<Graph>> graphs);
std::vector<std::pair<int64_t, DType>> variables_read(const Graph& g);
/// Graph node `n` as a tape entry: its inputs, or for a variable read the
/// variable; a node with subgraphs (If, While) also takes the variables they
/// read as further inputs, after its own.
TapeEntry entry_of(const Node& n);
/// Offers graph node `n` (an If or While that add_if/add_while made) to the
/// tapes recording in its graph.
void record_node(const Node& n);
/// Stops every tape recording on this thread while alive, and restarts
/// them after (a custom gradient's forward is not recorded op by op).
class PauseTapes {
 public:
  PauseTapes();
  ~PauseTapes();
  PauseTapes(const PauseTapes&) = delete;
  PauseTapes& operator=(const PauseTapes&) = delete;

 private:
  std::vector<Tape*> paused_;
};

/// A variable is read (or a call reads it): tapes that watch accessed
/// variables watch it when it is trainable.
void note_variable_read(int64_t variable_id, bool trainable);


}  // namespace ag
