// tf.cond, tf.case, tf.switch_case and tf.while_loop (cond.py, cond_v2.py,
// control_flow_case.py, control_flow_switch_case.py, while_loop.py,
// while_v2.py). Eagerly they run as Python does (the branch the predicate
// picks, a Python loop); while a tf.function is traced they stage If and
// While nodes through AutoGraph's staging (autograph/staging.h), the one
// place agc builds them, with TF's own checks and texts.
#include "runtime/autograph/tf_control_flow.h"

#include <algorithm>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "runtime/api/binding.h"
#include "runtime/api/tf_api.h"
#include "runtime/api/tf_call.h"
#include "runtime/autograph/staging.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/convert.h"
#include "runtime/value/nest.h"
#include "runtime/value/tensor_shape_value.h"
#include "runtime/value/tensor_spec_value.h"

namespace ag::tf::control_flow {
namespace {

/// `fn` called with the items of the sequence `args` (Python's fn(*args)).
Value call_unpacked(const Value& fn, const Value& args) {
  return fn(std::vector<Value>(args.items().begin(), args.items().end()));
}

/// A predicate as cond_v2 and while_v2 take it: a tensor, squeezed unless it
/// is known to be a scalar (array_ops.squeeze_v2). agc's If and While need a
/// scalar bool (TF would fail when it lowers the op to Switch/Merge).
Value squeezed_pred(const Value& pred) {
  Value p(to_tensor(pred));
  const Shape s = p.as_tensor().shape();
  if (!s.rank_known() || s.rank() > 0) p = squeeze(p);
  return p;
}

Value checked_cond_pred(const Value& pred) {
  Value p = squeezed_pred(pred);
  const TensorHandle& t = p.as_tensor();
  if (t.dtype() != DType::Bool) {
    throw TypeError(std::string("tf.cond's pred must be a bool tensor, got a ") + dtype_name(t.dtype()) +
                    " tensor; compare it (pred > 0) or use tf.cast");
  }
  if (t.shape().rank_known() && t.shape().rank() != 0) {
    throw ValueError("tf.cond's pred must be a scalar, got shape " + t.shape().str());
  }
  return p;
}

/// The dtype a branch value would have as a tensor, if it has one.
std::optional<DType> leaf_dtype(const Value& v) {
  if (v.is_tensor()) return v.as_tensor().dtype();
  if (v.is_number() || v.is_str()) return infer_literal_dtype(v);
  return std::nullopt;
}

/// The values of the branches of one If or Case, checked against the first
/// branch's as cond_v2._check_same_outputs does (branches trace in order).
class BranchOutputs {
 public:
  explicit BranchOutputs(bool is_cond) : is_cond_(is_cond) {}

  Value check(size_t branch, Value v) {
    if (branch == 0) {
      first_ = v;
      return v;
    }
    if (auto m = nest::structure_mismatch(*first_, v)) fail(branch, v, m->message);
    std::vector<Value> a = nest::flatten(*first_), b = nest::flatten(v);
    for (size_t k = 0; k < a.size() && k < b.size(); ++k) {
      auto da = leaf_dtype(a[k]), db = leaf_dtype(b[k]);
      if (da && db && *da != *db) fail(branch, v, repr(a[k]) + " and " + repr(b[k]) + " have different types");
    }
    return v;
  }

 private:
  [[noreturn]] void fail(size_t branch, const Value& v, const std::string& detail) const {
    const std::string b0 = is_cond_ ? "true_fn" : "branches[0]";
    const std::string bn = is_cond_ ? "false_fn" : "branches[" + std::to_string(branch) + "]";
    throw TypeError(b0 + " and " + bn + " arguments to " + (is_cond_ ? "tf.cond" : "tf.switch_case") +
                    " must have the same number, type, and overall structure of return values.\n\n" + b0 +
                    " output: " + repr(*first_) + "\n" + bn + " output: " + repr(v) + "\n\nError details:\n" +
                    detail);
  }

