#include "runtime/graph/tracing.h"

#include <atomic>

#include "runtime/core/error.h"
#include "runtime/graph/tape.h"
#include "runtime/ops/eager.h"
#include "runtime/ops/registry.h"

namespace ag {

constinit thread_local Graph* detail::t_current_graph = nullptr;
constinit thread_local uint64_t detail::t_next_handle_id = 0;

uint64_t detail::refill_handle_ids() {
  static std::atomic<uint64_t> next_block{1};
  uint64_t block = next_block.fetch_add(1, std::memory_order_relaxed);
  t_next_handle_id = (block << 40) + 1;
  return t_next_handle_id++;
}

TraceScope::TraceScope(Graph& g) : previous_(detail::t_current_graph) { detail::t_current_graph = &g; }
TraceScope::~TraceScope() { detail::t_current_graph = previous_; }

EagerScope::EagerScope() : previous_(detail::t_current_graph) { detail::t_current_graph = nullptr; }
EagerScope::~EagerScope() { detail::t_current_graph = previous_; }

namespace {
thread_local std::string t_eager_name_scope;
}  // namespace

std::string current_name_scope() {
  if (Graph* g = current_graph()) return g->scope().name;
  return t_eager_name_scope;
}

const std::string& eager_name_scope() { return t_eager_name_scope; }
void set_eager_name_scope(std::string scope) { t_eager_name_scope = std::move(scope); }

OpScope::OpScope(std::string_view default_name) : graph_(current_graph()) {
  if (graph_ == nullptr) {
    op_name_ = default_name;
    return;
  }
  previous_ = graph_->scope().name;
  op_name_ = graph_->unique_name(previous_ + std::string(default_name)) + "/";
  graph_->scope().name = op_name_;
}

OpScope::~OpScope() {
  if (graph_ != nullptr) graph_->scope().name = previous_;
}

TensorHandle constant_handle(const Tensor& value, std::string_view name) {
  if (Graph* g = current_graph()) return TensorHandle(g->constant(value, name));
  return TensorHandle(value);
}

Output in_graph(Graph& g, const TensorHandle& h) { return h.symbolic() ? g.capture(h.output()) : g.constant(h.value()); }

std::vector<TensorHandle> apply_op(OpType op_name, std::span<const TensorHandle> inputs, const Attrs& attrs,
                                   std::string_view name) {
  const OpDef& op = OpRegistry::global().get(op_name);
  Graph* g = current_graph();
  if (g == nullptr) {
    std::vector<Tensor> values;
    values.reserve(inputs.size());
    for (const TensorHandle& h : inputs) {
      if (h.symbolic()) {
        throw InvalidArgumentError("Tensor " + h.output().name() + " is a symbolic tensor of a traced function "
                                   "and cannot be used outside of it");
      }
      values.push_back(h.value());
    }
    std::vector<Tensor> out = run_op(op, values, attrs);
    std::vector<TensorHandle> handles(std::make_move_iterator(out.begin()), std::make_move_iterator(out.end()));
    if (any_tape_recording()) record_op(op, attrs, inputs, handles, name.empty() ? op.name : name);
    return handles;
  }
  std::vector<Output> ins;
  ins.reserve(inputs.size());
  for (const TensorHandle& h : inputs) ins.push_back(in_graph(*g, h));
  Node* n = g->add_node(op, std::move(ins), attrs, name);
  std::vector<TensorHandle> out;
  out.reserve(n->outputs.size());
  for (int i = 0; i < static_cast<int>(n->outputs.size()); ++i) out.emplace_back(n->output(i));
  if (any_tape_recording()) {
    // The node's own inputs: eager values became constants, outer tensors captures.
    std::vector<TensorHandle> node_inputs(n->inputs.begin(), n->inputs.end());
    record_op(op, attrs, node_inputs, out, n->name);
  }
  return out;
}

TensorHandle apply_op1(OpType op, std::span<const TensorHandle> inputs, const Attrs& attrs,
                       std::string_view name) {
  std::vector<TensorHandle> out = apply_op(op, inputs, attrs, name);
  if (out.size() != 1) throw InternalError(std::string(op.name()) + " has " + std::to_string(out.size()) + " outputs, not 1");
  return std::move(out[0]);
}

}  // namespace ag
