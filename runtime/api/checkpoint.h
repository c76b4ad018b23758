// tf.train.Checkpoint (ag::tf::api::train_Checkpoint() is the class value)
// and tf.train.latest_checkpoint; see checkpoint.cpp for the object graph and
// restore-on-create. tf.train.CheckpointManager (checkpoint_manager.cpp)
// builds on the pieces declared here.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "runtime/core/tensor.h"
#include "runtime/value/value.h"

namespace ag {

/// Assigns the checkpointed values that were waiting for objects that exist
/// now (restore-on-create); builders call it after creating variables.
void checkpoint_restore_deferred();

/// Writes the checkpoint of `checkpoint` (a tf.train.Checkpoint) at
/// `prefix`, as Checkpoint.write does: no counter, no state file.
void checkpoint_write(const Value& checkpoint, const std::string& prefix);
/// Restores the checkpoint at `path` into the object graph rooted at `root`
/// (Checkpoint.read with `root` as the root): the load status object
/// (assert_consumed, assert_nontrivial_match, expect_partial).
Value checkpoint_read(const Value& root, const std::string& path);
/// Checkpoint.save_counter, made on first use so it is saved too.
Value checkpoint_save_counter(const Value& checkpoint);

/// The trackable object graph a checkpoint records, breadth first from a
/// root: trackables' named children in TF's order, each object once.
struct ObjectGraphView {
  std::vector<Value> nodes;
  std::vector<std::vector<std::pair<std::string, int>>> edges;  // per node: (local name, node id)
  std::vector<std::string> keys;    // "model/dense/kernel" (escaped); "" for the root
  std::vector<std::string> pretty;  // "(root).model.dense.kernel"
};
/// Children a walk adds to a node beyond its trackables (a SavedModel's
/// functions and signatures, which TF's checkpoint of it lists too, so the
/// node ids of the SavedObjectGraph and of variables/ agree).
using ExtraChildren = std::function<std::vector<std::pair<std::string, Value>>(const Value& node)>;
ObjectGraphView object_graph_view(const Value& root, const ExtraChildren& extra = {});
/// Writes the variables of `view` and its TrackableObjectGraph (every node,
/// variables or not) at `prefix`.
void write_object_graph(const ObjectGraphView& view, const std::string& prefix);

/// TF's CheckpointState, the text proto in a directory's "checkpoint" file,
/// with its paths joined to the directory as get_checkpoint_state returns them.
struct CheckpointStateFile {
  std::string model_checkpoint_path;
  std::vector<std::string> all_model_checkpoint_paths;  // oldest first
  std::vector<double> all_model_checkpoint_timestamps;  // empty, or one per path
  double last_preserved_timestamp = 0;
};

/// tf.train.get_checkpoint_state(dir, filename): nullopt when the file is absent or
/// does not parse; ValueError "Invalid checkpoint state loaded from DIR"
/// when it names no checkpoint.
std::optional<CheckpointStateFile> read_checkpoint_state(const std::string& dir,
                                                        const std::string& filename = "checkpoint");
/// update_checkpoint_state_internal(save_relative_paths=True): writes
/// `dir`/checkpoint atomically, paths relative to `dir`.
void write_checkpoint_state(const std::string& dir, const CheckpointStateFile& state);

}  // namespace ag
