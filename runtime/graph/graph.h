// The graph IR: nodes in trace order (a valid topological order, and the
// program order of stateful ops), each an op with inputs, attributes and
// output types. Functional control flow (If, While) is a node that owns its
// branch/body graphs. Names follow TensorFlow: "add", "add_1", ...
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "runtime/ops/op_def.h"
#include "runtime/ops/op_type.h"

namespace ag {

class Graph;
class Variable;
struct Node;

/// Output `index` of `node`: what a symbolic tensor refers to.
struct Output {
  Node* node = nullptr;
  int index = 0;

  const TensorSpec& spec() const;
  /// "add:0", as a symbolic tensor's name prints.
  std::string name() const;
  friend bool operator==(const Output&, const Output&) = default;
};

namespace detail {
/// A process-wide serial number for nodes (never reused, unlike addresses).
inline uint64_t next_node_uid() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace detail

struct Node {
  int id = 0;        // position in the graph's node list
  /// Unique for the process's life: what tables keyed by a node use, since a
  /// freed node's address is reused by later ones.
  uint64_t uid = detail::next_node_uid();
  std::string name;  // unique within the graph
  /// Where tf.device placed it ("" when no scope did); recorded, not acted
  /// on: agc runs every node on the one CPU device.
  std::string device;
  const OpDef* op = nullptr;
  std::vector<Output> inputs;
  /// Nodes that must run first without passing a value (stateful ordering).
  std::vector<Node*> control_inputs;
  Attrs attrs;
  std::vector<TensorSpec> outputs;
  /// If: {then, else}; While: {cond, body}.
  std::vector<std::shared_ptr<Graph>> subgraphs;
  Graph* graph = nullptr;

  Output output(int i = 0) { return Output{this, i}; }
  bool stateful() const { return op->stateful(); }
};

/// Calls f(ctx) with node `n`'s InferContext (its input types, attributes,
/// constant inputs and subgraphs): how passes ask an op's node-level
/// questions (OpTraits::selects_row, OpDef::canonicalize).
template <class F>
auto with_context(const Node& n, F&& f);

class Graph {
 public:
  /// `parent`: the graph this one is a branch or body of (its tensors may be
  /// captured), or nullptr.
  explicit Graph(std::string name = "graph", Graph* parent = nullptr) : name_(std::move(name)), parent_(parent) {}
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;

  const std::string& name() const { return name_; }

  /// TF's graph-level random seed (random_seed.get_seed: a graph's seed and
  /// its _graph_to_seed_dict count): the seed the graph's random ops take
  /// when they have no op seed, and the op seeds 0, 1, 2, ... handed out.
  /// runtime/api/tf_api_random.cpp sets `seed` when first asked: a branch or
  /// body takes its parent's, a tf.function's graph the global seed.
  struct RandomSeeds {
    bool known = false;
    std::optional<int64_t> seed;
    int64_t next_op_seed = 0;
  };
  RandomSeeds& random_seeds() { return random_seeds_; }

  /// A deep copy (subgraphs too), so an optimized copy can run while this
  /// one stays as traced. `parent` is the copy's parent graph.
  std::shared_ptr<Graph> clone(Graph* parent = nullptr) const;

  /// Adds a node after checking its inputs with the op's shape rule (values of
  /// Const inputs are passed as constants). `name` defaults to the op type and
  /// is made unique under the graph's name scope, as TF does; a name ending in
  /// "/" is a name scope's own (TF's `name=scope` inside `with name_scope() as
  /// scope`), which the node takes as it is. A stateful node gets a control edge from the
  /// previous stateful node, so program order survives every rewrite.
  Node* add_node(const OpDef& op, std::vector<Output> inputs, Attrs attrs = {}, std::string_view name = {},
                 std::vector<std::shared_ptr<Graph>> subgraphs = {});
  Node* add_node(OpType op, std::vector<Output> inputs, Attrs attrs = {}, std::string_view name = {});
  /// A copy of node `n` (of any graph) reading `inputs`: same op, attributes,
  /// output types and subgraphs (shared), named after it (or `name`); its
  /// types are taken, not inferred again (a rewrite that moves a node keeps
  /// them).
  Node* add_copy(const Node& n, std::vector<Output> inputs, std::string_view name = {});

  /// Turns node `n` of this graph into a Const holding `value` (its name,
  /// position and readers stay; constant folding).
  void make_constant(Node& n, Tensor value);
  /// A Const node holding `value`.
  Output constant(const Tensor& value, std::string_view name = "Const");
  /// A Placeholder for argument `spec`; appended to inputs().
  Output placeholder(const TensorSpec& spec, std::string_view name);

