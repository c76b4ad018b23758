// ScalarProgram and the FusedScalar kernel (see fused_scalar.h). Each
// instruction is typed when it is built (an opcode per op and dtype), so a
// run is a threaded interpreter: every handler ends with its own indirect
// jump to the next one (GCC/Clang's labels as values), which the branch
// predictor learns per position in a loop body. Each op computes what its
// own kernel computes (integer arithmetic wraps, integer division by zero
// fails with the kernels' error, floor division and modulo round as Python's,
// Maximum/Minimum propagate NaN).
#include "runtime/ops/fused_scalar.h"

#include <cmath>
#include <cstring>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/core/tensor.h"
#include "runtime/ops/attrs.h"
#include "runtime/ops/kernels/int_math.h"
#include "runtime/ops/registry.h"

namespace ag {
// Named, not anonymous: ScalarProgram::Impl (external linkage) holds a vector of them.
namespace scalar_program {
/// One instruction: opcode, destination and up to three operand registers
/// (a jump's target is in `a`).
struct Ins {
  uint16_t op;
  uint16_t dst, a, b, c;
};
}  // namespace scalar_program

namespace {

using scalar_program::Ins;

using namespace kernels;

template <class T>
T& at(ScalarReg& r) {
  if constexpr (std::is_same_v<T, int32_t>) return r.i32;
  else if constexpr (std::is_same_v<T, int64_t>) return r.i64;
  else if constexpr (std::is_same_v<T, float>) return r.f32;
  else if constexpr (std::is_same_v<T, double>) return r.f64;
  else return r.b;
}

template <class T>
constexpr bool kIntT = std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t>;

struct OpAdd { template <class T> static T apply(T a, T b) { if constexpr (kIntT<T>) return wrap_add(a, b); else return a + b; } };
struct OpSub { template <class T> static T apply(T a, T b) { if constexpr (kIntT<T>) return wrap_sub(a, b); else return a - b; } };
struct OpMul { template <class T> static T apply(T a, T b) { if constexpr (kIntT<T>) return wrap_mul(a, b); else return a * b; } };
struct OpMax { template <class T> static T apply(T a, T b) { if constexpr (kIntT<T>) return a > b ? a : b; else return (a > b || a != a) ? a : b; } };
struct OpMin { template <class T> static T apply(T a, T b) { if constexpr (kIntT<T>) return a < b ? a : b; else return (a < b || a != a) ? a : b; } };
[[noreturn]] void division_by_zero() { throw InvalidArgumentError("Integer division by zero"); }
struct OpFloorDiv {
  template <class T>
  static T apply(T a, T b) {
    if constexpr (kIntT<T>) {
      if (b == 0) [[unlikely]] division_by_zero();
      return floor_div(a, b);
    } else {
      return std::floor(a / b);
    }
  }
};
struct OpFloorMod {
  template <class T>
  static T apply(T a, T b) {
    if constexpr (kIntT<T>) {
      if (b == 0) [[unlikely]] division_by_zero();
      return floor_mod(a, b);
    } else {
      T r = std::fmod(a, b);
      return (r != 0 && ((b < 0) != (r < 0))) ? r + b : r;
    }
  }
};
struct OpEq { template <class T> static bool apply(T a, T b) { return a == b; } };
struct OpNe { template <class T> static bool apply(T a, T b) { return a != b; } };
struct OpLt { template <class T> static bool apply(T a, T b) { return a < b; } };
struct OpLe { template <class T> static bool apply(T a, T b) { return a <= b; } };
struct OpGt { template <class T> static bool apply(T a, T b) { return a > b; } };
struct OpGe { template <class T> static bool apply(T a, T b) { return a >= b; } };
struct OpAnd { template <class T> static bool apply(T a, T b) { return a && b; } };
struct OpOr { template <class T> static bool apply(T a, T b) { return a || b; } };
struct OpNeg { template <class T> static T apply(T a) { if constexpr (kIntT<T>) return wrap_neg(a); else return -a; } };
struct OpNot { template <class T> static bool apply(T a) { return !a; } };

template <class F, class T>
inline void exec_bin(ScalarReg* r, const Ins& i) {
  auto v = F::apply(at<T>(r[i.a]), at<T>(r[i.b]));
  at<decltype(v)>(r[i.dst]) = v;
}
template <class F, class T>
inline void exec_un(ScalarReg* r, const Ins& i) {
  auto v = F::apply(at<T>(r[i.a]));
  at<decltype(v)>(r[i.dst]) = v;
}
template <class F, class T>
inline void exec_sel(ScalarReg* r, const Ins& i) {
  at<T>(r[i.dst]) = r[i.a].b ? at<T>(r[i.b]) : at<T>(r[i.c]);
}

// Every (op, operand dtype) the interpreter runs: X(TF op, kind, functor, C++ type).
#define AG_NUMERIC(X, NAME, KIND, F) \
  X(NAME, KIND, F, int32_t) X(NAME, KIND, F, int64_t) X(NAME, KIND, F, float) X(NAME, KIND, F, double)
#define AG_SCALAR_INSTRS(X)                                                                                  \
  AG_NUMERIC(X, AddV2, bin, OpAdd)                                                                           \
  AG_NUMERIC(X, Sub, bin, OpSub)                                                                             \
  AG_NUMERIC(X, Mul, bin, OpMul)                                                                             \
  AG_NUMERIC(X, Maximum, bin, OpMax)                                                                         \
  AG_NUMERIC(X, Minimum, bin, OpMin)                                                                         \
  AG_NUMERIC(X, FloorDiv, bin, OpFloorDiv)                                                                   \
  AG_NUMERIC(X, FloorMod, bin, OpFloorMod)                                                                   \
  AG_NUMERIC(X, Equal, bin, OpEq) X(Equal, bin, OpEq, bool)                                                  \
  AG_NUMERIC(X, NotEqual, bin, OpNe) X(NotEqual, bin, OpNe, bool)                                            \
  AG_NUMERIC(X, Less, bin, OpLt)                                                                             \
  AG_NUMERIC(X, LessEqual, bin, OpLe)                                                                        \
  AG_NUMERIC(X, Greater, bin, OpGt)                                                                          \
  AG_NUMERIC(X, GreaterEqual, bin, OpGe)                                                                     \
  X(LogicalAnd, bin, OpAnd, bool) X(LogicalOr, bin, OpOr, bool) X(LogicalNot, un, OpNot, bool)              \
  AG_NUMERIC(X, Neg, un, OpNeg)                                                                              \
  AG_NUMERIC(X, SelectV2, sel, OpSel) X(SelectV2, sel, OpSel, bool)

struct OpSel {};

enum Opcode : uint16_t {
#define AG_ENUM(NAME, KIND, F, T) k_##NAME##_##T,
  AG_SCALAR_INSTRS(AG_ENUM)
#undef AG_ENUM
  kMove,
  kExitUnless,
  kCountDown,
  kJump,
  kReturn,
};

struct OpcodeInfo {
  const char* name;
  DType operand;  // the dtype of the operands (a SelectV2's values)
  Opcode code;
  int arity;
  DType result;
};

template <class F>
constexpr bool kReturnsBool = std::is_same_v<F, OpEq> || std::is_same_v<F, OpNe> || std::is_same_v<F, OpLt> ||
                              std::is_same_v<F, OpLe> || std::is_same_v<F, OpGt> || std::is_same_v<F, OpGe> ||
                              std::is_same_v<F, OpAnd> || std::is_same_v<F, OpOr> || std::is_same_v<F, OpNot>;

constexpr int arity_of(const char* kind) { return kind[0] == 'b' ? 2 : kind[0] == 'u' ? 1 : 3; }

constexpr OpcodeInfo kOpcodes[] = {
#define AG_INFO(NAME, KIND, F, T) \
  {#NAME, dtype_of<T>(), k_##NAME##_##T, arity_of(#KIND), kReturnsBool<F> ? DType::Bool : dtype_of<T>()},
    AG_SCALAR_INSTRS(AG_INFO)
#undef AG_INFO
};

constexpr bool opcodes_in_order() {
  for (size_t k = 0; k < std::size(kOpcodes); ++k) {
    if (kOpcodes[k].code != k) return false;
  }
  return std::size(kOpcodes) == kMove;
}
static_assert(opcodes_in_order(), "kOpcodes is indexed by opcode");

const OpcodeInfo* find_opcode(std::string_view op, DType operand) {
  for (const OpcodeInfo& o : kOpcodes) {
    if (o.operand == operand && op == o.name) return &o;
  }
  return nullptr;
}

bool known_op(std::string_view op) {
  for (const OpcodeInfo& o : kOpcodes) {
    if (op == o.name) return true;
  }
  return false;
}

uint16_t reg_index(int r) {
  if (r < 0 || r > 0xffff) throw InternalError("ScalarProgram: register index out of range");
  return static_cast<uint16_t>(r);
}

}  // namespace

bool scalar_program_dtype(DType t) {
  return t == DType::Int32 || t == DType::Int64 || t == DType::Float32 || t == DType::Float64 || t == DType::Bool;
}

bool fused_scalar_result(std::string_view op, std::span<const DType> in, DType& out) {
  if (in.empty()) return false;
  const bool select = op == "SelectV2";
  if (select && (in.size() != 3 || in[0] != DType::Bool || in[1] != in[2])) return false;
  for (size_t i = 1; i < in.size(); ++i) {
    if (!select && in[i] != in[0]) return false;
  }
  const OpcodeInfo* info = find_opcode(op, select ? in[1] : in[0]);
  if (info == nullptr || static_cast<size_t>(info->arity) != in.size()) return false;
  out = info->result;
  return true;
}

struct ScalarProgram::Impl {
  std::vector<Ins> code{Ins{kReturn, 0, 0, 0, 0}};  // always ends with a Return
  std::vector<DType> regs;
  std::vector<std::pair<int, ScalarReg>> constants;

