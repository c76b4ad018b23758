// The While kernel's fast path for loops over scalars: when every loop
// variable and capture is a rank-0 int32/int64/float32/float64/bool and the
// cond and body graphs hold only ops a ScalarProgram runs (elementwise ops with
// a scalar step, fused nodes of them, Const, Identity), the whole loop (maximum_iterations
// count, cond, exit test, body, moving the results into the loop variables)
// compiles to one ScalarProgram over a register file. An iteration then
// touches no Tensor, plan, kernel call or reference count: fizzbuzz's loop
// (cond Less plus a 20-op fused body) runs as ~22 interpreted instructions.
#pragma once

#include "runtime/ops/op_def.h"

namespace ag {

class Graph;

/// The kernel of While node `s` (cond `cond_g`, body `body_g`, `n` loop
/// variables) as one ScalarProgram, or an empty Kernel when the loop does not
/// qualify (the caller then runs the plans). Same results and errors as the
/// plans would give.
Kernel scalar_while_kernel(const Graph& cond_g, const Graph& body_g, size_t n, const KernelSpec& s);

}  // namespace ag
