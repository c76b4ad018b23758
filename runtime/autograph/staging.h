// Internal helpers of the AutoGraph operators: staging tf.cond / tf.while_loop
// from C++ callables into If/While nodes, AutoGraph's checks of the state
// symbols, and nested state (lists, tuples, dicts: value/nest.h) flattened
// to tensors.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/autograph/control_flow.h"
#include "runtime/graph/graph.h"
#include "runtime/value/value.h"

namespace ag::autograph::detail {

/// True when `v` decides staged control flow: a tensor while a graph is traced.
bool staged(const Value& v);

/// The leaves of `v` in tf.nest's order, a TensorArray as its flow.
void flatten(const Value& v, std::vector<Value>& leaves);
/// `structure` rebuilt with leaves[pos...] (new lists, tuples and dicts; a
/// TensorArray from its flow), advancing pos.
Value pack_as(const Value& structure, const std::vector<Value>& leaves, size_t& pos);
/// tf.nest.assert_same_structure's complaint about `a` vs `b`, or "".
std::string structure_mismatch(const Value& a, const Value& b);

/// `v` (tensor or literal) as an output of `g`, capturing outer tensors and
/// adding a Const for eager ones. Call it with `g` current (a list packs).
Output to_output(Graph& g, const Value& v);

/// control_flow._verify_tf_condition: a bool tensor, reshaped to a scalar;
/// ValueError in AutoGraph's words otherwise. `tag`: "if statement", "while loop".
Value verify_tf_condition(const Value& cond, std::string_view tag);

/// control_flow.verify_single_cond_var over the leaves of two branch values.
void verify_cond_var(const std::string& name, const Value& body_var, const Value& orelse_var);

/// tf.cond(pred, true_fn, false_fn) while tracing: each branch traced into a
/// child graph of the current graph, its values converted to tensors; returns
/// the If node's outputs in the true branch's structure. `names` (one per
/// value) name outputs in dtype errors.
using BranchFn = std::function<std::vector<Value>()>;
std::vector<Value> tf_cond(const Value& pred, const BranchFn& true_fn, const BranchFn& false_fn,
                           const std::vector<std::string>& names);
/// tf.cond of single values (lazy and/or, loop tests with extra_test).
Value tf_cond1(const Value& pred, const std::function<Value()>& true_fn, const std::function<Value()>& false_fn,
               const std::string& name = "retval_");

/// control_flow._tf_while_stmt: stages a While node over the state.
void tf_while_stmt(const std::function<Value()>& test, const std::function<void()>& body, const GetState& get_state,
                   const SetState& set_state, const std::vector<std::string>& symbol_names, const LoopOptions& opts);

/// AutoGraph's Python loop guard: ValueError "iteration limit exceeded"
/// after 100000000 iterations.
void count_python_iteration(int64_t& iterations);

}  // namespace ag::autograph::detail
