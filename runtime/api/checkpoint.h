// tf.train.Checkpoint (ag::tf::api::train_Checkpoint() is the class value)
// and tf.train.latest_checkpoint; see checkpoint.cpp for the object graph and
// restore-on-create.
#pragma once

namespace ag {

/// Assigns the checkpointed values that were waiting for objects that exist
/// now (restore-on-create); builders call it after creating variables.
void checkpoint_restore_deferred();

}  // namespace ag
