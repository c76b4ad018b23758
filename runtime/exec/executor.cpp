// Running a plan: a pool of RunStates (one per concurrent run; the last one
// returned is cached in an atomic for the common single-threaded case), the
// argument checks, and the instruction loop.
#include <string>
#include <utility>

#include "runtime/core/error.h"
#include "runtime/exec/plan.h"

namespace ag {

struct Plan::Pool {
  std::atomic<RunState*> cached{nullptr};
  std::mutex mu;
  bool retired = false;                          // guarded by mu: the plan is gone
  std::vector<RunState*> free;                   // guarded by mu
  std::vector<std::unique_ptr<RunState>> owned;  // guarded by mu

  /// The plan is being destroyed: free every state now (a thread cache may
  /// still hold a pointer to one, but never dereferences it: its pool is
  /// never again a live plan's, since the cache keeps this Pool alive).
  void retire() {
    std::lock_guard<std::mutex> lock(mu);
    retired = true;
    cached.store(nullptr, std::memory_order_relaxed);
    free.clear();
    owned.clear();
  }
  /// A state back on the shared free list, unless the plan is gone.
  void put(RunState* s) {
    std::lock_guard<std::mutex> lock(mu);
    if (!retired) free.push_back(s);
  }
};

/// One state per thread, of the plan this thread returned a state to last.
struct Plan::ThreadCache {
  std::shared_ptr<Pool> pool;
  RunState* state = nullptr;  // a state of `pool` not in use, or null
  ~ThreadCache() {
    if (state != nullptr) pool->put(state);  // the thread ends: others may use it
  }
};

Plan::ThreadCache& Plan::thread_cache() {
  static thread_local ThreadCache cache;
  return cache;
}

void Plan::PoolHandle::retire() noexcept {
  if (Pool* p = get()) p->retire();
}

Plan::Plan() : pool_(std::make_shared<Pool>()) {}
Plan::~Plan() = default;
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;

std::unique_ptr<RunState> Plan::make_state() const {
  auto s = std::make_unique<RunState>();
  s->slots.resize(num_slots_);
  for (const auto& [slot, value] : constants_) s->slots[slot] = value;
  s->in_ptrs.reserve(input_slots_.size());
  for (uint32_t slot : input_slots_) s->in_ptrs.push_back(&s->slots[slot]);
  return s;
}

RunState* Plan::acquire() const {
  ThreadCache& tc = thread_cache();
  if (tc.state != nullptr && tc.pool.get() == pool_.get()) return std::exchange(tc.state, nullptr);
  if (RunState* s = pool_->cached.exchange(nullptr, std::memory_order_acquire)) return s;
  std::lock_guard<std::mutex> lock(pool_->mu);
  if (!pool_->free.empty()) {
    RunState* s = pool_->free.back();
    pool_->free.pop_back();
    return s;
  }
  pool_->owned.push_back(make_state());
  return pool_->owned.back().get();
}

void Plan::give_back(RunState* s) const {
  ThreadCache& tc = thread_cache();
  if (tc.state == nullptr) {
    // Switching the cache to this plan costs two reference counts, once;
    // a thread alternating plans keeps the inner one cached (see acquire).
    if (tc.pool.get() != pool_.get()) tc.pool = pool_;
    tc.state = s;
    return;
  }
  RunState* expected = nullptr;
  if (pool_->cached.compare_exchange_strong(expected, s, std::memory_order_release)) return;
  std::lock_guard<std::mutex> lock(pool_->mu);
  pool_->free.push_back(s);
}

StateLease::StateLease(const Plan& plan) : plan_(plan), state_(plan.acquire()) {}
StateLease::~StateLease() { plan_.give_back(state_); }

void Plan::check_args(std::span<const Tensor* const> args) const {
  if (args.size() != arg_specs_.size()) {
    throw InvalidArgumentError("Expects " + std::to_string(arg_specs_.size()) + " arguments, but " +
                               std::to_string(args.size()) + " is provided");
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const Tensor& t = *args[i];
    const TensorSpec& want = arg_specs_[i];
    if (!t.defined()) throw InvalidArgumentError("Argument " + std::to_string(i) + " is not a tensor");
    if (t.dtype() != want.dtype) {
      throw InvalidArgumentError(std::string("Type mismatch: actual ") + dtype_tf_string(t.dtype()) + " vs. expect " +
                                 dtype_tf_string(want.dtype));
    }
    if (!want.shape.is_compatible_with(t.shape())) {
      throw InvalidArgumentError("Shape mismatch: actual " + t.shape().debug_string() + " vs. expect " +
                                 want.shape.debug_string());
    }
  }
}

void Plan::execute(RunState& s) const {
  const Tensor* const* ptrs = s.in_ptrs.data();
  Tensor* slots = s.slots.data();
  for (const Instr& ins : instrs_) {
    KernelContext ctx{{ptrs + ins.in_begin, ins.in_count}, {slots + ins.out_begin, ins.out_count}};
    ins.kernel(ctx);
  }
}

std::vector<uint32_t> Plan::readers_of(uint32_t slot) const {
  std::vector<uint32_t> r;
  for (size_t j = 0; j < input_slots_.size(); ++j) {
    if (input_slots_[j] == slot) r.push_back(static_cast<uint32_t>(j));
  }
  return r;
}

void Plan::unbind(RunState& s) const {
  for (uint32_t slot : arg_slots_) s.slots[slot] = Tensor();
}

void Plan::run(std::span<const Tensor* const> args, std::span<Tensor> outputs, bool swap_outputs) const {
  check_args(args);
  run_unchecked(args, outputs, swap_outputs);
}

void Plan::run_checked(std::span<const Tensor* const> args, std::span<Tensor> outputs) const {
  run_unchecked(args, outputs, false);
}

void Plan::run_unchecked(std::span<const Tensor* const> args, std::span<Tensor> outputs, bool swap_outputs) const {
  if (args.size() != arg_slots_.size() || outputs.size() != output_slots_.size()) {
    throw InternalError("Plan::run: wrong number of argument or output tensors");
  }
  if (!swap_outputs) {
    // Results the caller still holds from last call would keep the slots'
    // buffers shared, forcing new allocations.
    // (Only those defined: making an empty Tensor to assign costs more than the test.)
    for (Tensor& o : outputs) {
      if (o.defined()) o = Tensor();
    }
  }
  StateLease lease(*this);
  RunState& s = *lease;
  const Tensor** ptrs = s.in_ptrs.data();
  const uint32_t* readers = arg_readers_.data();
  // Point the arguments' readers at the caller's tensors, and back at their
  // (empty) slots when done, so a state in the pool never holds a pointer
  // into a finished call.
  auto point_readers = [&](auto&& target) {
    for (size_t i = 0; i < args.size(); ++i) {
      const Tensor* t = target(i);
      for (uint32_t r = arg_readers_begin_[i]; r < arg_readers_begin_[i + 1]; ++r) ptrs[readers[r]] = t;
    }
  };
  auto to_slots = [&](size_t i) -> const Tensor* { return &s.slots[arg_slots_[i]]; };
  point_readers([&](size_t i) { return args[i]; });
  try {
    execute(s);
  } catch (...) {
    point_readers(to_slots);
    throw;
  }
  point_readers(to_slots);
  // Copies, not moves: the slot keeps its buffer, reused next call once the
  // caller has dropped this result.
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (output_arg_[i] >= 0) {
      outputs[i] = *args[static_cast<size_t>(output_arg_[i])];
      continue;
    }
    Tensor& slot = s.slots[output_slots_[i]];
    if (swap_outputs && swappable_[i]) {
      swap(outputs[i], slot);
    } else {
      outputs[i] = slot;
    }
  }
}

