// The context managers of tf.* that set what new ops get (TF's
// ops.name_scope_v2, device, init_scope, control_dependencies), for `with`
// statements (runtime/api/with_statement.h). While a trace runs they change
// the graph's Scope (runtime/graph/graph.h): node names, recorded placement,
// control inputs; eagerly tf.name_scope names variables, tf.device and
// tf.control_dependencies do nothing visible (one CPU, ops run in order).
#include <algorithm>
#include <functional>
#include <memory>
#include <string>

#include "runtime/api/context_manager.h"
#include "runtime/api/tf_call.h"
#include "runtime/core/error.h"
#include "runtime/graph/graph.h"
#include "runtime/graph/tape.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/object_model.h"

namespace ag::tf {
namespace {

/// A context manager whose __enter__ and __exit__ call these.
struct ContextState : NativeState {
  std::function<Value()> enter;
  std::function<void()> exit;
};

const Value& context_manager_class() {
  static const Value cls = make_class(
      "_ContextManager", {},
      {native_method("_ContextManager.__enter__", "__enter__", {{"self", std::nullopt}},
                     [](const std::vector<Value>& a) { return native_state<ContextState>(a[0])->enter(); }),
       native_method("_ContextManager.__exit__", "__exit__",
                     {{"self", std::nullopt}, {"type", std::nullopt}, {"value", std::nullopt}, {"tb", std::nullopt}},
                     [](const std::vector<Value>& a) -> Value {
                       native_state<ContextState>(a[0])->exit();
                       return Value(false);
                     })});
  return cls;
}

}  // namespace

Value context_manager(std::function<Value()> enter, std::function<void()> exit) {
  auto st = std::make_shared<ContextState>();
  st->enter = std::move(enter);
  st->exit = std::move(exit);
  return native_object(context_manager_class(), st);
}

}  // namespace ag::tf

namespace ag::tf::impl {
namespace {

/// TF's _VALID_OP_NAME_REGEX (`first`) and _VALID_SCOPE_NAME_REGEX.
bool valid_scope_name(const std::string& name, bool at_root) {
  auto ok = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '\\' || c == '/' || c == '>' || c == '-';
  };
  for (size_t i = 0; i < name.size(); ++i) {
    if (!ok(name[i])) return false;
    if (i == 0 && at_root && (name[0] == '_' || name[0] == '\\' || name[0] == '/' || name[0] == '>' || name[0] == '-')) {
      return false;
    }
  }
  return true;
}

/// A graph's Scope saved on entering a block, put back on leaving it.
struct SavedScope {
  Graph* graph = nullptr;
  Graph::Scope scope;
  std::string eager_name;
};

SavedScope save_scope() {
  SavedScope s;
  s.graph = current_graph();
  if (s.graph) s.scope = s.graph->scope();
  s.eager_name = eager_name_scope();
  return s;
}

void restore_scope(const SavedScope& s) {
  if (s.graph) s.graph->scope() = s.scope;
  else set_eager_name_scope(s.eager_name);
}

/// DeviceSpec.from_string's check: "/job:j/replica:0/task:0/device:CPU:0", "/GPU:0", "cpu:0", "".
void check_device(const std::string& spec) {
  size_t start = 0;
  while (start <= spec.size()) {
    size_t end = spec.find('/', start);
    std::string part = spec.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!part.empty()) {
      std::string key = part.substr(0, part.find(':'));
      std::string lower;
      for (char c : key) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
      bool known = part.find(':') != std::string::npos &&
                   (lower == "job" || lower == "replica" || lower == "task" || lower == "device" || lower == "cpu" ||
                    lower == "gpu" || lower == "tpu");
      if (!known && part != "*") throw ValueError("Unknown attribute: '" + part + "' in '" + spec + "'");
    }
    if (end == std::string::npos) break;
    start = end + 1;
  }
}

}  // namespace

