// The time source of the batch scheduler, in microseconds. RealClock reads the
// steady clock; VirtualClock starts at 0 and moves only when the test (or
// simulated device work) advances it, so batch timeouts are deterministic, as
// TF's own batching tests drive a fake clock env (TPU_EMULATOR.md section 1.2).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

namespace ag::batching {

class Clock {
 public:
  virtual ~Clock() = default;
  /// Microseconds since the clock's epoch.
  virtual int64_t now_us() const = 0;
  /// True for a simulated clock: schedulers on it run no threads; time moves
  /// only through VirtualClock::advance.
  virtual bool simulated() const = 0;
};

/// The steady clock, counted from the clock's construction.
class RealClock : public Clock {
 public:
  RealClock() : epoch_(std::chrono::steady_clock::now()) {}
  int64_t now_us() const override;
  bool simulated() const override { return false; }
  /// The steady-clock instant of `us` on this clock (a worker sleeps until it).
  std::chrono::steady_clock::time_point to_time_point(int64_t us) const {
    return epoch_ + std::chrono::microseconds(us);
  }

 private:
  std::chrono::steady_clock::time_point epoch_;
};

/// A clock that stands still until advanced. Whatever has timed events on it
/// (a batch scheduler's open-batch timeouts, its busy workers) subscribes as a
/// Listener; advance_to() steps through every listener's events in time order,
/// running each at its own virtual instant, before settling on the target.
class VirtualClock : public Clock {
 public:
  class Listener {
   public:
    virtual ~Listener() = default;
    /// The earliest instant after `now` at which this listener has work; none if idle.
    virtual std::optional<int64_t> next_event_us(int64_t now) = 0;
    /// Runs everything due at `now` (the clock already reads `now`).
    virtual void run_due(int64_t now) = 0;
  };

  int64_t now_us() const override { return now_.load(std::memory_order_acquire); }
  bool simulated() const override { return true; }

  /// Moves time forward by `us` (>= 0), running due events on the way.
  void advance(int64_t us) { advance_to(now_us() + us); }
  /// Moves time to `t` (not before now), running due events on the way.
  void advance_to(int64_t t);

  void subscribe(Listener* l);
  void unsubscribe(Listener* l);

 private:
  std::vector<Listener*> listeners_snapshot() const;

  std::atomic<int64_t> now_{0};
  mutable std::mutex mu_;  // guards listeners_
  std::vector<Listener*> listeners_;
  std::mutex advance_mu_;  // one advance at a time
};

}  // namespace ag::batching
