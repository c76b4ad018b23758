// TF1's graph mode as tf.compat.v1 keeps it: module-level code builds a
// tf.Graph (under `with g.as_default():`, or everywhere after
// disable_eager_execution()), tf.placeholder makes its inputs, tf.Variable
// makes variables that hold nothing until their initializer runs, and a
// tf.Session runs the part of the graph some fetches need with a feed_dict.
// The graph is an ordinary Graph marked v1 (graph/graph.h); a run is the
// pruned copy graph/extract makes, compiled once per (feeds, fetches,
// targets) as TF's DirectSession caches its executors.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/api/binding.h"
#include "runtime/api/compat_v1.h"
#include "runtime/api/context_manager.h"
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/api/tf_call.h"
#include "runtime/exec/compile.h"
#include "runtime/graph/extract.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/dtype_value.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/nest.h"
#include "runtime/value/object_model.h"
#include "runtime/value/v1_graph_attrs.h"
#include "runtime/value/variable_value.h"
#include "runtime/value/convert.h"

namespace ag::tf {
namespace {

// ---- tf.Graph

struct GraphState : NativeState {
  std::shared_ptr<ag::Graph> graph;
};

/// Every TF1 graph made, by address, so a graph made current by
/// `as_default()` or disable_eager_execution() is found again from
/// current_graph() (get_default_graph, a Session made without a graph).
/// They live as long as the program: tensors of a graph (module-level
/// values) point into it, as TF's hold their graph.
std::mutex g_graphs_mu;
std::unordered_map<const ag::Graph*, std::shared_ptr<ag::Graph>>& all_graphs() {
  static auto* m = new std::unordered_map<const ag::Graph*, std::shared_ptr<ag::Graph>>();
  return *m;
}

std::optional<Value> v1_attrs(const Value& v, std::string_view name);

std::shared_ptr<ag::Graph> new_v1_graph() {
  set_v1_attr_hook(v1_attrs);
  auto g = std::make_shared<ag::Graph>("graph");
  g->set_v1();
  std::lock_guard<std::mutex> lock(g_graphs_mu);
  all_graphs()[g.get()] = g;
  return g;
}

/// The process's default graph (TF's global one), made on first use.
std::shared_ptr<ag::Graph>& default_graph() {
  static std::shared_ptr<ag::Graph> g = new_v1_graph();
  return g;
}

/// What disable_eager_execution() made current on this thread.
thread_local std::unique_ptr<TraceScope> t_graph_mode;

/// The TF1 graph ops go to now: the current graph when it is one, else the default graph.
std::shared_ptr<ag::Graph> current_v1_graph() {
  ag::Graph* g = current_graph();
  if (g == nullptr || !g->v1()) return default_graph();
  std::lock_guard<std::mutex> lock(g_graphs_mu);
  return all_graphs().at(g);
}

const std::shared_ptr<ag::Graph>& require_graph(const Value& v) {
  auto* st = native_state<GraphState>(v);
  if (st == nullptr) throw TypeError("graph must be a tf.Graph, but got <class '" + v.type_name() + "'>");
  return st->graph;
}

Value graph_object(std::shared_ptr<ag::Graph> g) {
  auto st = std::make_shared<GraphState>();
  st->graph = std::move(g);
  return native_object(api::v1_Graph(), st);
}

// ---- tf.Operation: a node of a TF1 graph, for fetches and control inputs.

Value session_run(const Value& self, const Value& fetches, const Value& feed_dict);
Value session_or_default(const Value& session, const char* none);

struct OperationState : NativeState {
  std::shared_ptr<ag::Graph> graph;
  Node* node = nullptr;
};

Value operation_object(std::shared_ptr<ag::Graph> g, Node* n) {
  static const Value cls = [] {
    Param self{"self", std::nullopt};
    std::vector<std::pair<std::string, Value>> attrs;
    auto property = [&](const char* name, std::function<Value(const OperationState&)> get) {
      attrs.push_back({name, make_property(Value::callable(std::string("Operation.") + name,
                                                           [get](std::vector<Value> a, Kwargs) {
                                                             return get(*native_state<OperationState>(a.at(0)));
                                                           }))});
    };
    property("name", [](const OperationState& s) { return Value(s.node->name); });
    property("type", [](const OperationState& s) { return Value(std::string(s.node->op->name)); });
    property("graph", [](const OperationState& s) { return graph_object(s.graph); });
    property("outputs", [](const OperationState& s) {
      std::vector<Value> outs;
      for (int i = 0; i < static_cast<int>(s.node->outputs.size()); ++i) outs.emplace_back(TensorHandle(s.node->output(i)));
      return Value::list(std::move(outs));
    });
    attrs.push_back(native_method(
        "Operation.run", "run", {self, {"feed_dict", Value()}, {"session", Value()}}, [](const std::vector<Value>& a) {
          Value sess = session_or_default(a[2],
                                          "Cannot execute operation using `run()`: No default session is registered. "
                                          "Use `with sess.as_default():` or pass an explicit session to "
                                          "`run(session=sess)`");
          session_run(sess, a[0], a[1]);
          return Value();
        }));
    property("inputs", [](const OperationState& s) {
      std::vector<Value> ins;
      for (const Output& o : s.node->inputs) ins.emplace_back(TensorHandle(o));
      return Value::list(std::move(ins));
    });
    property("control_inputs", [](const OperationState& s) {
      std::vector<Value> ins;
      for (Node* c : s.node->control_inputs) ins.push_back(operation_object(s.graph, c));
      return Value::list(std::move(ins));
    });
    attrs.push_back(native_method("Operation.__repr__", "__repr__", {self}, [](const std::vector<Value>& a) {
      const OperationState& s = *native_state<OperationState>(a[0]);
      return Value("<tf.Operation '" + s.node->name + "' type=" + std::string(s.node->op->name) + ">");
    }));
    return make_class("Operation", {}, std::move(attrs));
  }();
  auto st = std::make_shared<OperationState>();
  st->graph = std::move(g);
  st->node = n;
  return native_object(cls, st);
}

std::shared_ptr<ag::Graph> shared_graph(const ag::Graph* g) {
  std::lock_guard<std::mutex> lock(g_graphs_mu);
  auto it = all_graphs().find(g);
  if (it == all_graphs().end()) throw InternalError("agc: a tf.Operation of a graph that is not a TF1 graph");
  return it->second;
}

/// The TF1 graph that made `var`, or null.
std::shared_ptr<ag::Graph> shared_graph_of_variable(const ag::Variable& var) {
  std::lock_guard<std::mutex> lock(g_graphs_mu);
  for (const auto& [raw, g] : all_graphs()) {
    for (const auto& gv : g->v1_variables()) {
      if (gv.var.get() == &var) return g;
    }
  }
  return nullptr;
}

/// A NoOp named `name` running `nodes` (TF's control_flow_ops.group).
Value group_op(const std::shared_ptr<ag::Graph>& g, const std::vector<Node*>& nodes, const std::string& name) {
  Node* n = g->add_node(op::NoOp, {}, {}, name);
  n->control_inputs = nodes;
  return operation_object(g, n);
}

/// Makes `g` the graph ops go to while alive (a `with g.as_default():` block).
Value as_default(std::shared_ptr<ag::Graph> g) {
  auto scope = std::make_shared<std::unique_ptr<TraceScope>>();
  return context_manager(
      [g, scope]() -> Value {
        *scope = std::make_unique<TraceScope>(*g);
        return graph_object(g);
      },
      [scope] { scope->reset(); });
}

// ---- tf.Session

struct SessionState : NativeState {
  std::shared_ptr<ag::Graph> graph;
  bool closed = false;
  std::mutex mu;
  /// Compiled runs by (feeds, fetches, targets).
  std::map<std::vector<std::pair<const Node*, int>>, std::shared_ptr<Executable>> runs;
  /// A variable fetched as itself is fetched through one read node, made once.
  std::unordered_map<int64_t, Output> reads;
};

SessionState& session(const Value& v) {
  auto* st = native_state<SessionState>(v);
  if (st == nullptr) throw TypeError("descriptor requires a 'Session' object");
  return *st;
}

/// A fetch's place: a tensor (index into the run's outputs) or an operation.
struct Fetches {
  std::vector<Output> tensors;
  std::vector<Node*> targets;
};

[[noreturn]] void bad_fetch(const Value& f, const std::string& why) {
  throw ValueError("Fetch argument " + repr(f) + " cannot be interpreted as a Tensor. (" + why + ")");
}

Output graph_tensor(SessionState& s, const Value& v, const char* what) {
  const TensorHandle& t = v.as_tensor();
  if (!t.symbolic()) {
    throw TypeError(std::string(what) + " " + repr(v) +
                    " cannot be interpreted as a Tensor. (Can not convert a EagerTensor into a Tensor or Operation.)");
  }
  if (t.output().node->graph != s.graph.get()) {
    throw ValueError(std::string(what) + " " + repr(v) + " cannot be interpreted as a Tensor. (Tensor " + str(v) +
                     " is not an element of this graph.)");
  }
  return t.output();
}

/// A tensor or operation of graph `g` named "name:0" / "name".
Value by_name(const std::shared_ptr<ag::Graph>& g, const std::string& name) {
  size_t colon = name.rfind(':');
  if (colon != std::string::npos &&
      (colon + 1 == name.size() || name.find_first_not_of("0123456789", colon + 1) != std::string::npos)) {
    throw ValueError("The name " + repr(Value(name)) +
                     " looks a like a Tensor name, but is not a valid one. Tensor names must be of the form "
                     "\"<op_name>:<output_index>\".");
  }
  Node* n = g->find(colon == std::string::npos ? name : name.substr(0, colon));
  if (n == nullptr) {
    // KeyError's text is its argument's repr, as Python prints it.
    throw KeyError(repr(Value("The name '" + name + "' refers to a" +
                              (colon == std::string::npos ? "n Operation" : " Tensor") +
                              " which does not exist. The operation, '" + name.substr(0, colon) +
                              "', does not exist in the graph.")));
  }
  if (colon == std::string::npos) return operation_object(g, n);
  size_t index = name.size() - colon > 10 ? SIZE_MAX : std::stoul(name.substr(colon + 1));
  if (index >= n->outputs.size()) {
    throw KeyError(repr(Value("The name '" + name + "' refers to a Tensor which does not exist. The operation, '" +
                              n->name + "', exists but only has " + std::to_string(n->outputs.size()) + " outputs.")));
  }
  return Value(TensorHandle(n->output(static_cast<int>(index))));
}

/// The place of fetch `f` (not a structure): a tensor's index in the run's
/// outputs (an int), or None for an operation.
Value collect_leaf(SessionState& s, const Value& f, Fetches& out) {
  if (f.is_none()) throw TypeError("Fetch argument None has invalid type <class 'NoneType'>");
  if (f.is_str()) return collect_leaf(s, by_name(s.graph, f.as_str()), out);
  if (auto* op = native_state<OperationState>(f)) {
    if (op->graph != s.graph) bad_fetch(f, "Operation " + repr(f) + " is not an element of this graph.");
    out.targets.push_back(op->node);
    return Value();
  }
  Output o;
  if (f.is_variable()) {
    const ag::Variable& var = *f.as_variable();
    auto it = s.reads.find(var.id());
    if (it == s.reads.end()) {
      TraceScope in(*s.graph);
      it = s.reads.emplace(var.id(), variable_value::read(f).output()).first;
    }
    o = it->second;
  } else if (f.is_tensor()) {
    o = graph_tensor(s, f, "Fetch argument");
  } else {
    throw TypeError("Fetch argument " + repr(f) + " has invalid type <class '" + f.type_name() +
                    "'>, must be a string or Tensor. (Can not convert a " + f.type_name() + " into a Tensor or Operation.)");
  }
  out.tensors.push_back(o);
  return Value(static_cast<int64_t>(out.tensors.size() - 1));
}

/// `fetches` (nested lists, tuples and dicts) with each fetch replaced by its place.
Value collect(SessionState& s, const Value& fetches, Fetches& out) {
  return nest::map_structure(fetches, [&](const Value& f) { return collect_leaf(s, f, out); });
}

/// The places replaced by the values fetched (NumPy values; None for an operation).
Value place_results(const Value& places, std::vector<Tensor>& results) {
  return nest::map_structure(places, [&](const Value& place) {
    return place.is_none() ? Value() : ndarray::result(results.at(static_cast<size_t>(place.as_int())));
  });
}

/// feed_dict's entries as (tensor fed, value), converted and checked as TF's session.py does.
void collect_feeds(SessionState& s, const Value& feed_dict, std::vector<Output>& feeds, std::vector<Tensor>& values) {
  if (feed_dict.is_none()) return;
  if (!feed_dict.is_dict()) throw TypeError("feed_dict must be a dictionary, got " + feed_dict.type_name());
  for (const auto& [key, value] : feed_dict.as_dict().entries) {
    Value k = key.is_str() ? by_name(s.graph, key.as_str()) : key;
    if (!k.is_tensor()) throw TypeError("Cannot interpret feed_dict key as Tensor: " + repr(key));
    Output o = graph_tensor(s, k, "Feed key");
    if (value.is_tensor()) {
      throw TypeError("The value of a feed cannot be a tf.Tensor object. Acceptable feed values include Python "
                      "scalars, strings, lists, numpy ndarrays, or TensorHandles. For reference, the tensor object "
                      "was " + str(value) + " which was passed to the argument `feed_dict` with key " + str(k) + ".");
    }
    const TensorSpec& spec = o.spec();
    Tensor t;
    {
      EagerScope eager;
      t = to_tensor(value, spec.dtype).value();
    }
    if (!spec.shape.is_compatible_with(t.shape())) {
      throw ValueError("Cannot feed value of shape " + t.shape().str() + " for Tensor '" + o.name() +
                       "', which has shape '" + spec.shape.str() + "'");
    }
    feeds.push_back(o);
    values.push_back(std::move(t));
  }
}

Value session_run(const Value& self, const Value& fetches, const Value& feed_dict) {
  SessionState& s = session(self);
  if (s.closed) throw RuntimeError("Attempted to use a closed Session.");
  std::lock_guard<std::mutex> lock(s.mu);
  Fetches f;
  Value structure = collect(s, fetches, f);
  std::vector<Output> feeds;
  std::vector<Tensor> values;
  collect_feeds(s, feed_dict, feeds, values);

  std::vector<std::pair<const Node*, int>> key;
  for (const Output& o : feeds) key.emplace_back(o.node, o.index);
  key.emplace_back(nullptr, 0);
  for (const Output& o : f.tensors) key.emplace_back(o.node, o.index);
  key.emplace_back(nullptr, 1);
  for (const Node* n : f.targets) key.emplace_back(n, -1);
  std::shared_ptr<Executable>& exe = s.runs[key];
  if (!exe) {
    std::shared_ptr<ag::Graph> run = extract_subgraph(*s.graph, feeds, f.tensors, f.targets);
    exe = std::make_shared<Executable>(compile(*run));
  }
  std::vector<Tensor> results;
  {
    EagerScope eager;
    results = exe->plan().run(values);
  }
  return place_results(structure, results);
}

Value make_session(const Value& self, const Value& graph) {
  auto st = std::make_shared<SessionState>();
  st->graph = graph.is_none() ? current_v1_graph() : require_graph(graph);
  self.as_object().native = st;
  return Value();
}

/// The thread's default sessions (TF's `with sess.as_default():` stack;
/// `with tf.Session() as sess:` and an InteractiveSession push theirs).
thread_local std::vector<Value> t_default_sessions;

void push_default(const Value& sess) { t_default_sessions.push_back(sess); }
void pop_default(const Value& sess) {
  for (auto it = t_default_sessions.rbegin(); it != t_default_sessions.rend(); ++it) {
    if (it->is(sess)) {
      t_default_sessions.erase(std::next(it).base());
      return;
    }
  }
}

/// `session` if given, else the default one; `none` names the caller in TF's ValueError.
Value session_or_default(const Value& session, const char* none) {
  if (!session.is_none()) {
    (void)::ag::tf::session(session);
    return session;
  }
  if (t_default_sessions.empty()) throw ValueError(none);
  return t_default_sessions.back();
}

/// Tensor.eval / Variable.eval: the value in the (default) session.
Value eval_method(const Value& fetch) {
  return Value::callable("eval", [fetch](std::vector<Value> args, Kwargs kwargs) {
    std::vector<Value> a = ag::api::bind_builtin("eval", {{"feed_dict", Value()}, {"session", Value()}}, args, kwargs);
    Value sess = session_or_default(a[1],
                                    "Cannot evaluate tensor using `eval()`: No default session is registered. Use "
                                    "`with sess.as_default()` or pass an explicit session to `eval(session=sess)`");
    return session_run(sess, fetch, a[0]);
  });
}

/// What a TF1 graph's tensors and variables have beyond the value layer's attributes.
std::optional<Value> v1_attrs(const Value& v, std::string_view name) {
  if (name == "eval") return eval_method(v);
  if (v.is_variable()) {
    const auto& var = v.as_variable();
    auto g = shared_graph_of_variable(*var);
    if (!g) return std::nullopt;
    for (const auto& gv : g->v1_variables()) {
      if (gv.var != var) continue;
      if (name == "initializer") return operation_object(g, gv.initializer);
      if (name == "initial_value") return Value(TensorHandle(gv.initializer->inputs[0]));
      if (name == "graph") return graph_object(g);
    }
    return std::nullopt;
  }
  Node* n = v.as_tensor().output().node;
  if (name == "op") return operation_object(shared_graph(n->graph), n);
  if (name == "graph") return graph_object(shared_graph(n->graph));
  return std::nullopt;
}

}  // namespace

Value v1_operation(Node* n) { return operation_object(shared_graph(n->graph), n); }

const Value& api::v1_Graph() {
  static const Value cls = [] {
    Param self{"self", std::nullopt};
    std::vector<std::pair<std::string, Value>> attrs;
    attrs.push_back(native_method("Graph.__init__", "__init__", {self}, [](const std::vector<Value>& a) {
      auto st = std::make_shared<GraphState>();
      st->graph = new_v1_graph();
      a[0].as_object().native = st;
      return Value();
    }));
    attrs.push_back(native_method("Graph.as_default", "as_default", {self}, [](const std::vector<Value>& a) {
      return as_default(native_state<GraphState>(a[0])->graph);
    }));
    attrs.push_back(native_method("Graph.get_tensor_by_name", "get_tensor_by_name", {self, {"name", std::nullopt}},
                                  [](const std::vector<Value>& a) {
                                    const std::string& name = ag::api::str_arg(a[1], "name");
                                    if (name.find(':') == std::string::npos) {
                                      throw ValueError("The name " + repr(a[1]) +
                                                       " looks a like an Operation name, not a Tensor name.");
                                    }
                                    return by_name(native_state<GraphState>(a[0])->graph, name);
                                  }));
    attrs.push_back(native_method("Graph.get_operation_by_name", "get_operation_by_name", {self, {"name", std::nullopt}},
                                  [](const std::vector<Value>& a) {
                                    const std::string& name = ag::api::str_arg(a[1], "name");
                                    if (name.find(':') != std::string::npos) {
                                      throw ValueError("The name " + repr(a[1]) +
                                                       " appears to refer to a Tensor, not a Operation.");
                                    }
                                    return by_name(native_state<GraphState>(a[0])->graph, name);
                                  }));
    attrs.push_back(native_method("Graph.get_operations", "get_operations", {self}, [](const std::vector<Value>& a) {
      const auto& g = native_state<GraphState>(a[0])->graph;
      std::vector<Value> ops;
      for (const auto& n : g->nodes()) ops.push_back(operation_object(g, n.get()));
      return Value::list(std::move(ops));
    }));
    attrs.push_back(native_method("Graph.__repr__", "__repr__", {self}, [](const std::vector<Value>& a) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%p", static_cast<const void*>(native_state<GraphState>(a[0])->graph.get()));
      return Value(std::string("<tensorflow.python.framework.ops.Graph object at ") + buf + ">");
    }));
    return make_class("Graph", {}, std::move(attrs));
  }();
  return cls;
}

