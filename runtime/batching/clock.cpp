#include "runtime/batching/clock.h"

#include <algorithm>

#include "runtime/core/error.h"

namespace ag::batching {

int64_t RealClock::now_us() const {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - epoch_).count();
}

void VirtualClock::subscribe(Listener* l) {
  std::lock_guard<std::mutex> lock(mu_);
  listeners_.push_back(l);
}

void VirtualClock::unsubscribe(Listener* l) {
  std::lock_guard<std::mutex> lock(mu_);
  listeners_.erase(std::remove(listeners_.begin(), listeners_.end(), l), listeners_.end());
}

std::vector<VirtualClock::Listener*> VirtualClock::listeners_snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  return listeners_;
}

void VirtualClock::advance_to(int64_t t) {
  std::lock_guard<std::mutex> advancing(advance_mu_);
  if (t < now_us()) {
    throw InvalidArgumentError("a virtual clock cannot go back: now " + std::to_string(now_us()) + ", asked " +
                               std::to_string(t));
  }
  for (;;) {
    int64_t now = now_us();
    std::optional<int64_t> next;
    for (Listener* l : listeners_snapshot()) {
      std::optional<int64_t> e = l->next_event_us(now);
      if (e && *e > now && (!next || *e < *next)) next = e;
    }
    if (!next || *next > t) break;
    now_.store(*next, std::memory_order_release);
    for (Listener* l : listeners_snapshot()) l->run_due(*next);
  }
  now_.store(t, std::memory_order_release);
  for (Listener* l : listeners_snapshot()) l->run_due(t);
}

}  // namespace ag::batching
