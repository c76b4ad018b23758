#include "runtime/exec/tpu_emulator.h"

#include <map>
#include <memory>
#include <mutex>
#include <set>

#include "runtime/core/error.h"
#include "runtime/core/variable.h"
#include "runtime/exec/plan.h"
#include "runtime/graph/evaluate.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/optimize/pipeline.h"

namespace ag::tpu {
namespace {

std::mutex g_stats_mu;
TpuStats g_stats;
thread_local ThreadTpuCost t_cost;

bool host_dtype(DType t) { return t == DType::String || t == DType::Variant; }

/// B10 (S12's message): an op the TPU cannot run, or one touching a string
/// or variant tensor, fails the compile. An op that cannot run there at all
/// is named before one that only passes a string along (a Reshape of it).
const Node* first_not_compilable(const Graph& g, bool by_op) {
  for (const auto& n : g.nodes()) {
    if (n->op->role() == OpRole::Argument) continue;
    bool host = n->op->tpu.kind == TpuFacts::Kind::Unsupported;
    if (!by_op) {
      for (const Output& in : n->inputs) host = host || host_dtype(in.spec().dtype);
      for (const TensorSpec& out : n->outputs) host = host || host_dtype(out.dtype);
    }
    if (host) return n.get();
    for (const auto& sub : n->subgraphs) {
      if (const Node* inner = first_not_compilable(*sub, by_op)) return inner;
    }
  }
  return nullptr;
}

void check_compilable(const Graph& g) {
  const Node* n = first_not_compilable(g, true);
  if (n == nullptr) n = first_not_compilable(g, false);
  if (n != nullptr) {
    throw InvalidArgumentError("'tf." + n->op->name +
                               "' op isn't compilable for TPU device. enable soft_device_placement option to run on "
                               "CPU");
  }
}

/// The function graph with its arguments' static shapes, every node's types
/// inferred again from them (XLA compiles for static shapes only, S11).
std::shared_ptr<Graph> specialize(const Graph& fn, std::span<const TensorSpec> args) {
  std::shared_ptr<Graph> g = fn.clone();
  for (size_t i = 0; i < g->inputs().size(); ++i) g->inputs()[i]->outputs[0] = args[i];
  for (const auto& n : g->nodes()) {
    const OpRole role = n->op->role();
    if (role == OpRole::Argument || role == OpRole::Constant) continue;
    n->outputs = with_context(*n, [&](const InferContext& c) { return n->op->infer(c); });
  }
  return g;
}

/// B12: the inputs each op needs as compile-time constants, folded when
/// constant nodes and the arguments' static shapes compute them (Shape, Size
/// and Rank of an argument are constants); TF's error otherwise.
void fold_constant_inputs(Graph& g) {
  for (const auto& up : g.nodes()) {
    Node& n = *up;
    for (int idx : n.op->tpu.constant_inputs) {
      const int size = static_cast<int>(n.inputs.size());
      const int i = idx < 0 ? size + idx : idx;
      if (i < 0 || i >= size || Graph::constant_value(n.inputs[static_cast<size_t>(i)]) != nullptr) continue;
      const Output& in = n.inputs[static_cast<size_t>(i)];
      Node& producer = *in.node;
      std::optional<Tensor> value = constant_value_of(in);
      // A shape vector the static shapes determine (Shape of an argument).
      const TensorSpec& spec = in.spec();
      if (!value && spec.shape.rank() == 1 && (spec.dtype == DType::Int32 || spec.dtype == DType::Int64)) {
        if (std::optional<Shape> known = partial_shape_value(in); known && known->fully_defined()) {
          const auto dims = known->dims();
          Tensor t(spec.dtype, Shape{static_cast<int64_t>(dims.size())});
          for (size_t d = 0; d < dims.size(); ++d) {
            if (spec.dtype == DType::Int32) {
              t.data<int32_t>()[d] = static_cast<int32_t>(dims[d]);
            } else {
              t.data<int64_t>()[d] = dims[d];
            }
          }
          value = std::move(t);
        }
      }
      if (value && producer.outputs.size() == 1 && !producer.stateful() && producer.subgraphs.empty()) {
        g.make_constant(producer, std::move(*value));
        continue;
      }
      throw InvalidArgumentError(
          "Input " + std::to_string(i) + " to node `" + n.name + "` with op " + n.op->name +
          " must be a compile-time constant.\n\nXLA compilation requires that operator arguments that represent shapes "
          "or dimensions be evaluated to concrete values at compile time. This error means that a shape or dimension "
          "argument could not be evaluated at compile time, usually because the value of the argument depends on a "
          "parameter to the computation, on a variable, or on a stateful operation such as a random number "
          "generator.");
    }
    for (const auto& sub : n.subgraphs) fold_constant_inputs(*sub);
  }
}

/// B33: with the bfloat16 optimization every float32 tensor of the program
/// (arguments on entry, constants and variables as stored, each op's
/// results) is rounded to bfloat16: a Cast to bfloat16 and back after its
/// producer. Each op still computes in float32 on bfloat16 values and is
/// rounded once [E]; MatMul's products are summed in float32 (B32).
void round_floats_to_bfloat16(Graph& g) {
  std::vector<Node*> original;
  for (const auto& n : g.nodes()) original.push_back(n.get());
  std::vector<Node*> order;
  std::map<std::pair<Node*, int>, Output> rounded;
  for (Node* n : original) {
    for (const auto& sub : n->subgraphs) round_floats_to_bfloat16(*sub);
    // Its inputs read the rounded tensors.
    for (Output& in : n->inputs) {
      if (auto it = rounded.find({in.node, in.index}); it != rounded.end()) in = it->second;
    }
    order.push_back(n);
    for (int k = 0; k < static_cast<int>(n->outputs.size()); ++k) {
      if (n->outputs[static_cast<size_t>(k)].dtype != DType::Float32) continue;
      Node* down = g.add_node(op::Cast, {n->output(k)}, Attrs{{"SrcT", DType::Float32}, {"DstT", DType::BFloat16}, {"Truncate", false}},
                              n->name + "/to_bfloat16");
      Node* up = g.add_node(op::Cast, {down->output(0)}, Attrs{{"SrcT", DType::BFloat16}, {"DstT", DType::Float32}, {"Truncate", false}},
                            n->name + "/rounded");
      order.push_back(down);
      order.push_back(up);
      rounded[{n, k}] = up->output(0);
    }
  }
  for (Output& o : g.outputs()) {
    if (auto it = rounded.find({o.node, o.index}); it != rounded.end()) o = it->second;
  }
  g.reorder_nodes(order);
}

/// The variables and constants a program keeps in HBM (B47); float32 ones
/// are stored as bfloat16 under the bfloat16 optimization (B33).
void resident_arrays(const Graph& g, bool bf16, std::set<int64_t>& vars, std::vector<ArraySpec>& out) {
  auto stored = [bf16](DType t) { return bf16 && t == DType::Float32 ? DType::BFloat16 : t; };
  for (const auto& n : g.nodes()) {
    if (n->attrs.has("var") && vars.insert(n->attrs.get<int64_t>("var")).second) {
      if (auto v = Variable::lookup(n->attrs.get<int64_t>("var"))) out.push_back({stored(v->dtype()), v->shape()});
    }
    if (const Tensor* c = n->op->role() == OpRole::Constant ? &n->attrs.get<Tensor>("value") : nullptr) {
      if (!host_dtype(c->dtype())) out.push_back({stored(c->dtype()), c->shape()});
    }
    for (const auto& sub : n->subgraphs) resident_arrays(*sub, bf16, vars, out);
  }
}

std::vector<ArraySpec> arrays(std::span<const TensorSpec> specs) {
  std::vector<ArraySpec> out;
  for (const TensorSpec& s : specs) {
    if (s.shape.fully_defined()) out.push_back({s.dtype, s.shape});
  }
  return out;
}

/// The program's device time (section 8): its nodes' roofline times summed,
/// nested graphs' nodes once each [E]; host bookkeeping (variable reads)
/// costs nothing on the chip.
double device_seconds(const Graph& g) {
  double total = 0;
  for (const auto& n : g.nodes()) {
    for (const auto& sub : n->subgraphs) total += device_seconds(*sub);
    const CostKind kind = n->op->cost.kind;
    if (kind == CostKind::Host || kind == CostKind::Unset || kind == CostKind::ControlFlow) continue;
    OpCost op;
    op.kind = kind;
    std::vector<TensorSpec> ins;
    for (const Output& in : n->inputs) ins.push_back(in.spec());
    op.inputs = arrays(ins);
    op.outputs = arrays(n->outputs);
    if (op.inputs.size() != ins.size() || op.outputs.size() != n->outputs.size()) continue;  // not static
    if (kind == CostKind::Contraction && n->op->cost.contraction) {
      op.contraction = with_context(*n, [&](const InferContext& c) { return n->op->cost.contraction(c, n->outputs); });
      // The operands' dtype sets the MXU's rate (an int8 product sums into int32).
      op.rate = mxu_rate_for(ins.at(0).dtype, kernels::F32MatmulPrecision::Default);
    }
    total += op_device_seconds(op);
  }
  return total;
}

/// One compiled TPU program: the plan and what a call of it costs.
struct Program {
  Plan plan;
  double device_seconds = 0;
};

struct ProgramCache {
  std::mutex mu;
  std::map<std::vector<std::pair<DType, std::vector<int64_t>>>, std::shared_ptr<const Program>> programs;
};

std::shared_ptr<const Program> compile_program(const Graph& fn, std::span<const TensorSpec> args, bool bf16,
                                               int cores) {
  std::shared_ptr<Graph> g = specialize(fn, args);
  check_compilable(*g);
  fold_constant_inputs(*g);
  std::set<int64_t> vars;
  std::vector<ArraySpec> resident;
  resident_arrays(*g, bf16, vars, resident);
  check_hbm_capacity(resident);
  if (bf16) round_floats_to_bfloat16(*g);
  run_passes(*g, simplification_passes());
  auto p = std::make_shared<Program>();
  p->plan = compile_plan(*g, Backend::TpuEmu);
  const double seconds = device_seconds(*g);
  p->device_seconds = program_device_seconds(std::span<const double>(&seconds, 1), cores);
  return p;
}

/// TPUPartitionedCall: the function's program for these argument types
/// (compiled on first use), run on the arguments; the device ordinal, last,
/// names core 0, the only one.
Kernel tpu_call_kernel(const KernelSpec& s) {
  if (s.subgraphs.size() != 1) throw InternalError("TPUPartitionedCall is compiled without its function's graph");
  std::shared_ptr<const Graph> fn = s.subgraphs[0];
  // The converter records its optimizations on the call (B33, B45); both
  // default to on, as the converter's DEFAULT state.
  const bool io_shape_optimization = s.attrs.get_or<bool>("_io_shape_optimization", true);
  const bool bf16 = s.attrs.get_or<bool>("_bfloat16_optimization", true);
  // XLA sharding splits the program over this many cores (ideal SPMD, section 8).
  const int cores = static_cast<int>(s.attrs.get_or<int64_t>("_num_cores_per_replica", 1));
  auto cache = std::make_shared<ProgramCache>();
  return [fn, io_shape_optimization, bf16, cores, cache](KernelContext& k) {
    const size_t n = k.inputs.size() - 1;
    std::vector<TensorSpec> specs;
    decltype(ProgramCache::programs)::key_type key;
    for (size_t i = 0; i < n; ++i) {
      specs.push_back({k.input(i).dtype(), k.input(i).shape()});
      const auto dims = k.input(i).shape().dims();
      key.emplace_back(k.input(i).dtype(), std::vector<int64_t>(dims.begin(), dims.end()));
    }
    std::shared_ptr<const Program> program;
    {
      std::lock_guard<std::mutex> lock(cache->mu);
      auto it = cache->programs.find(key);
      if (it == cache->programs.end()) {
        it = cache->programs.emplace(key, compile_program(*fn, specs, bf16, cores)).first;
        std::lock_guard<std::mutex> stats(g_stats_mu);
        ++g_stats.compile_count;
      }
      program = it->second;
    }
    program->plan.run(k.inputs.first(n), k.outputs);
    std::vector<TensorSpec> outs;
    for (const Tensor& t : k.outputs) outs.push_back({t.dtype(), t.shape()});
    CallCost cost = call_cost(arrays(specs), arrays(outs), program->device_seconds, io_shape_optimization);
    ThreadTpuCost& mine = t_cost;
    ++mine.calls;
    mine.cost.h2d_seconds += cost.h2d_seconds;
    mine.cost.device_seconds += cost.device_seconds;
    mine.cost.d2h_seconds += cost.d2h_seconds;
    mine.cost.overhead_seconds += cost.overhead_seconds;
    mine.cost.h2d_bytes += cost.h2d_bytes;
    mine.cost.d2h_bytes += cost.d2h_bytes;
    std::lock_guard<std::mutex> stats(g_stats_mu);
    ++g_stats.calls;
    g_stats.last_call = cost;
    g_stats.total_device_seconds += cost.device_seconds;
  };
}

}  // namespace

ThreadTpuCost thread_tpu_cost() { return t_cost; }
void reset_thread_tpu_cost() { t_cost = ThreadTpuCost{}; }

TpuStats tpu_stats() {
  std::lock_guard<std::mutex> lock(g_stats_mu);
  return g_stats;
}

void reset_tpu_stats() {
  std::lock_guard<std::mutex> lock(g_stats_mu);
  g_stats = TpuStats{};
}

void register_tpu_emulator_kernels(OpRegistry& reg) { reg.extend(op::TPUPartitionedCall).cpu(tpu_call_kernel); }

}  // namespace ag::tpu
