#include "runtime/graph/graph.h"

#include "runtime/core/error.h"
#include "runtime/graph/evaluate.h"
#include "runtime/graph/shape_error.h"
#include "runtime/graph/tracing.h"
#include "runtime/ops/eager.h"
#include "runtime/ops/registry.h"

namespace ag {

const TensorSpec& Output::spec() const { return node->outputs[static_cast<size_t>(index)]; }

std::string Output::name() const { return node->name + ":" + std::to_string(index); }

std::string Graph::unique_name(std::string_view hint) {
  // TF's Graph.unique_name: names are unique case-insensitively; "add" then
  // "add_1", "add_2", skipping any "add_N" already taken.
  std::string name(hint.empty() ? "node" : hint);
  std::string key;
  for (char c : name) key += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  int i = name_counts_[key]++;
  if (i > 0) {
    std::string base_key = key;
    while (name_counts_.count(key)) key = base_key + "_" + std::to_string(i++);
    name_counts_[key] = 1;
    name += "_" + std::to_string(i - 1);
  }
  return name;
}

Node* Graph::add_node(const OpDef& op, std::vector<Output> inputs, Attrs attrs, std::string_view name,
                      std::vector<std::shared_ptr<Graph>> subgraphs) {
  std::vector<TensorSpec> specs;
  std::vector<const Tensor*> constants;
  specs.reserve(inputs.size());
  constants.reserve(inputs.size());
  for (const Output& in : inputs) {
    if (in.node == nullptr || in.node->graph != this) {
      throw InvalidArgumentError("an input of " + op.name + " belongs to another graph; tensors from one "
                                 "function cannot be used in another");
    }
    specs.push_back(in.spec());
    constants.push_back(constant_value(in));
  }
  auto node = std::make_unique<Node>();
  // TF names a node before its shape function runs; a name ending in '/' is
  // a name scope's, taken as the node's own (TF's create_op).
  node->name = !name.empty() && name.back() == '/'
                   ? std::string(name.substr(0, name.size() - 1))
                   : unique_name(scope_.name + std::string(name.empty() ? std::string_view(op.name) : name));
  // A node of the graph being traced is what TF's Python builds: its shape
  // function runs with the partial values of shape inputs, and its failure
  // is ops.py's ValueError. (A pass rewriting a graph adds nodes to one that
  // is not current: a failure there is its own error.)
  InferContext ctx{op.name, specs, attrs, constants, subgraphs};
  std::function<std::optional<Shape>(size_t)> partial = [&inputs](size_t i) { return partial_shape_value(inputs[i]); };
  ctx.tracing = current_graph() == this;
  if (ctx.tracing) ctx.partial_shapes = &partial;
  try {
    node->outputs = infer_outputs(op, ctx);
  } catch (const InvalidArgumentError& e) {
    if (!ctx.tracing) throw;
    throw ValueError(shape_function_error(
        e.what(), FailedNode{node->name, op, inputs, attrs, scope_.control, scope_.device, ctx}));
  }
  node->op = &op;
  node->device = scope_.device;
  node->control_inputs = scope_.control;
  node->inputs = std::move(inputs);
  node->attrs = std::move(attrs);
  node->subgraphs = std::move(subgraphs);
  return append(std::move(node));
}

Node* Graph::add_copy(const Node& n, std::vector<Output> inputs, std::string_view name) {
  for (const Output& in : inputs) {
    if (in.node == nullptr || in.node->graph != this) throw InternalError("add_copy: an input belongs to another graph");
  }
  auto node = std::make_unique<Node>();
  node->outputs = n.outputs;
  node->name = unique_name(name.empty() ? std::string_view(n.name) : name);
  node->device = n.device;
  node->op = n.op;
  node->inputs = std::move(inputs);
  node->attrs = n.attrs;
  node->subgraphs = n.subgraphs;
  return append(std::move(node));
}

Node* Graph::append(std::unique_ptr<Node> node) {
  node->id = static_cast<int>(nodes_.size());
  node->graph = this;
  if (node->stateful() && !v1_) {
    if (last_stateful_) node->control_inputs.push_back(last_stateful_);
    last_stateful_ = node.get();
  }
  Node* raw = node.get();
  by_name_[raw->name] = raw;
  nodes_.push_back(std::move(node));
  return raw;
}

Node* Graph::add_node(OpType op, std::vector<Output> inputs, Attrs attrs, std::string_view name) {
  return add_node(OpRegistry::global().get(op), std::move(inputs), std::move(attrs), name);
}

void Graph::make_constant(Node& n, Tensor value) {
  if (n.graph != this || n.stateful()) throw InternalError("make_constant: not a pure node of this graph");
  n.op = &OpRegistry::global().get(op::Const);
  n.inputs.clear();
  n.control_inputs.clear();
  n.subgraphs.clear();
  n.outputs = {TensorSpec{value.dtype(), value.shape()}};
  n.attrs = Attrs{{"value", std::move(value)}};
}

Output Graph::constant(const Tensor& value, std::string_view name) {
  return add_node(op::Const, {}, Attrs{{"value", value}}, name)->output(0);
}

Output Graph::placeholder(const TensorSpec& spec, std::string_view name) {
  Node* n = add_node(op::Placeholder, {}, Attrs{{"dtype", spec.dtype}, {"shape", spec.shape}}, name);
  inputs_.push_back(n);
  return n->output(0);
}

Output Graph::insert_argument(const TensorSpec& spec, std::string_view name) {
  Output o = add_node(op::Placeholder, {}, Attrs{{"dtype", spec.dtype}, {"shape", spec.shape}}, name)->output(0);
  inputs_.insert(inputs_.begin() + static_cast<std::ptrdiff_t>(num_args()), o.node);
  return o;
}

Output Graph::capture(const Output& o) {
  if (o.node->graph == this) return o;
  bool enclosing = false;
  for (Graph* g = parent_; g != nullptr; g = g->parent_) enclosing = enclosing || g == o.node->graph;
  if (!enclosing) {
    for (Graph* g = this; g != nullptr; g = g->parent_) {
      if (!g->resolver_) continue;
      if (std::optional<Output> r = g->resolver_(o)) return capture(*r);
    }
    throw InvalidArgumentError("Tensor " + o.name() + " is out of scope and cannot be used here: it belongs to "
                               "another function or graph");
  }
  Output from_parent = parent_->capture(o);  // idempotent in the parent
  for (const auto& [outer, inner] : captures_) {
    if (outer == from_parent) return inner;
  }
  Output inner = placeholder(from_parent.spec(), o.node->name);
  captures_.emplace_back(from_parent, inner);
  return inner;
}

const Tensor* Graph::constant_value(const Output& o) {
  if (o.node == nullptr || o.node->op->role() != OpRole::Constant) return nullptr;
  return &o.node->attrs.get<Tensor>("value");
}

std::shared_ptr<Graph> Graph::clone(Graph* parent) const {
  auto g = std::make_shared<Graph>(name_, parent);
  g->name_counts_ = name_counts_;
  auto map = [&](const Output& o) {
    if (o.node->graph != this) return o;  // a tensor of an enclosing graph stays as it is
    return Output{g->nodes_[static_cast<size_t>(o.node->id)].get(), o.index};
  };
  for (const auto& n : nodes_) {
    auto c = std::make_unique<Node>();
    c->id = n->id;
    c->name = n->name;
    c->device = n->device;
    c->op = n->op;
    c->attrs = n->attrs;
    c->outputs = n->outputs;
    c->graph = g.get();
    for (const Output& in : n->inputs) c->inputs.push_back(map(in));
    for (Node* ci : n->control_inputs) c->control_inputs.push_back(g->nodes_[static_cast<size_t>(ci->id)].get());
    for (const auto& sub : n->subgraphs) c->subgraphs.push_back(sub->clone(g.get()));
    g->by_name_[c->name] = c.get();
    g->nodes_.push_back(std::move(c));
  }
  for (Node* in : inputs_) g->inputs_.push_back(g->nodes_[static_cast<size_t>(in->id)].get());
  for (const Output& o : outputs_) g->outputs_.push_back(map(o));
  for (const auto& [outer, inner] : captures_) {
    // The outer tensor lives in the original parent; the copy's parent has
    // the same nodes under the same ids.
    Output o = outer;
    if (parent != nullptr && outer.node->graph == parent_) o = Output{parent->node(outer.node->id), outer.index};
    g->captures_.emplace_back(o, map(inner));
  }
  if (last_stateful_) g->last_stateful_ = g->nodes_[static_cast<size_t>(last_stateful_->id)].get();
  return g;
}

Node* Graph::find(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? nullptr : it->second;
}

void Graph::remove_nodes(const std::vector<bool>& keep) {
  std::vector<std::unique_ptr<Node>> kept;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    if (keep[i]) {
      nodes_[i]->id = static_cast<int>(kept.size());
      kept.push_back(std::move(nodes_[i]));
    } else {
      by_name_.erase(nodes_[i]->name);
    }
  }
  nodes_ = std::move(kept);
  // The last stateful node in order (a rewrite may have moved nodes too).
  last_stateful_ = nullptr;
  for (auto it = nodes_.rbegin(); it != nodes_.rend(); ++it) {
    if ((*it)->stateful()) {
      last_stateful_ = it->get();
      break;
    }
  }
}

