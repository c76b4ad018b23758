// Keras's Progbar; see progbar.h.
#include "runtime/keras/progbar.h"

#include <cmath>
#include <chrono>
#include <cstdio>

#include "runtime/api/py_sys.h"

namespace ag::keras {
namespace {

std::string printf_text(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

}  // namespace

Progbar::Progbar(std::optional<int64_t> target, int verbose, Clock clock, Sink sink)
    : target_(target), verbose_(verbose), clock_(std::move(clock)), sink_(std::move(sink)) {
  if (!clock_) {
    clock_ = [start = std::chrono::steady_clock::now()] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
  }
  if (!sink_) sink_ = [](const std::string& text) { pymod::write_standard_stream("stdout", text); };
}

std::string Progbar::format_time(double t, const std::string& unit) {
  if (t >= 1 || t == 0) return printf_text(" %.0fs/", t) + unit;
  if (t >= 1e-3) return printf_text(" %.0fms/", t * 1000.0) + unit;
  return printf_text(" %.0fus/", t * 1000000.0) + unit;
}

std::string Progbar::format_eta(double e) {
  char buf[64];
  auto whole = static_cast<long long>(e);
  if (e > 3600) {
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", whole / 3600, (whole % 3600) / 60, whole % 60);
  } else if (e > 60) {
    std::snprintf(buf, sizeof buf, "%lld:%02lld", whole / 60, whole % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%llds", whole);
  }
  return buf;
}

std::string Progbar::format_value(double v, bool verbose2) {
  if (std::isnan(v)) return " nan";  // Python prints nan whatever its sign; glibc would print -nan
  bool plain = verbose2 ? v > 1e-3 : std::fabs(v) > 1e-3;
  return printf_text(plain ? " %.4f" : " %.4e", v);
}

void Progbar::update(int64_t current, const std::vector<std::pair<std::string, double>>& values, bool finalize) {
  for (const auto& [k, v] : values) {
    size_t i = 0;
    while (i < order_.size() && order_[i] != k) ++i;
    if (i == order_.size()) {
      order_.push_back(k);
      sums_.emplace_back(0.0, 0.0);
    }
    if (stateful_.count(k)) {
      sums_[i] = {v, 1.0};
    } else {
      double base = static_cast<double>(std::max<int64_t>(current - seen_so_far_, 1));
      sums_[i].first += v * base;
      sums_[i].second += base;
    }
  }
  seen_so_far_ = current;
  double t = clock_();
  std::string info = printf_text(" - %.0fs", t);
  if (target_ && current == *target_) time_at_epoch_end_ = t;
  auto metrics_text = [&](bool verbose2) {
    std::string out;
    for (size_t i = 0; i < order_.size(); ++i) {
      double avg = sums_[i].first / std::max(1.0, sums_[i].second);
      out += " - " + order_[i] + ":" + format_value(avg, verbose2);
    }
    return out;
  };
  if (verbose_ == 1) {
    if (any_update_ && t - last_update_ < 0.05 && !finalize) return;
    size_t prev = total_width_;
    std::string msg = std::string(prev, '\b') + "\r";
    std::string bar;
    if (target_) {
      int digits = static_cast<int>(std::log10(static_cast<double>(*target_))) + 1;
      char buf[64];
      std::snprintf(buf, sizeof buf, "%*lld/%lld [", digits, static_cast<long long>(current),
                    static_cast<long long>(*target_));
      bar = buf;
      auto progress_width = static_cast<int64_t>(30.0 * static_cast<double>(current) / static_cast<double>(*target_));
      if (progress_width > 0) {
        bar += std::string(progress_width - 1, '=');
        bar += current < *target_ ? '>' : '=';
      }
      bar += std::string(std::max<int64_t>(30 - progress_width, 0), '.') + "]";
    } else {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%7lld/Unknown", static_cast<long long>(current));
      bar = buf;
    }
    total_width_ = bar.size();
    msg += bar;
    // Keras's _estimate_step_duration.
    double per_step = 0;
    if (current > 0) {
      per_step = time_after_first_step_ && current > 1 ? (t - *time_after_first_step_) / double(current - 1)
                                                       : t / double(current);
      if (current == 1) time_after_first_step_ = t;
    }
    if (!target_ || finalize) {
      info += format_time(per_step, "step");
    } else {
      info = " - ETA: " + format_eta(per_step * double(*target_ - current));
    }
    info += metrics_text(false);
    total_width_ += info.size();
    if (prev > total_width_) info += std::string(prev - total_width_, ' ');
    if (finalize) info += "\n";
    sink_(msg + info);
  } else if (verbose_ == 2 && finalize) {
    int64_t target = target_.value_or(current);
    int digits = static_cast<int>(std::log10(static_cast<double>(std::max<int64_t>(target, 1)))) + 1;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%*lld/%lld", digits, static_cast<long long>(current), static_cast<long long>(target));
    info = buf + info + metrics_text(true);
    if (time_at_epoch_end_) {
      double per_epoch = *time_at_epoch_end_ - time_at_epoch_start_;
      info += " -" + format_time(per_epoch, "epoch") + " -" + format_time(per_epoch / double(target), "step");
      time_at_epoch_start_ = t;
      time_at_epoch_end_.reset();
      info += "\n";
    }
    sink_(info);
  }
  last_update_ = t;
  any_update_ = true;
}

}  // namespace ag::keras
