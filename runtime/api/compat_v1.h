// What the TF1 files of runtime/api share (compat_v1.cpp defines it).
#pragma once

#include "runtime/graph/graph.h"
#include "runtime/value/value.h"

namespace ag::tf {

/// A tf.Operation for node `n` of a TF1 graph (a Session's fetch or target).
Value v1_operation(Node* n);

}  // namespace ag::tf
