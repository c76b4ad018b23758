// The ops of the graph layer: Placeholder, If/While (control_flow.cpp) and
// the fused ops (fused_ops.cpp), whose definitions need the graph IR. Their
// kernels come from the executor (exec/exec_ops.h).
#pragma once

namespace ag {

class OpRegistry;

/// Registers Placeholder, If, StatelessIf, While, StatelessWhile,
/// PartitionedCall, StatefulPartitionedCall, FusedElementwise and FusedScalar.
void register_graph_ops(OpRegistry& reg);
/// If, StatelessIf, While, StatelessWhile, PartitionedCall,
/// StatefulPartitionedCall (control_flow.cpp).
void register_control_flow_ops(OpRegistry& reg);

}  // namespace ag