const Value& api::v1_Session() {
  static const Value cls = [] {
    Param self{"self", std::nullopt};
    std::vector<std::pair<std::string, Value>> attrs;
    attrs.push_back(native_method(
        "Session.__init__", "__init__",
        {self, {"target", Value("")}, {"graph", Value()}, {"config", Value()}},
        [](const std::vector<Value>& a) { return make_session(a[0], a[2]); }));
    attrs.push_back(native_method(
        "Session.run", "run",
        {self, {"fetches", std::nullopt}, {"feed_dict", Value()}, {"options", Value()}, {"run_metadata", Value()}},
        [](const std::vector<Value>& a) { return session_run(a[0], a[1], a[2]); }));
    attrs.push_back(native_method("Session.close", "close", {self}, [](const std::vector<Value>& a) {
      session(a[0]).closed = true;
      return Value();
    }));
    attrs.push_back(native_method("Session.__enter__", "__enter__", {self}, [](const std::vector<Value>& a) {
      push_default(a[0]);
      return a[0];
    }));
    attrs.push_back(native_method(
        "Session.__exit__", "__exit__",
        {self, {"type", std::nullopt}, {"value", std::nullopt}, {"tb", std::nullopt}},
        [](const std::vector<Value>& a) {
          pop_default(a[0]);
          session(a[0]).closed = true;
          return Value(false);
        }));
    attrs.push_back(native_method("Session.as_default", "as_default", {self}, [](const std::vector<Value>& a) {
      Value sess = a[0];
      return context_manager(
          [sess] {
            push_default(sess);
            return sess;
          },
          [sess] { pop_default(sess); });
    }));
    attrs.push_back({"graph", make_property(Value::callable("Session.graph", [](std::vector<Value> a, Kwargs) {
                       return graph_object(session(a.at(0)).graph);
                     }))});
    return make_class("Session", {}, std::move(attrs));
  }();
  return cls;
}

