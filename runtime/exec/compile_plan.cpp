// compile_plan: graph → flat instruction array. Placeholders listed in
// Graph::inputs() become argument slots and Const nodes constant slots (no
// instruction runs for either); every other node gets its kernel prepared here,
// once, with its input slots resolved.
#include <string>

#include "runtime/core/error.h"
#include "runtime/exec/buffer_planner.h"
#include "runtime/exec/plan.h"
#include "runtime/graph/graph.h"

namespace ag {

Plan compile_plan(const Graph& g, Backend backend) {
  const auto& nodes = g.nodes();
  const size_t n = nodes.size();
  std::vector<int> arg_index(n, -1);
  for (size_t i = 0; i < g.inputs().size(); ++i) arg_index[static_cast<size_t>(g.inputs()[i]->id)] = static_cast<int>(i);
  std::vector<bool> permanent(n, false);
  for (size_t i = 0; i < n; ++i) permanent[i] = arg_index[i] >= 0 || nodes[i]->op->role() == OpRole::Constant;

  // An Identity only forwards its input: the plan runs no instruction for it,
  // and its readers (and the graph's outputs) read its input's slot. A traced
  // function returns each result through one, and running it would keep a
  // second reference to the result's buffer, defeating its reuse next call.
  std::vector<Output> forwards(n);
  for (size_t i = 0; i < n; ++i) {
    const Node& node = *nodes[i];
    if (node.op->role() != OpRole::Identity || node.inputs.size() != 1 || node.outputs.size() != 1) continue;
    const Output& in = node.inputs[0];
    if (in.node->graph != &g || arg_index[i] >= 0) continue;
    // Inputs come earlier in node order, so their own forwarding is resolved.
    forwards[i] = forwards[static_cast<size_t>(in.node->id)].node ? forwards[static_cast<size_t>(in.node->id)] : in;
  }
  auto resolve = [&](const Output& o) {
    return forwards[static_cast<size_t>(o.node->id)].node ? forwards[static_cast<size_t>(o.node->id)] : o;
  };
  SlotLayout layout = plan_slots(g, permanent, forwards);
  Plan p;
  p.num_slots_ = layout.num_slots;
  p.computed_.assign(layout.num_slots, false);
  p.arg_slots_.resize(g.inputs().size());
  p.arg_specs_.resize(g.inputs().size());
  auto slot_of = [&](const Output& o) {
    const Output r = resolve(o);
    return layout.first_slot[static_cast<size_t>(r.node->id)] + static_cast<uint32_t>(r.index);
  };

  std::vector<TensorSpec> in_specs;
  std::vector<const Tensor*> in_constants;
  for (size_t i = 0; i < n; ++i) {
    const Node& node = *nodes[i];
    const uint32_t first = layout.first_slot[i];
    if (arg_index[i] >= 0) {
      p.arg_slots_[static_cast<size_t>(arg_index[i])] = first;
      p.arg_specs_[static_cast<size_t>(arg_index[i])] = node.outputs[0];
      continue;
    }
    if (permanent[i]) {
      p.constants_.emplace_back(first, node.attrs.get<Tensor>("value"));
      continue;
    }
    if (forwards[i].node != nullptr) continue;
    // An op without a TPU kernel of its own computes on the emulator as on
    // the CPU: its numerics are the VPU's float32 ones (TPU_EMULATOR.md B32).
    const KernelFactory& factory =
        backend == Backend::TpuEmu && !node.op->kernel(backend) ? node.op->cpu() : node.op->kernel(backend);
    if (!factory) throw UnimplementedError("op " + node.op->name + " has no kernel for this target");
    Instr ins;
    ins.in_begin = static_cast<uint32_t>(p.input_slots_.size());
    ins.in_count = static_cast<uint32_t>(node.inputs.size());
    ins.out_begin = first;
    ins.out_count = static_cast<uint32_t>(node.outputs.size());
    ins.node_id = static_cast<uint32_t>(node.id);
    in_specs.clear();
    in_constants.clear();
    for (const Output& in : node.inputs) {
      p.input_slots_.push_back(slot_of(in));
      in_specs.push_back(in.spec());
      in_constants.push_back(Graph::constant_value(in));
    }
    for (uint32_t k = 0; k < ins.out_count; ++k) p.computed_[first + k] = true;
    ins.kernel = factory(
        KernelSpec{node.op->name, in_specs, node.outputs, node.attrs, in_constants, node.subgraphs, backend});
    p.instr_names_.push_back(node.name + " = " + node.op->name);
    p.instrs_.push_back(std::move(ins));
  }
  p.arg_readers_begin_.push_back(0);
  for (uint32_t slot : p.arg_slots_) {
    for (uint32_t j : p.readers_of(slot)) p.arg_readers_.push_back(j);
    p.arg_readers_begin_.push_back(static_cast<uint32_t>(p.arg_readers_.size()));
  }
  for (const Output& o : g.outputs()) {
    if (o.node == nullptr || o.node->graph != &g) throw InternalError("graph output is not a tensor of the graph");
    uint32_t slot = slot_of(o);
    int32_t arg = -1;
    for (size_t i = 0; i < p.arg_slots_.size(); ++i) {
      if (p.arg_slots_[i] == slot) arg = static_cast<int32_t>(i);
    }
    p.output_arg_.push_back(arg);
    p.output_slots_.push_back(slot);
    p.output_specs_.push_back(o.spec());
  }
  // A result may be swapped out of its slot only when no other output reads
  // that slot (two outputs forwarding one value share it).
  for (uint32_t slot : p.output_slots_) {
    size_t uses = 0;
    for (uint32_t s : p.output_slots_) uses += s == slot;
    p.swappable_.push_back(p.computed_[slot] && uses == 1);
  }
  return p;
}

}  // namespace ag