std::vector<Tensor> Plan::run(std::span<const Tensor> args) const {
  constexpr size_t kInline = 16;
  const Tensor* inline_ptrs[kInline];
  std::vector<const Tensor*> heap_ptrs;
  const Tensor** ptrs = inline_ptrs;
  if (args.size() > kInline) {
    heap_ptrs.resize(args.size());
    ptrs = heap_ptrs.data();
  }
  for (size_t i = 0; i < args.size(); ++i) ptrs[i] = &args[i];
  std::vector<Tensor> out(output_slots_.size());
  run(std::span<const Tensor* const>(ptrs, args.size()), out);
  return out;
}

std::string Plan::dump() const {
  std::string s;
  for (size_t i = 0; i < instrs_.size(); ++i) {
    const Instr& ins = instrs_[i];
    s += instr_names_[i] + "(";
    for (uint32_t k = 0; k < ins.in_count; ++k) {
      if (k) s += ", ";
      s += "s" + std::to_string(input_slots_[ins.in_begin + k]);
    }
    s += ") -> ";
    for (uint32_t k = 0; k < ins.out_count; ++k) {
      if (k) s += ", ";
      s += "s" + std::to_string(ins.out_begin + k);
    }
    s += "\n";
  }
  s += "args:";
  for (uint32_t a : arg_slots_) s += " s" + std::to_string(a);
  s += "\noutputs:";
  for (uint32_t o : output_slots_) s += " s" + std::to_string(o);
  s += "\n";
  return s;
}

}  // namespace ag
