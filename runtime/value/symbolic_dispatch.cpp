#include "runtime/value/symbolic_dispatch.h"

#include <atomic>

namespace ag {
namespace {
std::atomic<SymbolicDispatch> installed{nullptr};
std::atomic<SymbolicText> installed_text{nullptr};
}  // namespace

void set_symbolic_dispatch(SymbolicDispatch hook) { installed.store(hook, std::memory_order_release); }

std::optional<Value> symbolic_dispatch(std::string_view symbol, DispatchedFn fn, const std::vector<Value>& args,
                                       const Kwargs& kwargs) {
  SymbolicDispatch hook = installed.load(std::memory_order_acquire);
  if (hook == nullptr) return std::nullopt;
  return hook(symbol, fn, args, kwargs);
}

void set_symbolic_text(SymbolicText hook) { installed_text.store(hook, std::memory_order_release); }

std::optional<std::string> symbolic_text(const TensorHandle& t, bool as_repr) {
  SymbolicText hook = installed_text.load(std::memory_order_acquire);
  if (hook == nullptr) return std::nullopt;
  return hook(t, as_repr);
}

}  // namespace ag