  bool is_cond_;
  std::optional<Value> first_;
};

/// cond_v2 over an already checked scalar bool predicate. A None in a
/// branch's result is no output of the If (func_graph keeps it in the
/// structure only): a branch returning None (tf.print, say) runs for its
/// effects, and the result is the true branch's structure with None kept.
Value staged_cond(const Value& pred, const std::function<Value()>& true_fn, const std::function<Value()>& false_fn) {
  std::optional<Value> structure;
  auto outputs = [&](const Value& v) {
    if (!structure) structure = v;
    std::vector<Value> leaves;
    for (Value& leaf : nest::flatten(v)) {
      if (!leaf.is_none()) leaves.push_back(std::move(leaf));
    }
    // An If without outputs would be pruned with its effects: a dummy one, as AutoGraph's if_stmt adds.
    if (leaves.empty()) leaves.emplace_back(0);
    return Value::list(std::move(leaves));
  };
  Value out = autograph::detail::tf_cond1(pred, [&] { return outputs(true_fn()); }, [&] { return outputs(false_fn()); });
  size_t pos = 0;
  const std::vector<Value>& items = out.items();
  return nest::map_structure(*structure, [&](const Value& leaf) { return leaf.is_none() ? Value() : items.at(pos++); });
}

// ---- tf.while_loop

/// The loop variables as a list (while_loop's `list(loop_vars)`), or TF's
/// complaint when the value is not a sequence.
Value as_loop_sequence(const Value& v) {
  if (v.is_list() || v.is_tuple()) return v;
  if (v.is_tensor() && v.as_tensor().shape().rank_known() && v.as_tensor().shape().rank() == 0) {
    throw TypeError("Cannot iterate over a scalar tensor.");
  }
  throw TypeError("'" + v.type_name() + "' object is not iterable");
}

std::optional<int64_t> static_iterations(const Value& max) {
  if (max.is_none()) return std::nullopt;
  Value t(to_tensor(max));
  const Shape s = t.as_tensor().shape();
  if (!s.rank_known() || s.rank() != 0) {
    throw ValueError("'maximum_iterations' must be a scalar. Received shape: " + s.str());
  }
  if (t.as_tensor().symbolic()) return std::nullopt;
  return ag::api::int_arg(t, "maximum_iterations");
}

Value eager_while_loop(const Value& cond, const Value& body, const Value& loop_vars, const Value& max) {
  std::optional<int64_t> limit = static_iterations(max);
  // TF compares list(loop_vars) with list(the body's result) after each
  // iteration; with maximum_iterations the loop runs over (counter, loop_vars),
  // so the loop variables' own sequence type must then match too.
  auto compared = [&](const Value& lv) {
    return limit ? Value::list({Value(0), lv}) : Value::list(lv.items());
  };
  const Value structure = compared(loop_vars);
  Value lv = loop_vars;
  for (int64_t counter = 0;; ++counter) {
    // logical_and(i < maximum_iterations, cond(*lv)): cond runs either way.
    bool go = truthy(call_unpacked(cond, lv));
    if (limit && counter >= *limit) go = false;
    if (!go) break;
    lv = as_loop_sequence(call_unpacked(body, lv));
    if (auto m = nest::structure_mismatch(structure, compared(lv))) {
      if (m->type_error) throw TypeError(m->message);
      throw ValueError(m->message);
    }
  }
  return nest::map_structure(lv, [](const Value& leaf) { return leaf.is_tensor_array() ? leaf : Value(to_tensor(leaf)); });
}

/// `structure` with its leaves taken in order from `leaves` starting at `pos`.
Value pack(const Value& structure, const std::vector<Value>& leaves, size_t pos = 0) {
  return nest::map_structure(structure, [&](const Value&) { return leaves.at(pos++); });
}

/// The shape invariants, one per leaf of `loop_vars` (TensorShape or TensorSpec leaves).
std::vector<std::optional<Shape>> flat_invariants(const Value& invariants, const Value& loop_vars, size_t n) {
  std::vector<std::optional<Shape>> out(n);
  if (invariants.is_none()) return out;
  if (auto m = nest::structure_mismatch(loop_vars, invariants, false)) {
    if (m->type_error) throw TypeError(m->message);
    throw ValueError(m->message);
  }
  std::vector<Value> leaves = nest::flatten(invariants);
  for (size_t i = 0; i < n && i < leaves.size(); ++i) {
    if (auto s = tensor_shape_of(leaves[i])) {
      out[i] = *s;
    } else if (auto spec = tensor_spec_of(leaves[i])) {
      out[i] = spec->shape;
    } else {
      throw TypeError("'shape_invariants' must be a TensorShape or TypeSpec. Received: " + repr(leaves[i]));
    }
  }
  return out;
}

Value staged_while_loop(const Value& cond, const Value& body, const Value& loop_vars, const Value& shape_invariants,
                        const Value& max, bool back_prop) {
  Graph& g = *current_graph();
  // The loop variables as tensors of g (TensorArrays stay: staging carries their flow).
  std::vector<Value> flat = nest::flatten(loop_vars);
  std::vector<std::string> names;
  for (Value& leaf : flat) {
    if (leaf.is_tensor_array()) {
      std::vector<Value> flow;
      autograph::detail::flatten(leaf, flow);
      names.push_back(flow[0].as_tensor().output().name());
      continue;
    }
    leaf = Value(autograph::detail::to_output(g, leaf));
    names.push_back(leaf.as_tensor().output().name());
  }
  const Value structure = pack(loop_vars, flat);
  std::vector<std::optional<Shape>> invariants = flat_invariants(shape_invariants, loop_vars, flat.size());
  autograph::LoopOptions opts;
  opts.while_loop_checks = true;
  for (size_t i = 0; i < flat.size(); ++i) {
    if (!invariants[i]) continue;
    const Shape init = flat[i].is_tensor() ? flat[i].as_tensor().shape() : Shape::unknown_rank();
    if (!invariants[i]->is_compatible_with(init)) {
      throw ValueError("The shape invariant specified for " + names[i] +
                       " is not compatible with the initial shape of the loop variable. It enters the loop with "
                       "shape " + init.str() + ", but the specified shape invariant is " + invariants[i]->str() + ".");
    }
    opts.shape_invariants.emplace_back(names[i], *invariants[i]);
  }
  // A limit known now is the While's own; a traced one is a counter variable
  // in front of the loop variables, tested before `cond` (while_v2's wrapped_cond).
  std::optional<int64_t> limit = static_iterations(max);
  const bool counted = !max.is_none() && !limit;
  if (limit) opts.maximum_iterations = *limit;
  std::vector<Value> state;
  if (counted) {
    state.emplace_back(g.constant(Tensor::scalar<int32_t>(0), "loop_counter"));
    names.insert(names.begin(), "loop_counter");
  }
  state.insert(state.end(), flat.begin(), flat.end());
  const size_t first = counted ? 1 : 0;
  auto args = [&] { return pack(structure, state, first); };
  auto test = [&]() -> Value {
    Value pred = squeezed_pred(call_unpacked(cond, args()));
    if (counted) pred = logical_and(Value(state[0] < max), pred);
    return pred;
  };
  auto step = [&] {
    Value out = call_unpacked(body, args());
    if (!nest::is_nested(out)) out = Value::list({out});
    // The legacy while_loop takes a list and a tuple for the same structure.
    if (auto m = nest::structure_mismatch(out, loop_vars, false)) {
      if (m->type_error) throw TypeError(m->message);
      throw ValueError(m->message);
    }
    std::vector<Value> next = nest::flatten(out);
    if (counted) next.insert(next.begin(), state[0] + Value(1));
    state = std::move(next);
  };
  autograph::detail::tf_while_stmt(
      test, step, [&] { return state; }, [&](const std::vector<Value>& v) { state = v; }, names, opts);
  std::vector<Value> outs(state.begin() + static_cast<std::ptrdiff_t>(first), state.end());
  if (!back_prop) {
    for (Value& v : outs) {
      if (v.is_tensor()) v = Value(apply_op1(op::StopGradient, std::vector<TensorHandle>{v.as_tensor()}, {}, "StopGradient"));
    }
  }
  return pack(loop_vars, outs);
}

// ---- tf.switch_case / tf.case

/// The branch functions of tf.switch_case in index order, `default` last
/// (control_flow_switch_case._indexed_case_verify_and_canonicalize_args).
std::vector<Value> indexed_branches(const Value& branch_fns, const Value& default_fn) {
  if (!branch_fns.is_list() && !branch_fns.is_tuple() && !branch_fns.is_dict()) {
    throw TypeError("'branch_fns' must be a list, tuple, or dict");
  }
  std::vector<std::pair<Value, Value>> pairs;
  if (branch_fns.is_dict()) {
    pairs = branch_fns.as_dict().entries;
  } else {
    const auto& items = branch_fns.items();
    if (items.empty()) throw ValueError("Must provide at least one item in 'branch_fns'");
    bool all_callable = std::all_of(items.begin(), items.end(), is_callable);
    for (size_t i = 0; i < items.size(); ++i) {
      if (all_callable) {
        pairs.emplace_back(Value(static_cast<int64_t>(i)), items[i]);
        continue;
      }
      const Value& p = items[i];
      if (!p.is_tuple() || p.items().size() != 2) {
        throw TypeError("Each entry in 'branch_fns' must be a 2-tuple. Received " + str(p) + ".");
      }
      pairs.emplace_back(p.items()[0], p.items()[1]);
    }
  }
  if (pairs.empty()) throw ValueError("Must provide at least one item in 'branch_fns'");
  std::set<int64_t> keys;
  for (const auto& [key, fn] : pairs) {
    if (!key.is_int() || key.is_bool()) throw TypeError("key must be a Python `int`, got <class '" + key.type_name() + "'>");
    if (!is_callable(fn)) throw TypeError("fn for key " + str(key) + " must be callable.");
    keys.insert(key.as_int());
  }
  const auto n = static_cast<int64_t>(pairs.size());
  if (*keys.begin() < 0 || *keys.rbegin() >= n || static_cast<int64_t>(keys.size()) != n) {
    std::vector<int64_t> sorted;
    for (const auto& p : pairs) sorted.push_back(p.first.as_int());
    std::sort(sorted.begin(), sorted.end());
    std::string found;
    for (int64_t k : sorted) found += (found.empty() ? "" : ",") + std::to_string(k);
    throw ValueError("branch indices (keys) must form contiguous range of [0 to " + std::to_string(n) +
                     ") but found {" + found + "}");
  }
  std::vector<Value> actions(pairs.size());
  for (const auto& [key, fn] : pairs) actions[static_cast<size_t>(key.as_int())] = fn;
  if (!default_fn.is_none()) actions.push_back(default_fn);
  return actions;
}

/// Branch `from..` of a Case as nested Ifs on `index == k`; an index out of
/// range runs the last branch, as TF's Case op does.
Value staged_case(const Value& index, const std::vector<Value>& actions, size_t from, BranchOutputs& outs) {
  if (from + 1 == actions.size()) return outs.check(from, actions[from]());
  Value pred = index == Value(static_cast<int64_t>(from));
  return staged_cond(
      pred, [&] { return outs.check(from, actions[from]()); },
      [&] { return staged_case(index, actions, from + 1, outs); });
}

/// An eager Assert's data as _summarize_eager prints eager bool scalars: the
/// first `limit` values, then "..." when there are more.
std::string summarize(const std::vector<Value>& preds, size_t limit) {
  std::string s;
  for (size_t i = 0; i < preds.size() && i < limit; ++i) s += std::string(i ? ", " : "") + (truthy(preds[i]) ? "True" : "False");
  if (preds.size() > limit) s += ", ...";
  return s;
}

/// The InvalidArgumentError of an eager tf.debugging.Assert whose condition is false.
[[noreturn]] void eager_assert_failed(const std::string& message, const std::string& data) {
  throw InvalidArgumentError("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: b'" +
                             message + "'\n" + data);
}

}  // namespace

bool is_callable(const Value& v) {
  if (v.is_callable()) return true;
  if (!v.is_object()) return false;
  try {
    (void)v.getattr("__call__");
    return true;
  } catch (const AttributeError&) {
    return false;
  }
}

Value cond(const Value& pred, const Value& true_fn, const Value& false_fn) {
  if (true_fn.is_none()) throw TypeError("cond(): 'true_fn' argument required");
  if (false_fn.is_none()) throw TypeError("cond(): 'false_fn' argument required");
  if (!is_callable(true_fn)) throw TypeError("'true_fn' must be callable.");
  if (!is_callable(false_fn)) throw TypeError("'false_fn' must be callable.");
  if (current_graph() == nullptr) {
    // _eager_cond_implementation: only the branch the value picks runs.
    return truthy(Value(to_tensor(pred))) ? true_fn() : false_fn();
  }
  if (pred.is_bool()) throw TypeError(std::string("('pred must not be a Python bool', ") + repr(pred) + ")");
  Value p = checked_cond_pred(pred);
  BranchOutputs outs(true);
  return staged_cond(p, [&] { return outs.check(0, true_fn()); }, [&] { return outs.check(1, false_fn()); });
}

Value while_loop(const Value& cond, const Value& body, const Value& loop_vars, const Value& shape_invariants,
                 const Value& maximum_iterations, bool back_prop, int64_t parallel_iterations) {
  if (!truthy(loop_vars)) throw ValueError("'loop_vars' must be provided.");
  if (!is_callable(cond)) throw TypeError("'cond' must be callable.");
  if (!is_callable(body)) throw TypeError("'body' must be callable.");
  if (parallel_iterations < 1) throw TypeError("'parallel_iterations' must be a positive integer.");
  if (!loop_vars.is_list() && !loop_vars.is_tuple()) {
    throw TypeError("tf.while_loop's loop_vars must be a list or tuple (the body is called with *loop_vars), got <class '" +
                    loop_vars.type_name() + "'>");
  }
  if (current_graph() == nullptr) return eager_while_loop(cond, body, loop_vars, maximum_iterations);
  return staged_while_loop(cond, body, loop_vars, shape_invariants, maximum_iterations, back_prop);
}

}  // namespace ag::tf::control_flow

