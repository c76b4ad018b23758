// Keras 2.15's Progbar (generic_utils.Progbar as ProgbarLogger drives it):
// the text fit/evaluate/predict print, byte for byte. On POSIX Keras always
// redraws in place ("\b" * previous width + "\r" before each state), also
// when stdout is a pipe or a file, so agc does too; intermediate states are
// throttled to one per 0.05 s, the final one always prints. Values of the
// metrics Keras tracks as stateful (loss and the compiled metrics) are shown
// as given; others are averaged over the steps they were given for.
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ag::keras {

class Progbar {
 public:
  /// Seconds since the bar was made, and where its text goes: a fake clock
  /// and a string make the bytes testable (Keras's are timing dependent).
  using Clock = std::function<double()>;
  using Sink = std::function<void(const std::string&)>;

  /// `target`: the number of steps, or nullopt when unknown ("Unknown").
  /// By default the clock is the steady clock and the sink is sys.stdout.
  Progbar(std::optional<int64_t> target, int verbose, Clock clock = nullptr, Sink sink = nullptr);

  /// The names whose values are shown as given (ProgbarLogger adds
  /// model.metrics' names before each update).
  void set_stateful(std::set<std::string> names) { stateful_ = std::move(names); }

  /// The state after step `current` with these (name, value) logs.
  void update(int64_t current, const std::vector<std::pair<std::string, double>>& values, bool finalize);
  void set_target(int64_t target) { target_ = target; }
  std::optional<int64_t> target() const { return target_; }

  /// Keras's number formats (exposed for tests): " 2ms/step", "1:00", " - loss: 0.6931".
  static std::string format_time(double seconds, const std::string& unit);
  static std::string format_eta(double seconds);
  static std::string format_value(double v, bool verbose2);

 private:
  std::optional<int64_t> target_;
  int verbose_;
  std::set<std::string> stateful_;
  std::vector<std::string> order_;
  std::vector<std::pair<double, double>> sums_;  ///< per order_ entry: weighted sum, weight
  int64_t seen_so_far_ = 0;
  size_t total_width_ = 0;
  Clock clock_;
  Sink sink_;
  double last_update_ = 0;
  bool any_update_ = false;
  std::optional<double> time_after_first_step_;
  std::optional<double> time_at_epoch_end_;
  double time_at_epoch_start_ = 0;
};

}  // namespace ag::keras
