// `agc explain FILE.py` (and `agc to-code --report`): before anything runs,
// what AutoGraph's rules make of each function and each if/while/for in it.
// AutoGraph decides at trace time: an if whose test is a Tensor becomes
// tf.cond, else it runs as Python; a for over a Tensor, a tf.range or a
// tf.data.Dataset is staged, over a Python iterable it unrolls. So for each
// statement the report says what decides it and what the source shows about
// that value (value_kinds.h), the state the conversion carries through it
// (the passes' ConversionFacts), and the TensorFlow errors its rules raise
// for names undefined on a path, returns and breaks, with TF's own texts.
//
// The format, one block per statement, stable for tools and tests:
//
//   FILE:LINE:COL: <the statement's first line>
//       -> <what it becomes: tf.cond, tf.while_loop, Python, ...>
//       outputs: a, b          (an if; `loop-carried:` for a loop)
//       <topic>: <a fact or a rule, quoting what TF raises>
//
// where each function starts a block the same way (its `def` line), and a
// blank line separates functions.
#pragma once

#include <string>

#include "transpiler/passes/convert_module.h"

namespace agc::report {

/// Makes `request` convert as the report needs: keeping the passes' facts,
/// and converting each function with its decorator's features, as its
/// traces convert it.
void request_report(passes::ModuleRequest& request);

/// The report on the requested functions of `cm`, converted as
/// request_report() asks.
std::string conversion_report(const passes::ConvertedModule& cm);

}  // namespace agc::report
