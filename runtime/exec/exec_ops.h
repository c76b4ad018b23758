// The executor's part of the op definitions: the CPU kernels of the ops the
// graph layer defines (If, While and the fused ops), which compile or walk
// the node's subgraphs. register_builtin_ops calls these last.
#pragma once

namespace ag {

class OpRegistry;

void register_control_flow_kernels(OpRegistry& reg);  // control_flow_kernels.cpp
void register_batch_function_kernel(OpRegistry& reg);  // batch_function_kernel.cpp
void register_fused_kernels(OpRegistry& reg);         // fused_kernels.cpp

}  // namespace ag
