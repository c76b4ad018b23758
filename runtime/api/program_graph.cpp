#include "runtime/api/program_graph.h"

#include "runtime/function/function_value.h"
#include "runtime/graph/dot.h"
#include "runtime/graph/function_def.h"

namespace ag {

namespace {

const char* const kTraceable =
    "it draws a tf.function, a Python function, or an object whose __call__ is one (wrap other calls in a "
    "@tf.function)";

/// True for what agc graph traces: a tf.function, a ConcreteFunction, a
/// Python function (bound methods included).
bool traceable(const Value& v) {
  return function_of(v) || concrete_function_of(v) || (v.is_callable() && v.as_callable().user);
}

/// The trace to draw: `target`'s concrete function for `call`.
std::shared_ptr<ConcreteFunction> trace_of(const Value& target, const std::string& name, CallArguments call) {
  Value f = target;
  if (!traceable(f) && f.is_object() && f.hasattr("__call__")) {
    f = f.getattr("__call__");
    if (!traceable(f)) {
      throw TypeError("'" + name + "' is of type '" + target.type_name() +
                      "', whose __call__ agc graph cannot trace: " + kTraceable);
    }
  }
  if (!traceable(f)) {
    throw TypeError("'" + name + "' is of type '" + target.type_name() + "', which agc graph cannot trace: " +
                    kTraceable);
  }
  if (std::shared_ptr<ConcreteFunction> cf = concrete_function_of(f)) {
    if (!call.args.empty() || !call.kwargs.empty()) {
      throw TypeError("'" + name + "' is a concrete function, traced already: give it no ARGS_JSON");
    }
    return cf;
  }
  // A Python function is traced as tf.function(f) would trace it: its
  // AutoGraph conversion, the functions it calls converted and inlined.
  std::shared_ptr<Function> fn = function_of(f);
  if (!fn) fn = function_of(wrap_function(f, FunctionOptions{}));
  return fn->get_concrete_function(std::move(call.args), std::move(call.kwargs));
}

}  // namespace

bool graph_format_known(const std::string& format) { return format == "dot" || format == "pbtxt"; }

std::string function_graph_text(const Value& target, const std::string& name, CallArguments call,
                                const GraphRequest& request) {
  std::shared_ptr<ConcreteFunction> cf = trace_of(target, name, std::move(call));
  const Graph& g = request.optimized ? cf->optimized_graph() : cf->graph();
  if (request.format == "pbtxt") return graph_def_text(g);
  std::string title = cf->signature_summary();
  title = title.substr(0, title.find('\n'));
  if (request.optimized) title += ", optimized";
  return graph_to_dot(g, title);
}

}  // namespace ag
