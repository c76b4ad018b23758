// Staging of AutoGraph's conditionals and loops (control_flow.py's _tf_if_stmt
// / _tf_while_stmt and their checks) into If/While nodes.
#include "runtime/autograph/staging.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>
#include <span>
#include <utility>

#include "runtime/autograph/list_ops.h"
#include "runtime/autograph/undefined.h"
#include "runtime/core/tensor_list.h"
#include "runtime/graph/control_flow.h"
#include "runtime/graph/tracing.h"
#include "runtime/value/convert.h"
#include "runtime/value/nest.h"
#include "runtime/value/tensor_array.h"

namespace ag::autograph::detail {
namespace {

constexpr int64_t kPythonMaxIterations = 100000000;
constexpr const char* kLegalLoopTypes = "Tensor, int, float, bool or a list, tuple or dict thereof";

/// A literal tf.convert_to_tensor would accept (control_flow's autocast list).
bool is_literal(const Value& v) { return v.is_number() || v.is_str(); }

/// control_flow._is_subshape: `left` at least as specific as `right`.
bool is_subshape(const Shape& left, const Shape& right) {
  if (!right.rank_known()) return true;
  if (!left.rank_known() || left.rank() != right.rank()) return false;
  for (int i = 0; i < right.rank(); ++i) {
    if (right.dim(i) != kUnknownDim && left.dim(i) != right.dim(i)) return false;
  }
  return true;
}

/// Names of the leaves of a state symbol: the name itself for a single leaf.
void leaf_names(const std::string& name, const Value& v, size_t count, std::vector<std::string>& out) {
  if (!nest::is_nested(v) && count == 1) {
    out.push_back(name);
    return;
  }
  for (size_t k = 0; k < count; ++k) out.push_back(name + "[" + std::to_string(k) + "]");
}

/// A placeholder name from a symbol name ("self.count" -> "self_count").
std::string placeholder_name(const std::string& symbol) {
  std::string s;
  for (char c : symbol) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  while (!s.empty() && s.front() == '_') s.erase(s.begin());
  while (!s.empty() && s.back() == '_') s.pop_back();
  return s.empty() ? std::string("loop_var") : s;
}

// ---- while loop checks (control_flow.verify_loop_init_vars / verify_tf_loop_vars).

void verify_loop_init_vars(const std::vector<Value>& init, const std::vector<std::string>& names,
                           const std::optional<std::vector<Value>>& first_iter, const std::string& extra_message) {
  for (size_t i = 0; i < names.size(); ++i) {
    const Value& val = init[i];
    if (is_undefined_return(val)) {
      Value fi = first_iter ? (*first_iter)[i] : Value();
      if (!fi.is_none()) {
        throw ValueError(std::string("the return value from a TensorFlow loop may only be a ") + kLegalLoopTypes +
                         "; got <class '" + fi.type_name() + "'>");
      }
      throw NotImplementedError(
          "a return statement cannot be placed inside this TensorFlow loop; this may happen if a return statement "
          "depends on a static Python condition such as a hyperparameter");
    }
    if (val.is_none()) throw ValueError("'" + names[i] + "' is not allowed to be None before the loop");
    if (is_undefined(val)) {
      std::string msg = "'" + names[i] + "' must be defined before the loop";
      if (!extra_message.empty()) msg += "\n" + extra_message;
      throw ValueError(msg);
    }
  }
}

/// control_flow._placeholder_value of one leaf: a zero value like the first
/// iteration's value of a symbol undefined before the loop, and the shape
/// invariant it needs.
std::pair<Value, std::optional<Shape>> placeholder_value(const Value& like, const std::optional<Shape>& invariant,
                                                         const Value& original) {
  if (is_none_or_undef(like)) return {original, std::nullopt};
  if (like.is_bool()) return {Value(false), std::nullopt};
  if (like.is_int()) return {Value(0), std::nullopt};
  if (like.is_float()) return {Value(0.0), std::nullopt};
  if (like.is_tensor()) {
    const TensorHandle& t = like.as_tensor();
    Shape shape = t.shape();
    Shape like_shape = invariant ? *invariant : shape;
    if (!like_shape.rank_known()) return {Value(Tensor::zeros(t.dtype(), Shape{})), like_shape};
    if (!shape.rank_known()) shape = like_shape;
    std::vector<int64_t> dims;
    bool dynamic = false;
    for (int k = 0; k < shape.rank(); ++k) {
      int64_t like_dim = k < like_shape.rank() && like_shape.dim(k) != kUnknownDim ? like_shape.dim(k) : 0;
      if (shape.dim(k) == kUnknownDim) {
        dims.push_back(like_dim);
        dynamic = true;
      } else {
        dims.push_back(shape.dim(k));
      }
    }
    Value zeros(Tensor::zeros(t.dtype(), Shape(std::span<const int64_t>(dims))));
    return {zeros, dynamic ? std::optional<Shape>(like_shape) : std::nullopt};
  }
  throw TypeError("Found an unsupported type '" + like.type_name() + "' while creating placeholder for " + str(like) +
                  ". Supported types include Tensor, int, float, bool, list, tuple or dict.");
}

/// The Python literals among the leaves of `v` as placeholders of their
/// converted type.
Value autocast_to_tensor(Graph& tmp, const Value& v) {
  return nest::map_structure(v, [&](const Value& leaf) {
    if (!is_literal(leaf)) return leaf;
    TensorHandle h = to_tensor(leaf);
    return Value(tmp.placeholder({h.dtype(), h.shape()}, "Placeholder"));
  });
}

/// control_flow._try_handling_undefineds: stages one iteration in a scratch
/// graph to learn the types of symbols undefined before the loop, and
/// replaces them with zero values (structures of them when the loop makes a
/// list, tuple or dict), with the shape invariants their leaves need in
/// `extra` (per symbol, per leaf). Returns whether that staging succeeded.
bool try_handling_undefineds(const std::function<void()>& body, const GetState& get_state, const SetState& set_state,
                             std::vector<Value>& init, const std::vector<bool>& nulls,
                             const std::vector<std::optional<Shape>>& invariants,
                             const std::vector<std::string>& names,
                             std::vector<std::vector<std::optional<Shape>>>& extra) {
  Graph tmp("tmp", current_graph());  // outlives first_iter, whose tensors live in it
  bool success = false;
  bool modified = false;
  std::optional<std::vector<Value>> first_iter;
  std::string failure;
  extra.assign(init.size(), {});
  auto fail = [&](const Error& e) {
    failure = std::string("Note: AutoGraph tried to define it automatically, but ran into a ") + e.type_name() +
              ": " + e.what();
  };
  try {
    {
      TraceScope scope(tmp);
      std::vector<Value> autocast;
      for (const Value& v : init) autocast.push_back(autocast_to_tensor(tmp, v));
      set_state(autocast);
      modified = true;
      body();
      first_iter = get_state();
    }
    std::vector<Value> new_init = init;
    for (size_t i = 0; i < init.size(); ++i) {
      if (!nulls[i]) continue;
      const Value& like = (*first_iter)[i];
      if (!nest::is_nested(like)) {
        auto [value, invariant] = placeholder_value(like, invariants[i], init[i]);
        new_init[i] = std::move(value);
        extra[i] = {std::move(invariant)};
        continue;
      }
      new_init[i] = nest::map_structure(like, [&](const Value& leaf) {
        auto [value, invariant] = placeholder_value(leaf, std::nullopt, Value());
        extra[i].push_back(std::move(invariant));
        return value;
      });
    }
    init = std::move(new_init);
    success = true;
  } catch (const UnboundLocalError& e) {
    fail(e);
  } catch (const TypeError& e) {
    fail(e);
  } catch (const ValueError& e) {
    fail(e);
  } catch (const KeyError& e) {
    fail(e);
  }
  if (modified) set_state(init);
  verify_loop_init_vars(init, names, first_iter, failure);
  return success;
}

/// control_flow._verify_single_loop_var on one leaf; `exit_out` is the leaf
/// already converted in the body graph.
void verify_single_loop_var(const std::string& name, const TensorSpec& init, const TensorSpec& entry,
                            const TensorSpec& exit, const std::optional<Shape>& invariant) {
  if (entry.dtype != exit.dtype) {
    throw TypeError("'" + name + "' has dtype " + dtype_name(entry.dtype) + " before the loop, but dtype " +
                    dtype_name(exit.dtype) + " after one iteration");
  }
  if (!invariant) {
    if (!is_subshape(exit.shape, entry.shape)) {
      throw ValueError("'" + name + "' has shape " + entry.shape.str() + " before the loop, but shape " +
                       exit.shape.str() +
                       " after one iteration. Use tf.autograph.experimental.set_loop_options to set shape "
                       "invariants.");
    }
    return;
  }
  if (!is_subshape(init.shape, *invariant)) {
    throw ValueError("'" + name + "' has shape " + init.shape.str() +
                     " before the loop, which does not conform with the shape invariant " + invariant->str() + ".");
  }
  if (!is_subshape(exit.shape, *invariant)) {
    throw ValueError("'" + name + "' has shape " + exit.shape.str() +
                     " after one iteration, which does not conform with the shape invariant " + invariant->str() +
                     ".");
  }
}

/// while_v2's checks of one loop variable after the body: its shape against
/// the invariant (the entry shape when none was given), then (for all
/// variables, after every shape) its dtype, kept in `dtype_error`.
void verify_while_loop_var(const std::string& name, const TensorSpec& entry, const TensorSpec& exit,
                           const std::optional<Shape>& invariant, std::string& dtype_error) {
  const Shape& allowed = invariant ? *invariant : entry.shape;
  if (!is_subshape(exit.shape, allowed)) {
    throw ValueError("Input tensor `" + name + "` enters the loop with shape " + allowed.str() +
                     ", but has shape " + exit.shape.str() +
                     " after one iteration. To allow the shape to vary across iterations, use the "
                     "`shape_invariants` argument of tf.while_loop to specify a less-specific shape.");
  }
  if (entry.dtype != exit.dtype && dtype_error.empty()) {
    dtype_error = "Loop var " + name + " enters the loop with type <dtype: '" + dtype_name(entry.dtype) +
                  "'> but has type <dtype: '" + dtype_name(exit.dtype) + "'> after 1 iteration. " + name +
                  " type should remain constant.";
  }
}

/// A TensorArray after a loop has what the body's writes taught it: the
/// element dtype (a converted empty list learns it on its first append) and the
/// element shape, when that is compatible with the one before the loop.
void refine_tensor_arrays(const Value& after, const Value& exit) {
  std::vector<Value> al = nest::flatten(after), el = nest::flatten(exit);
  for (size_t k = 0; k < al.size() && k < el.size(); ++k) {
    if (!al[k].is_tensor_array() || !el[k].is_tensor_array()) continue;
    TensorArrayObj& a = al[k].as_tensor_array();
    const TensorArrayObj& e = el[k].as_tensor_array();
    if (a.dtype == DType::Variant) a.dtype = e.dtype;
    if (a.element_shape.is_compatible_with(e.element_shape)) a.element_shape = merge_shapes(a.element_shape, e.element_shape);
  }
}

Value reshape_scalar(const Value& cond) {
  Tensor shape(DType::Int32, Shape{0});
  TensorHandle args[] = {cond.as_tensor(), TensorHandle(shape)};
  return Value(apply_op1(op::Reshape, args, {}, "Reshape"));
}

}  // namespace

bool staged(const Value& v) { return v.is_tensor() && current_graph() != nullptr; }

void flatten(const Value& v, std::vector<Value>& leaves) {
  for (Value& leaf : nest::flatten(v)) {
    if (!leaf.is_tensor_array()) {
      leaves.push_back(std::move(leaf));
      continue;
    }
    // A TensorArray travels as its flow (TF's TensorArraySpec).
    const TensorArrayObj& ta = leaf.as_tensor_array();
    if (!ta.graph()) {
      throw TypeError("a TensorArray created eagerly cannot be a loop or branch variable of a staged statement; "
                      "create it inside the tf.function");
    }
    leaves.emplace_back(*ta.flow);
  }
}

Value pack_as(const Value& structure, const std::vector<Value>& leaves, size_t& pos) {
  return nest::map_structure(structure, [&](const Value& like) {
    if (pos >= leaves.size()) throw InternalError("pack_as: too few leaves for the structure");
    const Value& leaf = leaves[pos++];
    if (like.is_tensor_array()) return tensor_array::with_flow(like, leaf.as_tensor());
    return leaf;
  });
}

std::string structure_mismatch(const Value& a, const Value& b) {
  std::optional<nest::Mismatch> m = nest::structure_mismatch(a, b);
  return m ? m->message : "";
}

Output to_output(Graph& g, const Value& v) {
  TensorHandle h = to_tensor(v);
  if (h.symbolic()) return g.capture(h.output());
  return g.constant(h.value());
}

Value verify_tf_condition(const Value& cond, std::string_view tag) {
  Value c = cond.is_tensor() ? cond : Value(to_tensor(cond));
  const std::string hint = "to check for None, use `is not None`";
  const TensorHandle& t = c.as_tensor();
  if (t.dtype() != DType::Bool) {
    throw ValueError("condition of " + std::string(tag) + " expected to be `tf.bool` scalar, got " + str(c) +
                     "; to use as boolean Tensor, use `tf.cast`; " + hint);
  }
  Shape s = t.shape();
  if (!s.rank_known()) return reshape_scalar(c);
  if (s.rank() == 0) return c;
  int64_t known = 1;
  for (int i = 0; i < s.rank(); ++i) {
    if (s.dim(i) != kUnknownDim) known *= s.dim(i);
  }
  if (known > 1) {
    throw ValueError("condition of " + std::string(tag) + " expected to be `tf.bool` scalar, got " + str(c) + "; " +
                     hint);
  }
  return reshape_scalar(c);
}

void verify_cond_var(const std::string& name, const Value& body_var, const Value& orelse_var) {
  std::vector<Value> bl, ol;
  flatten(body_var, bl);
  flatten(orelse_var, ol);
  for (size_t i = 0; i < bl.size() && i < ol.size(); ++i) {
    const Value& b = bl[i];
    const Value& o = ol[i];
    if (b.is_none()) throw ValueError("'" + name + "' is None at the end of the main branch.");
    if (o.is_none()) throw ValueError("'" + name + "' is None at the end of the else branch.");
    auto dtype_of = [](const Value& v) -> std::optional<DType> {
      if (v.is_tensor()) return v.as_tensor().dtype();
      if (is_literal(v)) return infer_literal_dtype(v);
      return std::nullopt;
    };
    auto bt = dtype_of(b), ot = dtype_of(o);
    if (bt && ot && *bt != *ot) {
      throw TypeError("'" + name + "' has dtype " + dtype_name(*bt) + " in the main branch, but dtype " +
                      dtype_name(*ot) + " in the else branch");
    }
  }
}

std::vector<Value> tf_cond(const Value& pred, const BranchFn& true_fn, const BranchFn& false_fn,
                           const std::vector<std::string>& names) {
  Graph& g = *current_graph();
  // Trace both branches first (AutoGraph checks the pair after the second),
  // then convert their values to the branch graphs' outputs.
  auto trace = [&](const char* graph_name, const BranchFn& fn, std::vector<Value>& vals) {
    auto bg = std::make_shared<Graph>(graph_name, &g);
    TraceScope scope(*bg);
    vals = fn();
    return bg;
  };
  auto convert = [](Graph& bg, const std::vector<Value>& vals) {
    TraceScope scope(bg);
    std::vector<Value> leaves;
    for (const Value& v : vals) flatten(v, leaves);
    for (const Value& leaf : leaves) bg.outputs().push_back(to_output(bg, leaf));
  };
  std::vector<Value> tv, fv;
  auto then_g = trace("cond_true", true_fn, tv);
  auto else_g = trace("cond_false", false_fn, fv);
  std::string mismatch = tv.size() == fv.size() ? "" : "different numbers of values";
  for (size_t i = 0; mismatch.empty() && i < tv.size(); ++i) mismatch = structure_mismatch(tv[i], fv[i]);
  if (!mismatch.empty()) {
    throw ValueError(
        "true_fn and false_fn arguments to tf.cond must have the same number, type, and overall structure of "
        "return values.\n\n" + mismatch);
  }
  convert(*then_g, tv);
  convert(*else_g, fv);
  std::vector<std::string> out_names;
  for (size_t i = 0; i < tv.size(); ++i) {
    std::vector<Value> leaves;
    flatten(tv[i], leaves);
    leaf_names(i < names.size() ? names[i] : "retval_", tv[i], leaves.size(), out_names);
  }
  Node* node = add_if(g, to_output(g, pred), {}, then_g, else_g, out_names);
  std::vector<Value> outs;
  for (size_t i = 0; i < node->outputs.size(); ++i) outs.emplace_back(node->output(static_cast<int>(i)));
  std::vector<Value> result;
  size_t pos = 0;
  for (const Value& v : tv) result.push_back(pack_as(v, outs, pos));
  return result;
}

Value tf_cond1(const Value& pred, const std::function<Value()>& true_fn, const std::function<Value()>& false_fn,
               const std::string& name) {
  return tf_cond(
      pred, [&] { return std::vector<Value>{true_fn()}; }, [&] { return std::vector<Value>{false_fn()}; },
      {name})[0];
}

void tf_while_stmt(const std::function<Value()>& test, const std::function<void()>& body, const GetState& get_state,
                   const SetState& set_state, const std::vector<std::string>& names, const LoopOptions& opts) {
  Graph& g = *current_graph();
  std::vector<Value> init = get_state();
  const size_t n = init.size();
  if (names.size() != n) {
    throw InternalError("while_stmt: get_state returned " + std::to_string(n) + " values for " +
                        std::to_string(names.size()) + " symbol names");
  }
  // Python lists the body appends to or pops from become TensorArrays (a
  // staged loop cannot change its variables' structure).
  bool converted = false;
  for (size_t i = 0; i < n; ++i) {
    if (init[i].is_list() && std::find(opts.list_symbols.begin(), opts.list_symbols.end(), names[i]) !=
                                 opts.list_symbols.end()) {
      init[i] = list_as_tensor_array(init[i]);
      converted = true;
    }
  }
  if (converted) set_state(init);
  std::vector<std::optional<Shape>> invariants(n);
  for (const auto& [name, shape] : opts.shape_invariants) {
    for (size_t i = 0; i < n; ++i) {
      if (names[i] == name) invariants[i] = shape;
    }
  }
  std::vector<bool> nulls(n);
  bool any_null = false;
  std::vector<bool> undefined_return_at_entry(n);
  for (size_t i = 0; i < n; ++i) {
    any_null |= (nulls[i] = is_none_or_undef(init[i]));
    undefined_return_at_entry[i] = is_undefined_return(init[i]);
  }
  bool require_one_iteration = false;
  // Per symbol, the invariants its leaves need (try_handling_undefineds).
  std::vector<std::vector<std::optional<Shape>>> extra(n);
  if (any_null) {
    require_one_iteration =
        try_handling_undefineds(body, get_state, set_state, init, nulls, invariants, names, extra);
  }

  // The loop variables: the state's leaves as tensors of g (plus, first, the
  // "iterated at least once" flag when some symbol is defined by the loop).
  std::vector<Output> init_outs;
  std::vector<std::string> flat_names;
  std::vector<std::optional<Shape>> flat_invariants;
  if (require_one_iteration) {
    init_outs.push_back(g.constant(Tensor::scalar<bool>(false)));
    flat_names.push_back("<internal iterated once>");
    flat_invariants.emplace_back();
  }
  for (size_t i = 0; i < n; ++i) {
    std::vector<Value> leaves;
    flatten(init[i], leaves);
    for (const Value& leaf : leaves) {
      init_outs.push_back(to_output(g, leaf));
    }
    leaf_names(names[i], init[i], leaves.size(), flat_names);
    bool single = !nest::is_nested(init[i]) && leaves.size() == 1;
    for (size_t k = 0; k < leaves.size(); ++k) {
      std::optional<Shape> leaf_invariant = single ? invariants[i] : std::nullopt;
      if (!leaf_invariant && k < extra[i].size()) leaf_invariant = extra[i][k];
      flat_invariants.push_back(std::move(leaf_invariant));
    }
  }
  const size_t first_var = require_one_iteration ? 1 : 0;

  // The subgraphs take the loop variables as placeholders (the invariant's shape, if any).
  auto enter = [&](Graph& sg) {
    std::vector<Value> phs;
    for (size_t j = 0; j < init_outs.size(); ++j) {
      TensorSpec spec = init_outs[j].spec();
      if (flat_invariants[j]) spec.shape = *flat_invariants[j];
      phs.emplace_back(sg.placeholder(spec, placeholder_name(flat_names[j])));
    }
    std::vector<Value> entry;
    size_t pos = first_var;
    for (size_t i = 0; i < n; ++i) entry.push_back(pack_as(init[i], phs, pos));
    return entry;
  };

  // On an error, the symbols go back to their values before the loop (not
  // tensors of the discarded subgraphs).
  struct Restore {
    const SetState& set_state;
    const std::vector<Value>& values;
    bool armed = true;
    ~Restore() {
      if (armed) set_state(values);
    }
  } restore{set_state, init};
  auto cond_g = std::make_shared<Graph>("while_cond", &g);
  {
    TraceScope scope(*cond_g);
    set_state(enter(*cond_g));
    Value c = verify_tf_condition(test(), "while loop");
    cond_g->outputs() = {to_output(*cond_g, c)};
  }
  auto body_g = std::make_shared<Graph>("while_body", &g);
  std::vector<Value> exit;
  {
    TraceScope scope(*body_g);
    std::vector<Value> entry = enter(*body_g);
    set_state(entry);
    body();
    exit = get_state();
    if (exit.size() != n) throw InternalError("while_stmt: get_state changed its number of values");
    std::vector<Output> outs;
    std::string dtype_error;  // while_loop_checks: raised after every shape was checked
    if (require_one_iteration) outs.push_back(body_g->constant(Tensor::scalar<bool>(true)));
    size_t leaf = first_var;
    for (size_t i = 0; i < n; ++i) {
      std::string m = structure_mismatch(init[i], entry[i]);
      if (m.empty()) m = structure_mismatch(entry[i], exit[i]);
      if (!m.empty()) {
        throw TypeError("'" + names[i] + "' does not have the same nested structure after one iteration.\n\n" + m);
      }
      std::vector<Value> entry_leaves, exit_leaves;
      flatten(entry[i], entry_leaves);
      flatten(exit[i], exit_leaves);
      for (size_t k = 0; k < exit_leaves.size(); ++k, ++leaf) {
        if (exit_leaves[k].is_none()) throw ValueError("'" + names[i] + "' is None at the end of the iteration.");
        Output out = to_output(*body_g, exit_leaves[k]);
        const TensorSpec entry_spec = entry_leaves[k].as_tensor().output().spec();
        if (opts.while_loop_checks) {
          verify_while_loop_var(names[i], entry_spec, out.spec(), flat_invariants[leaf], dtype_error);
        } else {
          verify_single_loop_var(names[i], init_outs[leaf].spec(), entry_spec, out.spec(), flat_invariants[leaf]);
        }
        outs.push_back(out);
      }
    }
    if (!dtype_error.empty()) throw TypeError(dtype_error);
    body_g->outputs() = std::move(outs);
  }

  WhileOptions wopts;
  wopts.names = flat_names;
  wopts.shape_invariants = flat_invariants;
  wopts.maximum_iterations = opts.maximum_iterations;
  Node* loop = add_while(g, init_outs, cond_g, body_g, wopts);
  restore.armed = false;
  if (require_one_iteration) {
    // TF asserts at run time that the loop ran (output 0): the symbols it
    // defines would otherwise hold the zeros they were started with.
    std::string var_names;
    for (size_t i = 0; i < n; ++i) {
      if (!nulls[i]) continue;
      var_names += (var_names.empty() ? "" : ", ") +
                   (undefined_return_at_entry[i] ? std::string("the function return value") : names[i]);
    }
    g.add_node(op::Assert,
               {loop->output(0), g.constant(Tensor::scalar<std::string>(
                                     "loop must iterate at least once to initialize " + var_names))},
               Attrs{{"summarize", int64_t{3}}}, "Assert");
  }
  std::vector<Value> outs;
  for (size_t j = first_var; j < loop->outputs.size(); ++j) outs.emplace_back(loop->output(static_cast<int>(j)));
  std::vector<Value> final_vars;
  size_t pos = 0;
  for (size_t i = 0; i < n; ++i) {
    final_vars.push_back(pack_as(init[i], outs, pos));
    refine_tensor_arrays(final_vars.back(), exit[i]);
  }
  set_state(final_vars);
}

void count_python_iteration(int64_t& iterations) {
  if (++iterations > kPythonMaxIterations) throw ValueError("iteration limit exceeded");
}

}  // namespace ag::autograph::detail