namespace ag::tf::impl {

Value cond(const TfCall& c) { return control_flow::cond(c["pred"], c["true_fn"], c["false_fn"]); }

Value while_loop(const TfCall& c) {
  const Value& pi = c["parallel_iterations"];
  return control_flow::while_loop(c["cond"], c["body"], c["loop_vars"], c["shape_invariants"],
                                  c["maximum_iterations"], truthy(c["back_prop"]),
                                  pi.is_none() ? 10 : ag::api::int_arg(pi, "parallel_iterations"));
}

Value switch_case(const TfCall& c) {
  const Value& index = c["branch_index"];
  std::vector<Value> actions = control_flow::indexed_branches(c["branch_fns"], c["default"]);
  if (!index.is_tensor()) {
    throw TypeError("'branch_index' must be a Tensor, got <class '" + index.type_name() + "'>");
  }
  const DType dt = index.as_tensor().dtype();
  if (!is_integer(dt)) {
    throw TypeError(std::string("'branch_index' must be an integer Tensor, got <dtype: '") + dtype_name(dt) + "'>");
  }
  const auto n = static_cast<int64_t>(actions.size());
  if (current_graph() == nullptr) {
    int64_t k = ag::api::int_arg(index, "branch_index");
    return actions[static_cast<size_t>(k < 0 || k >= n ? n - 1 : k)]();
  }
  control_flow::BranchOutputs outs(false);
  return control_flow::staged_case(index, actions, 0, outs);
}

Value case_(const TfCall& c) {
  const Value& pairs_in = c["pred_fn_pairs"];
  if (!pairs_in.is_list() && !pairs_in.is_tuple() && !pairs_in.is_dict()) {
    throw TypeError("'pred_fn_pairs' must be a list, tuple, or dict. Received: <class '" + pairs_in.type_name() + "'>");
  }
  const bool exclusive = truthy(c["exclusive"]);
  std::vector<std::pair<Value, Value>> pairs;
  if (pairs_in.is_dict()) {
    if (current_graph() == nullptr && !exclusive) {
      throw ValueError("Unordered dictionaries are not supported for the `pred_fn_pairs` argument when "
                       "`exclusive=False` and eager mode is enabled.");
    }
    pairs = pairs_in.as_dict().entries;
  } else {
    for (const Value& p : pairs_in.items()) {
      if (!p.is_tuple() || p.items().size() != 2) {
        throw TypeError("Each entry in 'pred_fn_pairs' must be a 2-tuple. Received " + str(p) + ".");
      }
      pairs.emplace_back(p.items()[0], p.items()[1]);
    }
  }
  for (const auto& [pred, fn] : pairs) {
    if (!pred.is_tensor()) throw TypeError("pred must be a Tensor, got: " + str(pred));
    if (pred.as_tensor().dtype() != DType::Bool) throw TypeError("pred must be Tensor of type bool: " + str(pred.getattr("name")));
    if (!control_flow::is_callable(fn)) throw TypeError("fn for pred " + str(pred.getattr("name")) + " must be callable.");
  }
  if (pairs.empty()) {
    if (c["default"].is_none()) throw ValueError("tf.case needs pred_fn_pairs or a default");
    return c["default"]();
  }
  std::vector<Value> preds;
  for (const auto& p : pairs) preds.push_back(p.first);
  // exclusive=True: TF asserts that at most one predicate holds.
  auto check_exclusive = [&] {
    if (!exclusive) return;
    Value ok = ag::tf::reduce_sum(ag::tf::cast(ag::tf::stack(Value::list(preds)), DType::Int32)) <= Value(1);
    if (current_graph() == nullptr) {
      // Eager tensors have no name: TF's getattr(p, "name", "?").
      std::string names;
      for (size_t i = 0; i < preds.size(); ++i) names += std::string(i ? ", " : "") + "?";
      if (!truthy(ok)) {
        control_flow::eager_assert_failed("Input error: exclusive=True: more than 1 conditions (" + names + ") evaluated as True:",
                            control_flow::summarize(preds, preds.size()));
      }
      return;
    }
    std::string names;
    for (size_t i = 0; i < preds.size(); ++i) names += std::string(i ? ", " : "") + str(preds[i].getattr("name"));
    Graph& g = *current_graph();
    g.add_node(op::Assert,
               {autograph::detail::to_output(g, ok),
                g.constant(Tensor::scalar<std::string>("Input error: exclusive=True: more than 1 conditions (" + names +
                                                       ") evaluated as True:")),
                autograph::detail::to_output(g, ag::tf::stack(Value::list(preds)))},
               Attrs{{"summarize", static_cast<int64_t>(preds.size())}}, "Assert");
  };
  check_exclusive();
  // _case_create_default_action: without a default the last pair is it,
  // asserting its predicate (none of the others held).
  Value default_fn = c["default"];
  std::optional<Value> default_pred;
  if (default_fn.is_none()) {
    default_fn = pairs.back().second;
    default_pred = pairs.back().first;
    pairs.pop_back();
  }
  auto run_default = [&]() -> Value {
    if (default_pred) {
      const std::string msg = "Input error: None of conditions evaluated as True:";
      if (current_graph() == nullptr) {
        if (!truthy(*default_pred)) control_flow::eager_assert_failed(msg, control_flow::summarize(preds, 3));
      } else {
        Graph& g = *current_graph();
        g.add_node(op::Assert,
                   {autograph::detail::to_output(g, *default_pred), g.constant(Tensor::scalar<std::string>(msg)),
                    autograph::detail::to_output(g, ag::tf::stack(Value::list(preds)))},
                   Attrs{{"summarize", int64_t{3}}}, "Assert");
      }
    }
    return default_fn();
  };
  // Nested conds in reverse, so the predicates are tested in order; strict=False
  // unpacks a singleton list or tuple result.
  std::function<Value(size_t)> chain = [&](size_t k) -> Value {
    if (k == pairs.size()) return run_default();
    return control_flow::cond(pairs[k].first, pairs[k].second,
                              Value::callable("case_rest", [&chain, k](std::vector<Value>, Kwargs) { return chain(k + 1); }));
  };
  Value r = chain(0);
  if ((r.is_list() || r.is_tuple()) && r.items().size() == 1) return r.items()[0];
  return r;
}

}  // namespace ag::tf::impl