void Graph::move_before(Node* n, Node* before) {
  if (n->stateful()) {
    // n, the newest stateful node, leaves the end of the program order for
    // the place just before `before`: ordered after what `before` waits
    // for, and `before` after it.
    if (last_stateful_ != n || !before->stateful()) {
      throw InternalError("move_before: a stateful node moves only from the end of the order before another");
    }
    auto& chain = n->control_inputs;
    last_stateful_ = chain.empty() ? nullptr : chain.back();
    chain = before->control_inputs;
    before->control_inputs.push_back(n);
  }
  std::vector<Node*> order;
  order.reserve(nodes_.size());
  for (const auto& m : nodes_) {
    if (m.get() == before) order.push_back(n);
    if (m.get() != n) order.push_back(m.get());
  }
  reorder_nodes(order);
}

void Graph::reorder_nodes(const std::vector<Node*>& order) {
  // Checked before anything moves, so a bad order leaves the graph as it was.
  std::vector<bool> seen(nodes_.size(), false);
  bool valid = order.size() == nodes_.size();
  for (size_t i = 0; valid && i < order.size(); ++i) {
    const auto id = static_cast<size_t>(order[i]->id);
    valid = id < nodes_.size() && nodes_[id].get() == order[i] && !seen[id];
    if (valid) seen[id] = true;
  }
  if (!valid) throw InternalError("reorder_nodes: the order must list every node of the graph once");
  std::vector<std::unique_ptr<Node>> reordered;
  reordered.reserve(nodes_.size());
  for (Node* n : order) reordered.push_back(std::move(nodes_[static_cast<size_t>(n->id)]));
  nodes_ = std::move(reordered);
  for (size_t i = 0; i < nodes_.size(); ++i) nodes_[i]->id = static_cast<int>(i);
}

}  // namespace ag
