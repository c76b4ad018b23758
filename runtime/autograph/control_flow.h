// AutoGraph's control flow operators (operators/control_flow.py): the
// converted `if` and `while` statements call these. Each dispatches when it
// runs: a tensor condition while a graph is being traced stages an If/While
// node (branches and body traced into child graphs, the state passed through
// get_state/set_state); a Python condition, or any condition in eager mode,
// runs as the plain Python statement would.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/core/shape.h"
#include "runtime/value/value.h"

namespace ag::autograph {

/// The values of the statement's state symbols, in symbol_names order.
using GetState = std::function<std::vector<Value>()>;
/// Assigns the state symbols from values in symbol_names order.
using SetState = std::function<void(const std::vector<Value>&)>;

/// The `opts` dict of while_stmt/for_stmt (tf.autograph.experimental.set_loop_options).
struct LoopOptions {
  /// (symbol name, shape invariant) pairs; AutoGraph keys them by the loop
  /// variable's initial value, the emitter by its name.
  std::vector<std::pair<std::string, Shape>> shape_invariants;
  /// Stop a staged loop after this many iterations; negative: no limit.
  int64_t maximum_iterations = -1;
  /// for_stmt: the loop target as written ('i', '(i, x)').
  std::string iterate_names;
  /// State symbols the body appends to or pops from (targets of
  /// ag__.list_append / ag__.list_pop, known to the emitter): a Python list
  /// there becomes a TensorArray when the loop is staged. (A list the body
  /// only assigns items of keeps its length and stays a list: set_item.)
  std::vector<std::string> list_symbols;
  /// tf.while_loop's checks (while_v2.py) instead of AutoGraph's: symbol
  /// names are the loop variables' tensor names, and a body whose output
  /// changes a shape or dtype gets while_v2's texts.
  bool while_loop_checks = false;
  /// Accepted and ignored, as on CPU (TF's while_loop options).
  int64_t parallel_iterations = -1;
  bool swap_memory = false;
};

/// ag__.if_stmt(cond, if_body, else_body, get_state, set_state, symbol_names, nouts):
/// the first `nouts` state symbols are the statement's outputs.
void if_stmt(const Value& cond, const std::function<void()>& body, const std::function<void()>& orelse,
             const GetState& get_state, const SetState& set_state, const std::vector<std::string>& symbol_names,
             int nouts);

/// ag__.while_stmt(loop_test, loop_body, get_state, set_state, symbol_names, opts).
void while_stmt(const std::function<Value()>& test, const std::function<void()>& body, const GetState& get_state,
                const SetState& set_state, const std::vector<std::string>& symbol_names, const LoopOptions& opts = {});

}  // namespace ag::autograph
