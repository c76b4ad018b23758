// Ops that exist only in graphs: Placeholder (a function argument; the
// executor binds it, so running it is TF's "must feed" error), NoOp (what
// tf.group and a TF1 initializer are: a node whose control inputs run), and
// the registration of the graph layer's ops.
#include "runtime/graph/graph_ops.h"

#include "runtime/core/error.h"
#include "runtime/graph/fused_ops.h"
#include "runtime/ops/registry.h"

namespace ag {

void register_graph_ops(OpRegistry& reg) {
  reg.op("Placeholder")
      .inputs(0)
      .infer([](const InferContext& c) {
        return std::vector<TensorSpec>{{c.attrs.get<DType>("dtype"), c.attrs.get<Shape>("shape")}};
      })
      .cpu([](const KernelSpec& s) {
        std::string msg = std::string("You must feed a value for placeholder tensor with dtype ") +
                          dtype_name(s.outputs[0].dtype) + " and shape " + s.outputs[0].shape.debug_string();
        return Kernel([msg](KernelContext&) -> void { throw InvalidArgumentError(msg); });
      })
      .role(OpRole::Argument)
      .speculatable()
      .cost(CostKind::Free)
      .tpu()
      .not_differentiable();
  reg.op("NoOp")
      .tf_signature("->")
      .inputs(0)
      .outputs(0)
      // Stateful, so no pass removes it: running it is running its control inputs.
      .stateful()
      .infer([](const InferContext&) { return std::vector<TensorSpec>{}; })
      .cpu([](const KernelSpec&) { return Kernel([](KernelContext&) {}); })
      .cost(CostKind::Free)
      .tpu()
      .not_differentiable();
  register_control_flow_ops(reg);
  register_fused_ops(reg);
}

}  // namespace ag