  void append(Ins i) { code.insert(code.end() - 1, i); }
};

ScalarProgram::ScalarProgram() : impl_(std::make_unique<Impl>()) {}
ScalarProgram::~ScalarProgram() = default;
ScalarProgram::ScalarProgram(ScalarProgram&&) noexcept = default;
ScalarProgram& ScalarProgram::operator=(ScalarProgram&&) noexcept = default;

int ScalarProgram::add_register(DType t) {
  if (!scalar_program_dtype(t)) throw InternalError(std::string("ScalarProgram: no registers of ") + dtype_name(t));
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

int ScalarProgram::add_op(std::string_view op, std::span<const int> operands) {
  DType in[3];
  if (operands.size() > 3) return -1;
  for (size_t j = 0; j < operands.size(); ++j) {
    if (operands[j] < 0 || operands[j] >= static_cast<int>(impl_->regs.size())) {
      throw InternalError("ScalarProgram: operand is not a register");
    }
    in[j] = impl_->regs[static_cast<size_t>(operands[j])];
  }
  DType out;
  if (!fused_scalar_result(op, std::span<const DType>(in, operands.size()), out)) return -1;
  const OpcodeInfo* info = find_opcode(op, op == "SelectV2" ? in[1] : in[0]);
  const int dst = add_register(out);
  Ins i{info->code, reg_index(dst), 0, 0, 0};
  uint16_t* fields[3] = {&i.a, &i.b, &i.c};
  for (size_t j = 0; j < operands.size(); ++j) *fields[j] = reg_index(operands[j]);
  impl_->append(i);
  return dst;
}

std::vector<int> ScalarProgram::add_fused(const Attrs& attrs, std::span<const int> inputs) {
  const auto& ops = attrs.get<std::vector<std::string>>("ops");
  const auto& operands = attrs.get<std::vector<int64_t>>("operands");
  const auto& results = attrs.get<std::vector<int64_t>>("results");
  if (operands.size() != ops.size() * 3 || ops.size() > static_cast<size_t>(kFusedScalarMaxOps) ||
      inputs.size() > static_cast<size_t>(kFusedScalarMaxInputs)) {
    throw InvalidArgumentError("FusedScalar: malformed program");
  }
  // The node's register k (its numbering) is program register regs[k].
  std::vector<int> regs(inputs.begin(), inputs.end());
  for (size_t k = 0; k < ops.size(); ++k) {
    if (!known_op(ops[k])) throw InvalidArgumentError("FusedScalar: unsupported op " + ops[k]);
    int r[3];
    size_t arity = 0;
    bool ended = false;  // operands are a prefix; -1 pads the rest
    for (size_t j = 0; j < 3; ++j) {
      const int64_t v = operands[k * 3 + j];
      if (v == -1) {
        ended = true;
        continue;
      }
      if (ended || v < 0 || v >= static_cast<int64_t>(regs.size())) {
        throw InvalidArgumentError("FusedScalar: bad operand");
      }
      r[arity++] = regs[static_cast<size_t>(v)];
    }
    const int dst = add_op(ops[k], std::span<const int>(r, arity));
    if (dst < 0) throw InvalidArgumentError("FusedScalar: " + ops[k] + " does not take these dtypes");
    regs.push_back(dst);
  }
  std::vector<int> out;
  for (int64_t v : results) {
    if (v < 0 || v >= static_cast<int64_t>(regs.size())) throw InvalidArgumentError("FusedScalar: bad result");
    out.push_back(regs[static_cast<size_t>(v)]);
  }
  return out;
}

void ScalarProgram::add_move(int dst, int src) {
  if (dtype(dst) != dtype(src)) throw InternalError("ScalarProgram: move between registers of different dtypes");
  impl_->append(Ins{kMove, reg_index(dst), reg_index(src), 0, 0});
}

void ScalarProgram::add_exit_unless(int cond) {
  if (dtype(cond) != DType::Bool) throw InternalError("ScalarProgram: exit condition is not bool");
  impl_->append(Ins{kExitUnless, 0, reg_index(cond), 0, 0});
}

void ScalarProgram::add_count_down(int counter) {
  if (dtype(counter) != DType::Int64) throw InternalError("ScalarProgram: counter is not int64");
  impl_->append(Ins{kCountDown, 0, reg_index(counter), 0, 0});
}

void ScalarProgram::add_jump(size_t target) {
  if (target > size()) throw InternalError("ScalarProgram: jump past the end");
  impl_->append(Ins{kJump, 0, reg_index(static_cast<int>(target)), 0, 0});
}

size_t ScalarProgram::size() const { return impl_->code.size() - 1; }

namespace {

/// Registers instruction `i` reads (up to three; -1 for none).
void reads_of(const Ins& i, int out[3]) {
  out[0] = out[1] = out[2] = -1;
  if (i.op < kMove) {
    const int arity = kOpcodes[i.op].arity;
    const uint16_t fields[3] = {i.a, i.b, i.c};
    for (int j = 0; j < arity; ++j) out[j] = fields[j];
  } else if (i.op == kMove || i.op == kExitUnless || i.op == kCountDown) {
    out[0] = i.a;
  }
}

/// The register instruction `i` writes, or -1.
int write_of(const Ins& i) {
  if (i.op <= kMove) return i.dst;
  if (i.op == kCountDown) return i.a;
  return -1;
}

}  // namespace

bool ScalarProgram::write_into(int reg, int target, size_t begin) {
  if (dtype(reg) != dtype(target) || reg == target) return false;
  std::vector<Ins>& code = impl_->code;
  const size_t end = code.size() - 1;
  size_t k = begin;
  while (k < end && write_of(code[k]) != reg) ++k;
  if (k == end || code[k].op == kMove) return false;
  for (size_t j = k + 1; j < end; ++j) {
    int r[3];
    reads_of(code[j], r);
    if (write_of(code[j]) == target || r[0] == target || r[1] == target || r[2] == target) return false;
  }
  code[k].dst = reg_index(target);
  for (size_t j = k + 1; j < end; ++j) {
    Ins& i = code[j];
    int r[3];
    reads_of(i, r);
    if (r[0] == reg) i.a = reg_index(target);
    if (r[1] == reg) i.b = reg_index(target);
    if (r[2] == reg) i.c = reg_index(target);
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

void ScalarProgram::run(ScalarReg* r) const {
  const Ins* const code = impl_->code.data();
  static const void* const kLabels[] = {
#define AG_LABEL(NAME, KIND, F, T) &&L_##NAME##_##T,
      AG_SCALAR_INSTRS(AG_LABEL)
#undef AG_LABEL
      &&L_Move, &&L_ExitUnless, &&L_CountDown, &&L_Jump, &&L_Return,
  };
  const Ins* pc = code;
#define AG_NEXT() goto* kLabels[pc->op]
  AG_NEXT();
#define AG_HANDLER(NAME, KIND, F, T) \
  L_##NAME##_##T : exec_##KIND<F, T>(r, *pc);      \
  ++pc;                                            \
  AG_NEXT();
  AG_SCALAR_INSTRS(AG_HANDLER)
#undef AG_HANDLER
L_Move:
  r[pc->dst] = r[pc->a];
  ++pc;
  AG_NEXT();
L_ExitUnless:
  if (!r[pc->a].b) return;
  ++pc;
  AG_NEXT();
L_CountDown:
  if (r[pc->a].i64 == 0) return;
  --r[pc->a].i64;
  ++pc;
  AG_NEXT();
L_Jump:
  pc = code + pc->a;
  AG_NEXT();
L_Return:
  return;
#undef AG_NEXT
}

namespace {

std::vector<TensorSpec> infer_fused_scalar(const InferContext& c) {
  ScalarProgram p;
  std::vector<int> in;
  for (const TensorSpec& s : c.inputs) {
    if (!s.shape.rank_known() || s.shape.rank() != 0) {
      throw InvalidArgumentError("FusedScalar takes scalars, got shape " + s.shape.debug_string());
    }
    if (!scalar_program_dtype(s.dtype)) {
      throw InvalidArgumentError(std::string("FusedScalar does not take ") + dtype_name(s.dtype));
    }
    in.push_back(p.add_register(s.dtype));
  }
  std::vector<TensorSpec> out;
  for (int r : p.add_fused(c.attrs, in)) out.push_back({p.dtype(r), Shape{}});
  return out;
}

Kernel make_fused_scalar_kernel(const KernelSpec& s) {
  auto p = std::make_shared<ScalarProgram>();
  std::vector<int> in;
  for (const TensorSpec& t : s.inputs) in.push_back(p->add_register(t.dtype));
  std::vector<int> results = p->add_fused(s.attrs, in);
  std::vector<DType> out_types;
  for (int r : results) out_types.push_back(p->dtype(r));
  // No constants: inputs are registers 0..n-1 and every op's result is a new
  // register, so a run needs at most this many.
  if (p->num_registers() > static_cast<size_t>(kFusedScalarMaxInputs + kFusedScalarMaxOps)) {
    throw InternalError("FusedScalar: program too large");
  }
  return Kernel([p, results, out_types, scalar = Shape{}](KernelContext& k) {
    ScalarReg regs[kFusedScalarMaxInputs + kFusedScalarMaxOps];
    for (size_t i = 0; i < k.inputs.size(); ++i) ScalarProgram::load(regs[i], *k.inputs[i]);
    p->run(regs);
    for (size_t j = 0; j < results.size(); ++j) {
      ScalarProgram::store(k.allocate_output(j, out_types[j], scalar), regs[results[j]]);
    }
  });
}

}  // namespace

void register_fused_scalar_op(OpRegistry& reg) {
  reg.op("FusedScalar")
      .inputs(0, kFusedScalarMaxInputs)
      .outputs(-1)
      .infer(infer_fused_scalar)
      .cpu(make_fused_scalar_kernel);
}

}  // namespace ag
