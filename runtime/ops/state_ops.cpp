// Variable ops: reads and assignments of a Variable named by its id (attr
// "var"), all stateful so they keep program order. Like TF's concrete
// functions, kernels hold their variables weakly: running a plan after its
// variable is gone is TF's FailedPreconditionError, not a dangling read.
#include "runtime/core/variable.h"
#include "runtime/ops/families.h"
#include "runtime/ops/grad_context.h"
#include "runtime/ops/registry.h"

namespace ag {
namespace {

/// The variable a kernel reads or writes, while it lives.
class VariableRef {
 public:
  explicit VariableRef(const Attrs& attrs)
      : id_(attrs.get<int64_t>("var")), var_(Variable::lookup(id_)) {}
  std::shared_ptr<Variable> get() const {
    std::shared_ptr<Variable> v = var_.lock();
    if (!v) {
      std::string name = "_AnonymousVar" + std::to_string(id_);
      throw FailedPreconditionError("Error while reading resource variable " + name +
                                    " from Container: localhost. This could mean that the variable was "
                                    "uninitialized. Not found: Resource localhost/" + name +
                                    "/N10tensorflow3VarE does not exist.");
    }
    return v;
  }

 private:
  int64_t id_;
  std::weak_ptr<Variable> var_;
};


/// Checks an assigned value's type against the variable's at build time.
std::vector<TensorSpec> check_assign(const InferContext& c) {
  auto var = Variable::lookup(c.attrs.get<int64_t>("var"));
  if (c.inputs[0].dtype != var->dtype()) {
    throw InvalidArgumentError(std::string("Trying to assign variable with wrong dtype. Expected ") +
                               dtype_tf_string(var->dtype()) + " got " + dtype_tf_string(c.inputs[0].dtype));
  }
  if (!var->shape().is_compatible_with(c.inputs[0].shape)) {
    throw InvalidArgumentError("Trying to assign to variable with tensor with wrong shape. Expected " +
                               var->shape().debug_string() + " got " + c.inputs[0].shape.debug_string());
  }
  return {};
}

/// AssignAdd / AssignSub: the update op's kernel, prepared once, run in place
/// when it can, else on a copy that is then assigned.
KernelFactory update_kernel(OpType op) {
  return [op](const KernelSpec& s) {
    VariableRef ref(s.attrs);
    auto var = ref.get();
    const OpDef& def = OpRegistry::global().get(op);
    TensorSpec spec{var->dtype(), var->shape()};
    std::vector<TensorSpec> ins{spec, s.inputs[0]};
    std::vector<TensorSpec> outs{spec};
    Kernel update = def.cpu()(KernelSpec{def.name, ins, outs, s.attrs});
    return Kernel([ref, update](KernelContext& k) {
      auto var = ref.get();
      const Tensor& delta = k.input(0);
      bool in_place = false;
      var->update([&](Tensor& value) {
        // When nothing else holds the value, it is both the first operand and
        // the output slot: the elementwise kernel writes over it.
        if (!value.owns_storage_uniquely() || value.shape() != delta.shape()) return;
        const Tensor* args[] = {&value, &delta};
        KernelContext inner{args, std::span<Tensor>(&value, 1)};
        update(inner);
        in_place = true;
      });
      if (in_place) return;
      Tensor current = var->read();
      const Tensor* args[] = {&current, &delta};
      Tensor result[1];
      KernelContext inner{args, result};
      update(inner);
      var->assign(result[0]);
    });
  };
}

}  // namespace

void register_state_ops(OpRegistry& reg) {
  reg.op("ReadVariableOp")
      .tf_signature("resource: resource -> value: dtype")
      .inputs(0)
      .stateful()
      .infer([](const InferContext& c) {
        auto var = Variable::lookup(c.attrs.get<int64_t>("var"));
        return std::vector<TensorSpec>{{var->dtype(), var->shape()}};
      })
      .cpu([](const KernelSpec& s) {
        VariableRef ref(s.attrs);
        return Kernel([ref](KernelContext& k) { k.set_output(0, ref.get()->read()); });
      })
      .reads_variable()
      .cost(CostKind::Free)
      .tpu()
      // The gradient of a read goes to its variable (the tape's input for it).
      .grad([](GradContext& c) { return grads({c.grad(0)}); });

  reg.op("AssignVariableOp")
      .tf_signature("resource: resource, value: dtype ->")
      .inputs(1)
      .outputs(0)
      .stateful()
      .infer(check_assign)
      .cpu([](const KernelSpec& s) {
        VariableRef ref(s.attrs);
        return Kernel([ref](KernelContext& k) { ref.get()->assign(k.input(0)); });
      })
      .cost(CostKind::Free)
      .tpu()
      .not_differentiable();

  for (auto [name, update] : {std::pair{"AssignAddVariableOp", op::AddV2}, std::pair{"AssignSubVariableOp", op::Sub}}) {
    reg.op(name)
        .tf_signature("resource: resource, value: dtype ->")
        .inputs(1)
        .outputs(0)
        .stateful()
        .infer(check_assign)
        .cpu(update_kernel(update))
        .cost(CostKind::Elementwise)
        .tpu()
        .not_differentiable();
  }
}

}  // namespace ag
