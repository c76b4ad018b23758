// tf.gradients (TF's gradients_impl.py): symbolic gradients of tensors of
// the graph being built, a TF1 graph or a tf.function's trace. The graph's
// nodes so far are offered in order to a tape watching `xs` (graph/tape.h's
// own rule: a node is recorded when a watched input has a float dtype), and
// the backward walk (graph/gradients.h) adds the gradient nodes under the
// "gradients" name scope, as TF's does.
#include <optional>
#include <vector>

#include "runtime/api/graph_gradients.h"
#include "runtime/api/python_api.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_api_common.h"
#include "runtime/api/tf_call.h"
#include "runtime/graph/gradients.h"
#include "runtime/graph/tape.h"
#include "runtime/value/variable_value.h"
#include "runtime/value/convert.h"

namespace ag::tf {

std::vector<std::optional<TensorHandle>> graph_gradients(Graph& g, std::span<const TensorHandle> targets,
                                                        std::span<const std::optional<TensorHandle>> seeds,
                                                        std::span<const Value> xs) {
  Tape tape(false, false);
  std::vector<GradientSource> sources;
  for (const Value& x : xs) {
    if (x.is_variable()) {
      const ag::Variable& var = *x.as_variable();
      tape.watch_variable(var.id());
      sources.push_back({variable_key(var.id()), {var.dtype(), var.shape()}});
    } else if (x.is_tensor()) {
      const TensorHandle& t = x.as_tensor();
      tape.watch(t);
      sources.push_back({key_of(t), {t.dtype(), t.shape()}});
    } else {
      throw TypeError("xs must hold tensors or variables, got " + repr(x));
    }
  }
  for (const auto& n : g.nodes()) tape.maybe_record(entry_of(*n));
  return compute_gradient(tape.entries(), targets, seeds, sources);
}

namespace impl {
namespace {

std::vector<Value> as_list(const Value& v) {
  if (v.is_list() || v.is_tuple()) return v.items();
  return {v};
}

}  // namespace

Value gradients(const TfCall& c) {
  Graph* g = current_graph();
  if (g == nullptr) {
    throw RuntimeError("tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape instead.");
  }
  if (!c["stop_gradients"].is_none()) throw UnimplementedError("agc: tf.gradients(stop_gradients=...)");
  Value mode = c["unconnected_gradients"];
  if (mode.is_object() && mode.hasattr("value")) mode = mode.getattr("value");
  if (!mode.is_str() || (mode.as_str() != "none" && mode.as_str() != "zero")) {
    throw ValueError("Unknown value for unconnected_gradients: " + repr(mode));
  }

  std::vector<TensorHandle> targets;
  for (const Value& y : as_list(c["ys"])) targets.push_back(to_tensor(y));
  std::vector<std::optional<TensorHandle>> seeds(targets.size());
  if (!c["grad_ys"].is_none()) {
    std::vector<Value> given = as_list(c["grad_ys"]);
    if (given.size() != targets.size()) {
      throw ValueError("Passed " + std::to_string(given.size()) + " grad_ys for " + std::to_string(targets.size()) +
                       " ys");
    }
    for (size_t i = 0; i < given.size(); ++i) {
      if (!given[i].is_none()) seeds[i] = to_tensor(given[i], targets[i].dtype());
    }
  }

  std::vector<Value> xs = as_list(c["xs"]);
  common::NameScope scope(c["name"].as_str());
  std::vector<std::optional<TensorHandle>> grads = graph_gradients(*g, targets, seeds, xs);
  std::vector<Value> out;
  for (size_t i = 0; i < grads.size(); ++i) {
    if (grads[i]) {
      out.emplace_back(*grads[i]);
    } else if (mode.as_str() == "zero") {
      out.push_back(tf::zeros_like(xs[i].is_variable() ? Value(variable_value::read(xs[i])) : xs[i]));
    } else {
      out.emplace_back();
    }
  }
  return Value::list(std::move(out));
}

}  // namespace impl
}  // namespace ag::tf
