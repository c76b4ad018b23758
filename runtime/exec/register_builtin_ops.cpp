// register_builtin_ops (declared in ops/registry.h): every layer's ops, in
// layer order. It lives in the executor's layer, the highest that defines a
// part of an op, so that it can see every layer's registration function.
#include "runtime/exec/exec_ops.h"
#include "runtime/exec/tpu_emulator.h"
#include "runtime/graph/graph_ops.h"
#include "runtime/ops/families.h"
#include "runtime/ops/registry.h"

namespace ag {

void register_builtin_ops(OpRegistry& reg) {
  register_array_ops(reg);
  register_math_ops(reg);
  register_reduction_ops(reg);
  register_linalg_ops(reg);
  register_nn_ops(reg);
  register_string_ops(reg);
  register_text_ops(reg);
  register_ragged_string_ops(reg);
  register_ragged_conversion_ops(reg);
  register_unicode_ops(reg);
  register_random_ops(reg);
  register_stateful_random_ops(reg);
  register_sparse_ops(reg);
  register_logging_ops(reg);
  register_py_func_ops(reg);
  register_list_ops(reg);
  register_state_ops(reg);
  register_iterator_ops(reg);
  register_parse_example_ops(reg);
  register_quantization_ops(reg);
  register_fake_quant_ops(reg);
  register_conv3d_ops(reg);
  register_graph_ops(reg);
  register_control_flow_kernels(reg);
  register_batch_function_kernel(reg);
  register_fused_kernels(reg);
  tpu::register_tpu_emulator_kernels(reg);
}

}  // namespace ag