Value name_scope(const TfCall& c) {
  Value name_v = c["name"];
  if (!name_v.is_str()) throw ValueError("name for name_scope must be a string.");
  std::string name = name_v.as_str();
  auto saved = std::make_shared<SavedScope>();
  return context_manager(
      [name, saved]() -> Value {
        *saved = save_scope();
        std::string old = saved->graph ? saved->scope.name : saved->eager_name;
        std::string scope;
        if (name.empty()) {
          scope = "";
        } else if (name.back() == '/') {
          scope = name;
        } else if (saved->graph) {
          if (!valid_scope_name(name, old.empty())) {
            throw ValueError("'" + name + "' is not a valid scope name. A scope name has to match the following "
                             "pattern: ^[A-Za-z0-9_.\\\\/>-]*$");
          }
          // A graph's scopes are unique names, as its nodes' ("scope", "scope_1").
          scope = saved->graph->unique_name(old + name) + "/";
        } else {
          scope = old + name + "/";
        }
        if (saved->graph) saved->graph->scope().name = scope;
        else set_eager_name_scope(scope);
        return Value(scope);
      },
      [saved] { restore_scope(*saved); });
}

Value device(const TfCall& c) {
  Value spec_v = c["device_name"];
  if (spec_v.is_callable()) throw RuntimeError("tf.device does not support functions.");
  std::string spec = spec_v.is_none() ? std::string() : str(spec_v);
  check_device(spec);
  auto saved = std::make_shared<SavedScope>();
  return context_manager(
      [spec, saved]() -> Value {
        *saved = save_scope();
        if (saved->graph) saved->graph->scope().device = spec;
        return Value();
      },
      [saved] { restore_scope(*saved); });
}

Value init_scope(const TfCall&) {
  // Out of every graph being traced, tapes paused, no control
  // dependencies; the name scope carries over (TF's init_scope).
  struct State {
    std::unique_ptr<PauseTapes> pause;
    std::unique_ptr<EagerScope> eager;
    std::string eager_name;
  };
  auto st = std::make_shared<State>();
  return context_manager(
      [st]() -> Value {
        std::string scope = current_name_scope();
        st->eager_name = eager_name_scope();
        st->pause = std::make_unique<PauseTapes>();
        st->eager = std::make_unique<EagerScope>();
        set_eager_name_scope(scope);
        return Value();
      },
      [st] {
        st->eager.reset();
        st->pause.reset();
        set_eager_name_scope(st->eager_name);
      });
}

Value control_dependencies(const TfCall& c) {
  Value inputs = c["control_inputs"];
  Graph* g = current_graph();
  if (g == nullptr) {
    // Eagerly ops run in order already; callables are called (TF does).
    if (!inputs.is_none()) {
      for (const Value& v : iterate(inputs)) {
        if (v.is_callable()) v({}, {});
      }
    }
    return context_manager([] { return Value(); }, [] {});
  }
  std::vector<Node*> nodes;
  if (!inputs.is_none()) {
    for (const Value& v : iterate(inputs)) {
      Value t = v.is_variable() ? Value() : v;
      if (!t.is_tensor() || !t.as_tensor().symbolic()) {
        throw TypeError("Control input must be Operation or Tensor: " + repr(v));
      }
      // Only a stateful node's ordering is observable (nodes run in trace
      // order, and a pure node has no effect but its outputs): the others
      // add no edge, so the optimizer stays free to fuse or fold them.
      Node* n = g->capture(t.as_tensor().output()).node;
      if (n->stateful()) nodes.push_back(n);
    }
  }
  bool clear = inputs.is_none();
  auto saved = std::make_shared<SavedScope>();
  return context_manager(
      [nodes, clear, saved]() -> Value {
        *saved = save_scope();
        if (saved->graph) {
          auto& control = saved->graph->scope().control;
          if (clear) control.clear();
          for (Node* n : nodes) {
            if (std::find(control.begin(), control.end(), n) == control.end()) control.push_back(n);
          }
        }
        return Value();
      },
      [saved] { restore_scope(*saved); });
}

}  // namespace ag::tf::impl
