// ScalarProgram (see scalar_program.h). An op instruction's step is the op's
// own (ElementwiseDef::scalar), so each op computes exactly what its kernel
// computes: integer arithmetic wraps, integer division by zero fails with the
// kernels' error, floor division and modulo round as Python's, Maximum and
// Minimum propagate NaN. The program only adds the control instructions.
#include "runtime/exec/scalar_program.h"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/core/tensor.h"
#include "runtime/graph/graph.h"
#include "runtime/ops/op_def.h"

namespace ag {
namespace {

// ---- control instructions (an op's step continues to the next itself)

const ScalarIns* return_step(ScalarReg*, const ScalarIns*) { return nullptr; }

const ScalarIns* move_step(ScalarReg* r, const ScalarIns* pc) {
  r[pc->dst] = r[pc->a];
  return pc[1].step(r, pc + 1);
}

const ScalarIns* exit_unless_step(ScalarReg* r, const ScalarIns* pc) {
  if (!r[pc->a].b) return nullptr;
  return pc[1].step(r, pc + 1);
}

const ScalarIns* count_down_step(ScalarReg* r, const ScalarIns* pc) {
  if (r[pc->a].i64 == 0) return nullptr;
  --r[pc->a].i64;
  return pc[1].step(r, pc + 1);
}

/// Back to the driver loop, which continues at the target: a loop's
/// iterations never nest native frames.
const ScalarIns* jump_step(ScalarReg*, const ScalarIns* pc) { return pc + pc->jump; }

uint16_t reg_index(int r) {
  if (r < 0 || r > 0xffff) throw InternalError("ScalarProgram: register index out of range");
  return static_cast<uint16_t>(r);
}

}  // namespace

bool scalar_register_spec(const TensorSpec& s) {
  return s.shape.rank_known() && s.shape.rank() == 0 && scalar_register_dtype(s.dtype);
}

struct ScalarProgram::Impl {
  /// Always ends with a Return.
  std::vector<ScalarIns> code{ScalarIns{return_step}};
  /// Per instruction: how many of a, b, c it reads, and whether it writes dst.
  struct Access {
    uint8_t reads = 0;
    bool writes_dst = false;
    bool writes_a = false;  // CountDown decrements its operand
  };
  std::vector<Access> access{Access{}};
  std::vector<DType> regs;
  std::vector<std::pair<int, ScalarReg>> constants;