const Value& api::v1_InteractiveSession() {
  // A Session that makes itself the default session until closed.
  static const Value cls = make_class(
      "InteractiveSession", {api::v1_Session()},
      {native_method("InteractiveSession.__init__", "__init__",
                     {{"self", std::nullopt}, {"target", Value("")}, {"graph", Value()}, {"config", Value()}},
                     [](const std::vector<Value>& a) {
                       make_session(a[0], a[2]);
                       push_default(a[0]);
                       return Value();
                     }),
       native_method("InteractiveSession.close", "close", {{"self", std::nullopt}}, [](const std::vector<Value>& a) {
         pop_default(a[0]);
         session(a[0]).closed = true;
         return Value();
       })});
  return cls;
}

namespace impl {

Value v1_placeholder(const TfCall& c) {
  ag::Graph* g = current_graph();
  if (g == nullptr) throw RuntimeError("tf.placeholder() is not compatible with eager execution.");
  TensorSpec spec{require_dtype(c["dtype"]), c["shape"].is_none() ? Shape::unknown_rank() : shape_from_value(c["shape"])};
  return Value(TensorHandle(g->placeholder(spec, c.node_name())));
}

Value v1_get_default_graph(const TfCall&) { return graph_object(current_v1_graph()); }

Value v1_get_default_session(const TfCall&) { return t_default_sessions.empty() ? Value() : t_default_sessions.back(); }

Value v1_reset_default_graph(const TfCall&) {
  ag::Graph* current = current_graph();
  bool graph_mode = t_graph_mode && current == default_graph().get();
  if (current != nullptr && !graph_mode) {
    throw AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If you need a cleared graph, "
                         "exit the nesting and create a new graph.");
  }
  default_graph() = new_v1_graph();
  if (graph_mode) {
    t_graph_mode.reset();
    t_graph_mode = std::make_unique<TraceScope>(*default_graph());
  }
  return Value();
}

