// Function, ConcreteFunction and graph values: objects of native classes
// (runtime/value/object_model.h) whose methods reach the ag::Function /
// ConcreteFunction / Graph through the object's native state.
#include "runtime/function/function_value.h"

#include <cstdio>
#include <map>
#include <mutex>

#include "runtime/value/tensor_spec_value.h"
#include "runtime/graph/printer.h"
#include "runtime/value/object_model.h"

namespace ag {
namespace {

/// A native method: `fn(self, args, kwargs)`.
template <class F>
std::pair<std::string, Value> method(const char* name, F fn) {
  return {name, Value::callable(name, [fn](std::vector<Value> args, Kwargs kwargs) -> Value {
            Value self = args.at(0);
            args.erase(args.begin());
            return fn(self, std::move(args), std::move(kwargs));
          })};
}

/// A read-only property: `fn(self)`.
template <class F>
std::pair<std::string, Value> property(const char* name, F fn) {
  return {name, make_property(Value::callable(name, [fn](std::vector<Value> args, Kwargs) -> Value {
            return fn(args.at(0));
          }))};
}

void no_arguments(const char* name, const std::vector<Value>& args, const Kwargs& kwargs) {
  if (!args.empty() || !kwargs.empty()) {
    throw TypeError(std::string(name) + "() takes 1 positional argument but " +
                    std::to_string(args.size() + kwargs.size() + 1) + " were given");
  }
}

// ---- Graphs: tf.Graph with as_graph_def() and get_operations().

struct GraphState : NativeState {
  std::shared_ptr<const void> owner;
  const Graph* graph = nullptr;
};

struct OperationState : NativeState {
  std::shared_ptr<const void> owner;
  const Node* node = nullptr;
};

std::vector<Value> node_inputs(const Node& n) {
  std::vector<Value> inputs;
  for (const Output& o : n.inputs) inputs.emplace_back(input_name(o));
  for (const Node* c : n.control_inputs) inputs.emplace_back("^" + c->name);
  return inputs;
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

const Value& node_def_class() {
  static const Value cls = make_class(
      "NodeDef", {},
      {method("__str__", [](const Value& self, std::vector<Value>, Kwargs) -> Value {
         // Protobuf text format, the fields agc records.
         std::string s = "name: " + quoted(str(self.getattr("name"))) + "\nop: " + quoted(str(self.getattr("op"))) + "\n";
         for (const Value& in : iterate(self.getattr("input"))) s += "input: " + quoted(str(in)) + "\n";
         return Value(s);
       })});
  return cls;
}

Value node_def(const Node& n) {
  Value v = Value::object("NodeDef");
  v.as_object().cls = node_def_class();
  v.setattr("name", Value(n.name));
  v.setattr("op", Value(n.op->name));
  v.setattr("input", Value::list(node_inputs(n)));
  v.setattr("device", Value(""));
  return v;
}

const Value& graph_def_class() {
  static const Value cls = make_class(
      "GraphDef", {},
      {method("__str__", [](const Value& self, std::vector<Value>, Kwargs) -> Value {
         std::string s;
         for (const Value& n : iterate(self.getattr("node"))) {
           std::string body = str(n), indented;
           size_t start = 0;
           while (start < body.size()) {
             size_t end = body.find('\n', start);
             if (end == std::string::npos) end = body.size();
             indented += "  " + body.substr(start, end - start) + "\n";
             start = end + 1;
           }
           s += "node {\n" + indented + "}\n";
         }
         return Value(s);
       })});
  return cls;
}

const Value& operation_class() {
  static const Value cls = make_class(
      "Operation", {},
      {property("name", [](const Value& self) { return Value(native_state<OperationState>(self)->node->name); }),
       property("type", [](const Value& self) { return Value(native_state<OperationState>(self)->node->op->name); }),
       property("node_def", [](const Value& self) { return node_def(*native_state<OperationState>(self)->node); }),
       method("__repr__", [](const Value& self, std::vector<Value>, Kwargs) -> Value {
         const Node& n = *native_state<OperationState>(self)->node;
         return Value("<tf.Operation '" + n.name + "' type=" + n.op->name + ">");
       })});
  return cls;
}

const Value& graph_class() {
  static const Value cls = make_class(
      "FuncGraph", {},
      {method("as_graph_def",
              [](const Value& self, std::vector<Value> args, Kwargs kwargs) -> Value {
                no_arguments("as_graph_def", args, kwargs);
                std::vector<Value> nodes;
                for (const auto& n : native_state<GraphState>(self)->graph->nodes()) nodes.push_back(node_def(*n));
                Value def = Value::object("GraphDef");
                def.as_object().cls = graph_def_class();
                def.setattr("node", Value::list(std::move(nodes)));
                return def;
              }),
       method("get_operations",
              [](const Value& self, std::vector<Value> args, Kwargs kwargs) -> Value {
                no_arguments("get_operations", args, kwargs);
                const GraphState& g = *native_state<GraphState>(self);
                std::vector<Value> ops;
                for (const auto& n : g.graph->nodes()) {
                  auto st = std::make_shared<OperationState>();
                  st->owner = g.owner;
                  st->node = n.get();
                  ops.push_back(native_object(operation_class(), std::move(st)));
                }
                return Value::list(std::move(ops));
              }),
       property("name", [](const Value& self) { return Value(native_state<GraphState>(self)->graph->name()); }),
       method("__repr__", [](const Value& self, std::vector<Value>, Kwargs) -> Value {
         return Value("<tensorflow.python.framework.func_graph.FuncGraph object at " +
                      address_text(native_state<GraphState>(self)->graph) + ">");
       })});
  return cls;
}

// ---- ConcreteFunction values.

struct ConcreteState : NativeState {
  std::shared_ptr<ConcreteFunction> cf;
};

const Value& concrete_function_class() {
  static const Value cls = make_class(
      "ConcreteFunction", {},
      {method("__call__",
              [](const Value& self, std::vector<Value> args, Kwargs kwargs) -> Value {
                return (*native_state<ConcreteState>(self)->cf)(std::move(args), std::move(kwargs));
              }),
       method("__str__", [](const Value& self, std::vector<Value>, Kwargs) -> Value {
         return Value(native_state<ConcreteState>(self)->cf->str());
       }),
       method("__repr__", [](const Value& self, std::vector<Value>, Kwargs) -> Value {
         const ConcreteFunction& cf = *native_state<ConcreteState>(self)->cf;
         std::string summary = cf.signature_summary();
         return Value("<ConcreteFunction " + summary.substr(0, summary.find('\n')) + " at " + address_text(&cf) + ">");
       }),
       property("structured_input_signature",
                [](const Value& self) { return native_state<ConcreteState>(self)->cf->structured_input_signature(); }),
       property("structured_outputs",
                [](const Value& self) { return native_state<ConcreteState>(self)->cf->structured_outputs(); }),
       property("graph",
                [](const Value& self) {
                  const auto& cf = native_state<ConcreteState>(self)->cf;
                  return graph_value(cf, &cf->graph());
                }),
       property("name", [](const Value& self) { return Value(native_state<ConcreteState>(self)->cf->inference_name()); })});
  return cls;
}


// ---- Function values.

struct FunctionState : NativeState {
  /// Its name, parameters, body and options too (fn->name(), ...).
  std::shared_ptr<Function> fn;
  /// The Python function (Function.python_function).
  Value python_function;
  /// A bound method's instance, kept alive while this value is (as Python's
  /// bound method holds self); None for the function itself.
  Value self;
  /// A method's Function per instance (TF's bound methods: each instance
  /// traces on its own, so each may create its variables on its first call),
  /// keyed by the instance's address and holding it weakly, as TF does: the
  /// class holds this Function, so a strong reference would keep every
  /// instance it was ever called on alive (a cycle through the class).
  std::mutex mu;
  struct Bound {
    WeakValue instance;
    std::shared_ptr<Function> fn;  // shared by every binding to that instance
  };
  std::map<const void*, Bound> bound;

  bool callable() const override { return true; }
  Value call(std::vector<Value> args, Kwargs kwargs) override { return (*fn)(std::move(args), std::move(kwargs)); }
};

Value make_function_value(std::string name, std::vector<Param> params, Body body, FunctionOptions options,
                          Value python_function);

const void* identity_of(const Value& v) {
  if (v.is_object()) return &v.as_object();
  if (v.is_callable()) return &v.as_callable();
  return nullptr;
}

const Value& function_class() {
  static const Value cls = make_class(
      "Function", {},
      {method("__call__",
              [](const Value& self, std::vector<Value> args, Kwargs kwargs) -> Value {
                return native_state<FunctionState>(self)->call(std::move(args), std::move(kwargs));
              }),
       method("__get__",
              [](const Value& self, std::vector<Value> args, Kwargs) -> Value {
                // __get__(instance, owner): the Function of `instance`'s method.
                Value instance = args.empty() ? Value() : args[0];
                const void* id = identity_of(instance);
                if (id == nullptr) return self;
                FunctionState& st = *native_state<FunctionState>(self);
                std::shared_ptr<Function> fn;
                {
                  std::lock_guard<std::mutex> lock(st.mu);
                  auto it = st.bound.find(id);
                  // An expired entry's address now belongs to another object.
                  if (it != st.bound.end() && !it->second.instance.expired()) {
                    fn = it->second.fn;
                  } else {
                    const Function& f = *st.fn;
                    if (f.params().empty()) {
                      throw TypeError(f.name() + "() takes 0 positional arguments but 1 was given");
                    }
                    std::erase_if(st.bound, [](const auto& entry) { return entry.second.instance.expired(); });
                    // The body reaches the instance weakly: it runs only through a
                    // bound value below, which holds the instance.
                    Body body = [b = f.body(), weak = WeakValue(instance)](const std::vector<Value>& a) {
                      std::vector<Value> all;
                      all.reserve(a.size() + 1);
                      all.push_back(weak.lock());
                      all.insert(all.end(), a.begin(), a.end());
                      return b(all);
                    };
                    std::vector<Param> after_self(f.params().begin() + 1, f.params().end());
                    fn = std::make_shared<Function>(f.name(), std::move(after_self), std::move(body), f.options());
                    st.bound[id] = FunctionState::Bound{WeakValue(instance), fn};
                  }
                }
                auto b = std::make_shared<FunctionState>();
                b->fn = std::move(fn);
                b->python_function = st.python_function.is_callable() ? bind_method(st.python_function, instance)
                                                                      : st.python_function;
                b->self = instance;
                return native_object(function_class(), std::move(b));
              }),
       method("get_concrete_function",
              [](const Value& self, std::vector<Value> args, Kwargs kwargs) -> Value {
                const FunctionState& st = *native_state<FunctionState>(self);
                Function& f = *st.fn;
                return concrete_function_value(f.get_concrete_function(std::move(args), std::move(kwargs)));
              }),
       method("pretty_printed_concrete_signatures",
              [](const Value& self, std::vector<Value> args, Kwargs kwargs) -> Value {
                no_arguments("pretty_printed_concrete_signatures", args, kwargs);
                return Value(native_state<FunctionState>(self)->fn->pretty_printed_concrete_signatures());
              }),
       method("experimental_get_tracing_count",
              [](const Value& self, std::vector<Value> args, Kwargs kwargs) -> Value {
                no_arguments("experimental_get_tracing_count", args, kwargs);
                return Value(native_state<FunctionState>(self)->fn->tracing_count());
              }),
       method("experimental_agc_retrace_reasons",
              [](const Value& self, std::vector<Value> args, Kwargs kwargs) -> Value {
                // agc's extension: why each trace after the first was made.
                no_arguments("experimental_agc_retrace_reasons", args, kwargs);
                std::vector<Value> reasons;
                for (std::string& r : native_state<FunctionState>(self)->fn->retrace_reasons()) reasons.emplace_back(std::move(r));
                return Value::list(std::move(reasons));
              }),
       property("python_function", [](const Value& self) { return native_state<FunctionState>(self)->python_function; }),
       property("__name__", [](const Value& self) { return Value(native_state<FunctionState>(self)->fn->name()); }),
       property("input_signature",
                [](const Value& self) {
                  const auto& sig = native_state<FunctionState>(self)->fn->options().input_signature;
                  return sig ? Value::tuple(*sig) : Value();
                }),
       method("__repr__", [](const Value& self, std::vector<Value>, Kwargs) -> Value {
         return Value("<tensorflow.python.eager.polymorphic_function.polymorphic_function.Function object at " +
                      address_text(native_state<FunctionState>(self)) + ">");
       })});
  return cls;
}

Value make_function_value(std::string name, std::vector<Param> params, Body body, FunctionOptions options,
                          Value python_function) {
  auto st = std::make_shared<FunctionState>();
  st->fn = std::make_shared<Function>(std::move(name), std::move(params), std::move(body), std::move(options));
  st->python_function = std::move(python_function);
  return native_object(function_class(), std::move(st));
}

}  // namespace

Value wrap_function(const Value& func, const FunctionOptions& options) {
  if (const FunctionState* st = native_state<FunctionState>(func)) {
    return make_function_value(st->fn->name(), st->fn->params(), st->fn->body(), options, st->python_function);
  }
  if (!func.is_callable() || !func.as_callable().user) {
    throw TypeError("agc: tf.function applies to a Python function defined in the program; got '" +
                    func.type_name() + "' object");
  }
  // The trace runs the conversion (the trace turns AutoGraph on), and
  // run_functions_eagerly the function as written.
  std::shared_ptr<UserFunction> u = func.as_callable().user;
  Body body = [u](const std::vector<Value>& args) { return u->current()(args); };
  return make_function_value(u->name, u->params, std::move(body), options, func);
}

Value function_value(std::shared_ptr<Function> fn) {
  auto st = std::make_shared<FunctionState>();
  st->fn = std::move(fn);
  return native_object(function_class(), std::move(st));
}

Value concrete_function_value(std::shared_ptr<ConcreteFunction> cf) {
  auto st = std::make_shared<ConcreteState>();
  st->cf = std::move(cf);
  return native_object(concrete_function_class(), std::move(st));
}

std::shared_ptr<Function> function_of(const Value& v) {
  const FunctionState* st = native_state<FunctionState>(v);
  return st ? st->fn : nullptr;
}

std::shared_ptr<ConcreteFunction> concrete_function_of(const Value& v) {
  const ConcreteState* st = native_state<ConcreteState>(v);
  return st ? st->cf : nullptr;
}

Value graph_value(std::shared_ptr<const void> owner, const Graph* graph) {
  auto st = std::make_shared<GraphState>();
  st->owner = std::move(owner);
  st->graph = graph;
  return native_object(graph_class(), std::move(st));
}

const Graph* graph_of(const Value& graph) {
  const GraphState* st = native_state<GraphState>(graph);
  return st != nullptr ? st->graph : nullptr;
}

}  // namespace ag