  void append(ScalarIns i, Access a) {
    code.insert(code.end() - 1, i);
    access.insert(access.end() - 1, a);
  }
};

ScalarProgram::ScalarProgram() : impl_(std::make_unique<Impl>()) {}
ScalarProgram::~ScalarProgram() = default;
ScalarProgram::ScalarProgram(ScalarProgram&&) noexcept = default;
ScalarProgram& ScalarProgram::operator=(ScalarProgram&&) noexcept = default;

int ScalarProgram::add_register(DType t) {
  if (!scalar_register_dtype(t)) throw InternalError(std::string("ScalarProgram: no registers of ") + dtype_name(t));
  impl_->regs.push_back(t);
  const int r = static_cast<int>(impl_->regs.size() - 1);
  reg_index(r);
  return r;
}

int ScalarProgram::add_constant(const Tensor& value) {
  if (value.num_elements() != 1) throw InternalError("ScalarProgram: a constant must have one element");
  const int r = add_register(value.dtype());
  ScalarReg v{};
  load(v, value);
  impl_->constants.emplace_back(r, v);
  return r;
}

int ScalarProgram::add_op(const OpDef& op, std::span<const int> operands) {
  const ElementwiseDef* e = op.elementwise;
  if (e == nullptr || static_cast<int>(operands.size()) != e->arity) return -1;
  DType in[3];
  for (size_t j = 0; j < operands.size(); ++j) in[j] = dtype(operands[j]);
  // A Select's condition is bool and its values agree; other ops' operands agree.
  const size_t first_value = e->arity == 3 ? 1 : 0;
  if (e->arity == 3 && in[0] != DType::Bool) return -1;
  for (size_t j = first_value + 1; j < operands.size(); ++j) {
    if (in[j] != in[first_value]) return -1;
  }
  const ScalarStep step = e->scalar_for(in[first_value]);
  if (step == nullptr) return -1;
  const int dst = add_register(e->result(in[first_value]));
  ScalarIns i{step, reg_index(dst)};
  uint16_t* fields[3] = {&i.a, &i.b, &i.c};
  for (size_t j = 0; j < operands.size(); ++j) *fields[j] = reg_index(operands[j]);
  impl_->append(i, {static_cast<uint8_t>(operands.size()), true, false});
  return dst;
}

std::optional<std::vector<int>> ScalarProgram::add_graph(const Graph& g, std::span<const int> args) {
  if (g.inputs().size() != args.size()) return std::nullopt;
  std::vector<std::vector<int>> regs(g.nodes().size());  // per node, per output; -1: not usable
  for (size_t i = 0; i < args.size(); ++i) regs[static_cast<size_t>(g.inputs()[i]->id)] = {args[i]};
  auto reg_of = [&](const Output& o) -> int {
    if (o.node->graph != &g) return -1;
    const auto& r = regs[static_cast<size_t>(o.node->id)];
    return static_cast<size_t>(o.index) < r.size() ? r[static_cast<size_t>(o.index)] : -1;
  };
  for (const auto& node : g.nodes()) {
    const Node& m = *node;
    auto& out = regs[static_cast<size_t>(m.id)];
    const OpRole role = m.op->role();
    if (role == OpRole::Argument) {
      if (out.empty()) return std::nullopt;  // a placeholder that is not one of g's inputs
      continue;
    }
    if (m.stateful() || !m.control_inputs.empty()) return std::nullopt;
    if (role == OpRole::Constant) {
      // A constant no scalar op can read stays unusable rather than failing the program.
      out = {scalar_register_spec(m.outputs[0]) ? add_constant(m.attrs.get<Tensor>("value")) : -1};
      continue;
    }
    for (const TensorSpec& o : m.outputs) {
      if (!scalar_register_spec(o)) return std::nullopt;
    }
    std::vector<int> in;
    for (const Output& o : m.inputs) {
      const int r = reg_of(o);
      if (r < 0 || !scalar_register_spec(o.spec())) return std::nullopt;
      in.push_back(r);
    }
    if (role == OpRole::Identity) {
      out = in;
    } else if (role == OpRole::Fused) {
      auto body = add_graph(*m.subgraphs[0], in);
      if (!body) return std::nullopt;
      out = std::move(*body);
    } else if (role == OpRole::Compute && m.outputs.size() == 1) {
      const int r = add_op(*m.op, in);
      if (r < 0) return std::nullopt;
      out = {r};
    } else {
      return std::nullopt;
    }
    if (out.size() != m.outputs.size()) return std::nullopt;
    for (size_t k = 0; k < out.size(); ++k) {
      if (dtype(out[k]) != m.outputs[k].dtype) return std::nullopt;
    }
  }
  std::vector<int> results;
  for (const Output& o : g.outputs()) {
    const int r = reg_of(o);
    if (r < 0) return std::nullopt;
    results.push_back(r);
  }
  return results;
}

void ScalarProgram::add_move(int dst, int src) {
  if (dtype(dst) != dtype(src)) throw InternalError("ScalarProgram: move between registers of different dtypes");
  impl_->append(ScalarIns{move_step, reg_index(dst), reg_index(src)}, {1, true, false});
}

void ScalarProgram::add_exit_unless(int cond) {
  if (dtype(cond) != DType::Bool) throw InternalError("ScalarProgram: exit condition is not bool");
  impl_->append(ScalarIns{exit_unless_step, 0, reg_index(cond)}, {1, false, false});
}

void ScalarProgram::add_count_down(int counter) {
  if (dtype(counter) != DType::Int64) throw InternalError("ScalarProgram: counter is not int64");
  impl_->append(ScalarIns{count_down_step, 0, reg_index(counter)}, {1, false, true});
}

void ScalarProgram::add_jump(size_t target) {
  if (target > size()) throw InternalError("ScalarProgram: jump past the end");
  ScalarIns i{jump_step};
  i.jump = static_cast<int32_t>(target) - static_cast<int32_t>(size());
  impl_->append(i, {0, false, false});
}

size_t ScalarProgram::size() const { return impl_->code.size() - 1; }

bool ScalarProgram::write_into(int reg, int target, size_t begin) {
  if (dtype(reg) != dtype(target) || reg == target) return false;
  std::vector<ScalarIns>& code = impl_->code;
  const auto& access = impl_->access;
  const size_t end = code.size() - 1;
  auto reads = [&](size_t k, int r) {
    const uint16_t fields[3] = {code[k].a, code[k].b, code[k].c};
    for (int j = 0; j < access[k].reads; ++j) {
      if (fields[j] == r) return true;
    }
    return false;
  };
  auto writes = [&](size_t k, int r) {
    return (access[k].writes_dst && code[k].dst == r) || (access[k].writes_a && code[k].a == r);
  };
  size_t k = begin;
  while (k < end && !writes(k, reg)) ++k;
  if (k == end || code[k].step == move_step || access[k].writes_a) return false;
  for (size_t j = k + 1; j < end; ++j) {
    if (writes(j, target) || reads(j, target)) return false;
  }
  code[k].dst = reg_index(target);
  for (size_t j = k + 1; j < end; ++j) {
    uint16_t* fields[3] = {&code[j].a, &code[j].b, &code[j].c};
    for (int f = 0; f < access[j].reads; ++f) {
      if (*fields[f] == reg) *fields[f] = reg_index(target);
    }
  }
  return true;
}

size_t ScalarProgram::num_registers() const { return impl_->regs.size(); }

DType ScalarProgram::dtype(int reg) const {
  if (reg < 0 || reg >= static_cast<int>(impl_->regs.size())) throw InternalError("ScalarProgram: no such register");
  return impl_->regs[static_cast<size_t>(reg)];
}

void ScalarProgram::init(ScalarReg* regs) const {
  for (const auto& [r, v] : impl_->constants) regs[r] = v;
}

void ScalarProgram::load(ScalarReg& r, const Tensor& t) {
  // Constant-size copies: a load and a store each, not a call.
  const void* p = t.raw_data();
  switch (t.dtype()) {
    case DType::Bool: std::memcpy(&r, p, 1); break;
    case DType::Int32:
    case DType::Float32: std::memcpy(&r, p, 4); break;
    case DType::Int64:
    case DType::Float64: std::memcpy(&r, p, 8); break;
    default: throw InternalError("ScalarProgram: not a register dtype");
  }
}

void ScalarProgram::store(Tensor& t, const ScalarReg& r) {
  void* p = t.raw_data();
  switch (t.dtype()) {
    case DType::Bool: std::memcpy(p, &r, 1); break;
    case DType::Int32:
    case DType::Float32: std::memcpy(p, &r, 4); break;
    case DType::Int64:
    case DType::Float64: std::memcpy(p, &r, 8); break;
    default: throw InternalError("ScalarProgram: not a register dtype");
  }
}

void ScalarProgram::run(ScalarReg* regs) const {
  for (const ScalarIns* pc = impl_->code.data(); pc != nullptr;) pc = pc->step(regs, pc);
}

}  // namespace ag
