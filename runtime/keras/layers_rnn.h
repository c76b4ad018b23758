// What the recurrent layers' files share (layers_rnn_cells.cpp: the cells;
// layers_rnn_loop.cpp: the time loop; layers_rnn.cpp: keras.layers.RNN,
// SimpleRNN, GRU and LSTM; layers_rnn_wrappers.cpp: Bidirectional and
// TimeDistributed).
//
// Keras 2.15 runs a recurrent layer through backend.rnn: a tf.while_loop
// over TensorArrays in which each step calls the cell on x[t]. agc runs the
// native cells (SimpleRNNCell, GRUCell, LSTMCell, alone or inside the
// layers) in two parts: the input projection x @ kernel + bias for every
// time step as one product before the loop (equal to Keras's per-step
// products up to float rounding: the bias is added to x @ kernel before
// h @ recurrent_kernel rather than after it), then a loop whose step only
// adds h @ recurrent_kernel to its row of that projection. A user's cell is
// called at each step as Keras calls it.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "runtime/value/user_function.h"
#include "runtime/value/value.h"

namespace ag::keras::rnn {

/// The native cell a layer runs, or Other (any Layer with call() and state_size).
enum class CellKind { SimpleRNN, GRU, LSTM, Other };
CellKind cell_kind(const Value& cell);

/// The cell classes (keras.layers.SimpleRNNCell, GRUCell, LSTMCell).
const Value& simple_rnn_cell_class();
const Value& gru_cell_class();
const Value& lstm_cell_class();

/// A cell's constructor parameters after self, in Keras's order (units,
/// activation, ..., dropout, recurrent_dropout[, reset_after], name,
/// trainable, dtype); the layers take them too.
std::vector<Param> cell_params(CellKind kind);

/// A native cell's settings and its weights' values (read once per layer
/// call, outside the loop), as its step computes with them.
struct CellMath {
  CellKind kind = CellKind::Other;
  int64_t units = 0;
  int gates = 1;  ///< blocks of `units` in the kernels: 1, 3 (GRU) or 4 (LSTM)
  Value activation, recurrent_activation;
  bool use_bias = true;
  bool reset_after = true;
  int implementation = 2;
  double dropout = 0.0, recurrent_dropout = 0.0;
  Value kernel, recurrent_kernel;  ///< [input_dim, gates*units], [units, gates*units]
  Value input_bias;                ///< [gates*units], or None
  Value recurrent_bias;            ///< GRU reset_after: [3*units], else None
  /// recurrent_kernel split per gate (implementation 1 with recurrent dropout),
  /// and GRU reset_after=False's [:, :2u] and [:, 2u:] blocks.
  std::vector<Value> recurrent_parts;
  Value recurrent_zr, recurrent_h;
};
/// Reads `cell`'s weights (it must be built) in the current graph or eagerly.
CellMath cell_math(const Value& cell);

/// The input projection x @ kernel (+ input bias) of rank-2 `xs`: one input
/// (every gate's), or one per gate (implementation 1 with input dropout,
/// each gate's input masked by its own mask).
Value project_inputs(const CellMath& m, const std::vector<Value>& xs);

/// One step from `xw`, the step's row of the projection: (output, new
/// states). `recurrent_masks`: empty, or the recurrent dropout masks (one
/// per gate; Keras's implementation 1 multiplies h by each).
std::pair<Value, std::vector<Value>> cell_step(const CellMath& m, const Value& xw, const std::vector<Value>& states,
                                               const std::vector<Value>& recurrent_masks);

/// The tensors of nested lists and tuples of states, in order (tf.nest.flatten).
void flatten_states(const Value& v, std::vector<Value>& out);
/// keras.layers.StackedRNNCells (the class value): the cell RNN([cells]) makes.
const Value& stacked_cells_class();

/// Keras's _generate_dropout_mask: `count` masks tf.nn.dropout(ones_like(like), rate).
std::vector<Value> dropout_masks(const Value& like, double rate, int count);
/// Whether `training` asks for training-mode behaviour now (a Python bool or
/// an eager tensor; UnimplementedError for a symbolic one).
bool training_on(const Value& training);

// ---- The time loop (Keras's backend.rnn), layers_rnn_loop.cpp.

/// A step: (x_t, states) -> (output, new states).
using StepFn = std::function<std::pair<Value, std::vector<Value>>(const Value&, const std::vector<Value>&)>;

struct LoopArgs {
  Value inputs;  ///< time-major [T, B, ...], already reversed for go_backwards
  Value mask;    ///< None, or time-major bool [T, B, 1], reversed likewise
  std::vector<Value> states;
  bool return_all_outputs = true;
  bool zero_output_for_mask = false;
  /// The step's output is its first new state (the native cells): the last
  /// output of an unmasked loop is then the final state.
  bool output_is_state0 = false;
  /// A Python loop even while tracing (unroll=True; needs a static T).
  bool unroll = false;
};
struct LoopResult {
  Value last_output;
  Value outputs;  ///< time-major [T, B, ...], or None when not all asked for
  std::vector<Value> states;
};
/// Runs `step` over the time steps: eagerly (or unrolled) a C++ loop over the
/// rows of `inputs`; while tracing one While loop reading the rows from a
/// TensorList and writing the outputs to another, so the time dim may be
/// unknown and the loop's gradient is agc's While gradient. With a mask, a
/// masked step keeps the previous states and outputs the previous output
/// (zeros before the first unmasked step, or always with zero_output_for_mask).
LoopResult run_loop(const LoopArgs& args, const StepFn& step);

/// Keras's InputSpec checks (input_spec.assert_input_compatibility) of
/// `layer`'s input shape `s`, with Keras's texts: the rank (`spec`'s length,
/// else `ndim`; -1: none), then `spec`'s dims (a tuple; None entries match
/// any): "Input 0 of layer "lstm" is incompatible with the layer: expected
/// shape=(None, None, 3), found shape=(2, 5, 4)".
void check_spec(const Value& layer, const Shape& s, const Value& spec, int ndim = -1);
/// A TensorShape or tuple of dims as a Shape.
Shape shape_of(const Value& input_shape);

/// Whether `layer` is an instance of a class agc defines (Keras's
/// layer_utils.is_builtin_layer), not of a program's subclass.
bool is_builtin_layer(const Value& layer);

/// Records a native cell's or layer's constructor arguments (`a[0]` self,
/// then one per parameter of `params`, then the **kwargs dict).
void save_constructor_args(const Value& self, const std::vector<Param>& params, const std::vector<Value>& a);
/// The constructor arguments a native recurrent layer was made with
/// (Bidirectional remakes the layer from them, as Keras from its config).
Kwargs constructor_args(const Value& layer);

}  // namespace ag::keras::rnn
