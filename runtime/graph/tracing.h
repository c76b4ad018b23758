// Which graph ops go to: each thread has a stack of graphs being traced; when
// it is empty, ops run eagerly. TensorHandle is a tensor as generated code
// holds it, eager (a value) or symbolic (a graph output); apply_op() is the one
// entry point that runs an op now or adds it to the graph being traced.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "runtime/graph/graph.h"

namespace ag {

namespace detail {
/// Defined in tracing.cpp; constinit so reads need no TLS wrapper call (every
/// Function call and every op checks it first).
extern constinit thread_local Graph* t_current_graph;
}  // namespace detail

/// The graph being traced on this thread, or nullptr (eager mode).
inline Graph* current_graph() { return detail::t_current_graph; }

/// The tf.name_scope prefix in force ("outer/inner/", or ""): the graph's
/// while tracing, else the thread's eager one (which names variables).
std::string current_name_scope();
/// The thread's eager name scope, and setting it (tf.name_scope outside a trace).
const std::string& eager_name_scope();
void set_eager_name_scope(std::string scope);

/// Makes `g` the current graph until destroyed (scopes nest).
class TraceScope {
 public:
  explicit TraceScope(Graph& g);
  ~TraceScope();
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;

 private:
  Graph* previous_;
};

namespace detail {
/// The next eager handle id of this thread (ids are unique across threads:
/// each thread takes a block of 2^40 from a shared counter).
extern constinit thread_local uint64_t t_next_handle_id;
uint64_t refill_handle_ids();
inline uint64_t next_handle_id() {
  if ((t_next_handle_id & ((uint64_t{1} << 40) - 1)) == 0) return refill_handle_ids();
  return t_next_handle_id++;
}
}  // namespace detail

/// Makes no graph current until destroyed: ops run eagerly (tf.init_scope).
class EagerScope {
 public:
  EagerScope();
  ~EagerScope();
  EagerScope(const EagerScope&) = delete;
  EagerScope& operator=(const EagerScope&) = delete;

 private:
  Graph* previous_;
};

/// TF's `with ops.name_scope(None, default_name)` around an op wrapper's
/// work while a graph is traced: the scope's name is made unique
/// ("strided_slice", "strided_slice_1"), the ops made meanwhile are named
/// under it ("strided_slice/stack"), and the wrapper's last op takes the
/// scope's own name (op_name(): "strided_slice/", a name Graph::add_node
/// takes as is). Eagerly nothing changes and op_name() is `default_name`.
class OpScope {
 public:
  explicit OpScope(std::string_view default_name);
  ~OpScope();
  OpScope(const OpScope&) = delete;
  OpScope& operator=(const OpScope&) = delete;

  const std::string& op_name() const { return op_name_; }

 private:
  Graph* graph_;
  std::string previous_;
  std::string op_name_;
};

class TensorHandle {
 public:
  TensorHandle(Tensor t) : v_(std::move(t)), id_(detail::next_handle_id()) {}  // NOLINT: implicit, a tensor is a handle
  TensorHandle(Output o) : v_(o) {}                                           // NOLINT

  bool symbolic() const { return std::holds_alternative<Output>(v_); }
  /// The value of an eager handle.
  const Tensor& value() const { return std::get<Tensor>(v_); }
  /// The graph output of a symbolic handle.
  const Output& output() const { return std::get<Output>(v_); }
  DType dtype() const { return symbolic() ? output().spec().dtype : value().dtype(); }
  /// A reference into the tensor or the graph node: valid while they are.
  const Shape& shape() const { return symbolic() ? output().spec().shape : value().shape(); }
  /// An eager handle's identity, shared by its copies (what a tape watches:
  /// Python's object identity of an EagerTensor). 0 for symbolic handles.
  uint64_t id() const { return id_; }

 private:
  std::variant<Tensor, Output> v_;
  uint64_t id_ = 0;
};

/// A constant: a Const node named `name` while tracing, else the value.
TensorHandle constant_handle(const Tensor& value, std::string_view name);

/// `h` as a tensor of `g`: an eager value becomes a Const there, a tensor of
/// an enclosing graph is captured (Graph::capture).
Output in_graph(Graph& g, const TensorHandle& h);

/// Runs `op` now when no graph is being traced; otherwise adds a node to the
/// current graph (eager inputs become Const nodes, tensors of enclosing graphs
/// are captured) and returns its symbolic outputs. `name` is the node name
/// hint ("add" for `a + b`, as TF's Python layer names nodes).
std::vector<TensorHandle> apply_op(OpType op, std::span<const TensorHandle> inputs, const Attrs& attrs = {},
                                   std::string_view name = {});
TensorHandle apply_op1(OpType op, std::span<const TensorHandle> inputs, const Attrs& attrs = {},
                       std::string_view name = {});

}  // namespace ag