  /// `o` as a tensor of this graph: itself if it is one; for a tensor of an
  /// enclosing graph, a placeholder fed from it (one per tensor, recorded in
  /// captures(), through every graph in between). InvalidArgumentError for a
  /// tensor of an unrelated graph (TF: "out of scope").
  Output capture(const Output& o);
  /// (outer tensor, placeholder here) pairs, in capture order. Captured
  /// placeholders follow the argument placeholders in inputs().
  const std::vector<std::pair<Output, Output>>& captures() const { return captures_; }
  /// Rewrites the outer side of each capture (a rewrite of the parent graph
  /// that replaces a captured tensor replaces it here too, as in the node
  /// that feeds it).
  template <class F>
  void retarget_captures(F&& map) {
    for (auto& [outer, inner] : captures_) outer = map(outer);
  }
  /// Maps tensors of graphs that do not enclose this one for capture(): a
  /// gradient graph reads the forward graph's tensors through it (saved
  /// intermediates, constants, the forward node's inputs). It returns a
  /// tensor to capture instead (which may need resolving in turn), or nullopt
  /// for a tensor it does not know; capture() asks this graph's resolver,
  /// then its enclosing graphs'. Set while a gradient is built, then cleared.
  using ForeignResolver = std::function<std::optional<Output>(const Output&)>;
  void set_foreign_resolver(ForeignResolver r) { resolver_ = std::move(r); }
  /// A new argument placeholder after the existing ones, before the captured
  /// ones (a gradient gives a loop body one more loop variable).
  Output insert_argument(const TensorSpec& spec, std::string_view name);
  /// The argument placeholders' count: inputs() before the captures (a
  /// branch's arguments, a loop body's loop variables).
  size_t num_args() const { return inputs_.size() - captures_.size(); }
  Graph* parent() const { return parent_; }

  /// The value of `o` when its node is a Const, else nullptr.
  static const Tensor* constant_value(const Output& o);

  /// "hint" if unused, else "hint_1", "hint_2", ... (TF's unique_name).
  std::string unique_name(std::string_view hint);

  /// What the `with` scopes open while tracing give new nodes (TF keeps them
  /// per graph): tf.name_scope's prefix ("outer/inner/"), tf.device's
  /// placement, tf.control_dependencies' nodes. The API saves a Scope on
  /// entering a block and puts it back on leaving.
  struct Scope {
    std::string name;
    std::string device;
    std::vector<Node*> control;
  };
  Scope& scope() { return scope_; }

  const std::vector<std::unique_ptr<Node>>& nodes() const { return nodes_; }
  Node* node(int id) const { return nodes_[static_cast<size_t>(id)].get(); }
  Node* find(std::string_view name) const;
  /// Placeholders, in argument order.
  const std::vector<Node*>& inputs() const { return inputs_; }
  /// The values the graph returns.
  std::vector<Output>& outputs() { return outputs_; }
  const std::vector<Output>& outputs() const { return outputs_; }
  /// The last stateful node added (the next one is ordered after it).
  Node* last_stateful() const { return last_stateful_; }

  /// A TF1 graph (tf.compat.v1.Graph), built by module-level code and run
  /// by a Session: its stateful nodes are not chained (TF1 orders only what
  /// tf.control_dependencies says, and a Session runs just the nodes a
  /// fetch needs), and it keeps the variables made in it.
  bool v1() const { return v1_; }
  void set_v1() { v1_ = true; }
  /// A TF1 graph's variable and the node that initializes it.
  struct V1Variable {
    std::shared_ptr<Variable> var;
    Node* initializer = nullptr;
  };
  /// TF's GLOBAL_VARIABLES collection, in creation order.
  std::vector<V1Variable>& v1_variables() { return v1_variables_; }

  /// Removes the nodes `keep` marks false and renumbers ids (optimizer use).
  /// Inputs, outputs and control edges must not refer to removed nodes.
  void remove_nodes(const std::vector<bool>& keep);
  /// Puts the nodes in `order` (every node once) and renumbers ids
  /// (optimizer use: a pass that inlines nodes appends them, then moves them
  /// to where they belong). The caller keeps the order topological and the
  /// stateful nodes in program order.
  void reorder_nodes(const std::vector<Node*>& order);
  /// Moves node `n` to just before node `before` (a node added for an
  /// earlier one's sake, such as a loop's new initial value). A stateful `n`
  /// must be the newest stateful node and `before` stateful: `n` takes its
  /// place in the program order just before `before`.
  void move_before(Node* n, Node* before);

 private:
  /// Takes `node` as the last node (its id, graph and stateful chain set).
  Node* append(std::unique_ptr<Node> node);

  std::string name_;
  Graph* parent_ = nullptr;
  RandomSeeds random_seeds_;
  std::vector<std::pair<Output, Output>> captures_;
  ForeignResolver resolver_;
  Scope scope_;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<Node*> inputs_;
  std::vector<Output> outputs_;
  std::unordered_map<std::string, int> name_counts_;
  std::unordered_map<std::string, Node*> by_name_;
  Node* last_stateful_ = nullptr;
  bool v1_ = false;
  std::vector<V1Variable> v1_variables_;
};

template <class F>
auto with_context(const Node& n, F&& f) {
  std::vector<TensorSpec> specs;
  std::vector<const Tensor*> constants;
  specs.reserve(n.inputs.size());
  constants.reserve(n.inputs.size());
  for (const Output& in : n.inputs) {
    specs.push_back(in.spec());
    constants.push_back(Graph::constant_value(in));
  }
  return f(InferContext{n.op->name, specs, n.attrs, constants, n.subgraphs});
}

}  // namespace ag