Value v1_disable_eager_execution(const TfCall&) {
  // For the rest of the program, ops on this thread go to the default graph.
  if (!t_graph_mode) t_graph_mode = std::make_unique<TraceScope>(*default_graph());
  return Value();
}

Value v1_global_variables(const TfCall&) {
  std::vector<Value> vars;
  for (const auto& v : current_v1_graph()->v1_variables()) vars.push_back(Value::variable(v.var));
  return Value::list(std::move(vars));
}

Value v1_trainable_variables(const TfCall&) {
  std::vector<Value> vars;
  for (const auto& v : current_v1_graph()->v1_variables()) {
    if (v.var->trainable()) vars.push_back(Value::variable(v.var));
  }
  return Value::list(std::move(vars));
}

Value v1_variables_initializer(const TfCall& c) {
  auto g = current_v1_graph();
  std::vector<Node*> inits;
  for (const Value& v : iterate(c["var_list"])) {
    if (!v.is_variable()) throw TypeError("var_list must hold tf.Variable objects, got " + repr(v));
    for (const auto& gv : g->v1_variables()) {
      if (gv.var == v.as_variable()) inits.push_back(gv.initializer);
    }
  }
  return group_op(g, inits, c["name"].as_str());
}

Value v1_global_variables_initializer(const TfCall&) {
  auto g = current_v1_graph();
  std::vector<Node*> inits;
  for (const auto& gv : g->v1_variables()) inits.push_back(gv.initializer);
  return group_op(g, inits, "init");
}

}  // namespace impl
}  // namespace ag::tf
