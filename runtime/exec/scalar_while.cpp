// See scalar_while.h. The program, for loop variables in registers 0..n-1
// and captures after them:
//   top:  CountDown counter        (only with maximum_iterations)
//         <cond ops>
//         ExitUnless cond_result
//         <body ops>               (each op writes a new register)
//         Move var_i <- result_i   (for each variable the body changes)
//         Jump top
// The body's ops write new registers, so the moves after them see every
// result; a result that is another loop variable (a body that swaps two
// variables) is first copied aside. Where the body no longer reads a
// variable after computing its next value, that op writes the variable's
// register directly instead (ScalarProgram::write_into) and the move goes.
#include "runtime/exec/scalar_while.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/graph/graph.h"
#include "runtime/exec/scalar_program.h"

namespace ag {
namespace {

struct ScalarLoop {
  ScalarProgram program;
  std::vector<DType> input_types;   // per node input: loop variables, then captures
  std::vector<DType> output_types;  // per loop variable
  int counter = -1;                 // int64 register counting maximum_iterations down
  int64_t max_iter = -1;
};

std::optional<ScalarLoop> compile_scalar_loop(const Graph& cond_g, const Graph& body_g, size_t n,
                                              const KernelSpec& s) {
  const size_t cc = cond_g.captures().size(), bc = body_g.captures().size();
  if (s.inputs.size() != n + cc + bc || s.outputs.size() != n) return std::nullopt;
  for (const TensorSpec& t : s.inputs) {
    if (!scalar_register_spec(t)) return std::nullopt;
  }
  ScalarLoop loop;
  for (size_t i = 0; i < n; ++i) {
    // The loop variables as every iteration sees them (a shape invariant may be less specific).
    if (!scalar_register_spec(s.outputs[i]) || s.outputs[i].dtype != s.inputs[i].dtype) return std::nullopt;
    loop.output_types.push_back(s.outputs[i].dtype);
  }
  ScalarProgram& p = loop.program;
  for (const TensorSpec& t : s.inputs) {
    p.add_register(t.dtype);
    loop.input_types.push_back(t.dtype);
  }
  loop.max_iter = s.attrs.get_or<int64_t>("maximum_iterations", -1);
  if (loop.max_iter >= 0) loop.counter = p.add_register(DType::Int64);

  auto args = [&](size_t captures_begin, size_t captures) {
    std::vector<int> r;
    for (size_t i = 0; i < n; ++i) r.push_back(static_cast<int>(i));
    for (size_t j = 0; j < captures; ++j) r.push_back(static_cast<int>(captures_begin + j));
    return r;
  };
  const size_t top = p.size();
  if (loop.counter >= 0) p.add_count_down(loop.counter);
  auto cond = p.add_graph(cond_g, args(n, cc));
  if (!cond || cond->size() != 1 || p.dtype((*cond)[0]) != DType::Bool) return std::nullopt;
  p.add_exit_unless((*cond)[0]);
  const size_t body_begin = p.size();
  auto body = p.add_graph(body_g, args(n + cc, bc));
  if (!body || body->size() != n) return std::nullopt;
  std::vector<int>& results = *body;
  for (size_t i = 0; i < n; ++i) {
    if (p.dtype(results[i]) != loop.output_types[i]) return std::nullopt;
    if (results[i] < static_cast<int>(n) && results[i] != static_cast<int>(i)) {
      const int aside = p.add_register(loop.output_types[i]);
      p.add_move(aside, results[i]);
      results[i] = aside;
    }
  }
  // A result computed after the body's last read of its variable is
  // written straight into the variable's register (no move).
  for (size_t i = 0; i < n; ++i) {
    const int r = results[i];
    if (r == static_cast<int>(i) || !p.write_into(r, static_cast<int>(i), body_begin)) continue;
    for (int& other : results) other = other == r ? static_cast<int>(i) : other;
  }
  for (size_t i = 0; i < n; ++i) {
    if (results[i] != static_cast<int>(i)) p.add_move(static_cast<int>(i), results[i]);
  }
  p.add_jump(top);
  return loop;
}

}  // namespace

Kernel scalar_while_kernel(const Graph& cond_g, const Graph& body_g, size_t n, const KernelSpec& s) {
  std::optional<ScalarLoop> compiled = compile_scalar_loop(cond_g, body_g, n, s);
  if (!compiled) return Kernel();
  auto loop = std::make_shared<const ScalarLoop>(std::move(*compiled));
  return [loop, scalar = Shape{}](KernelContext& k) {
    const ScalarLoop& l = *loop;
    constexpr size_t kInline = 256;
    ScalarReg inline_regs[kInline];
    std::vector<ScalarReg> heap;
    ScalarReg* regs = inline_regs;
    if (l.program.num_registers() > kInline) {
      heap.resize(l.program.num_registers());
      regs = heap.data();
    }
    l.program.init(regs);
    for (size_t j = 0; j < k.inputs.size(); ++j) {
      const Tensor& t = *k.inputs[j];
      if (t.dtype() != l.input_types[j] || t.num_elements() != 1) {
        throw InternalError("While: loop input " + std::to_string(j) + " is not the scalar it was compiled for");
      }
      ScalarProgram::load(regs[j], t);
    }
    if (l.counter >= 0) regs[l.counter].i64 = l.max_iter;
    l.program.run(regs);
    for (size_t i = 0; i < l.output_types.size(); ++i) {
      ScalarProgram::store(k.allocate_output(i, l.output_types[i], scalar), regs[i]);
    }
  };
}

}  // namespace ag
