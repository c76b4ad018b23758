// TF's calibration statistics and algorithms, step for step. How the
// histogram follows TF (calibration_statistics_collector_histogram.cc and
// calibration_algorithm.py):
// - the first non-empty sample fixes the grid: lower bound floor(min), width
//   (ceil(max) − floor(min)) / num_bins in float32; a sample whose range is
//   one integer (width 0) counts nothing and the next sample tries again;
// - a value's bin is (value − lower_bound) / width in float32, truncated
//   toward zero as C++'s float-to-int conversion does (so a value less than
//   one bin below the lower bound lands in bin 0); a negative bin prepends
//   that many bins and moves the lower bound down by width · count, a bin past
//   the end appends bins;
// - the percentile step works in double as numpy does: mids from
//   numpy.linspace(first_mid, last_mid, bins), cumulative counts divided by
//   the total, np.searchsorted 'right' for the min and 'left' for the max.
#include "runtime/tpu/calibration.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "runtime/core/error.h"

namespace ag::tpu {
namespace {

/// x·y rounded on its own before any add: not inlined, so GCC cannot fuse it
/// with the caller's add into one FMA (its C++ default on FMA targets), which
/// numpy and TF's float code never do.
template <class T>
[[gnu::noinline]] T rounded_product(T x, T y) {
  return x * y;
}

/// numpy.linspace(start, stop, num)[i] for num >= 2: i·step + start with step
/// = (stop − start) / (num − 1), the last one exactly stop.
double linspace_at(double start, double stop, int64_t num, int64_t i) {
  if (num == 1) return start;
  if (i == num - 1) return stop;
  const double step = (stop - start) / static_cast<double>(num - 1);
  return rounded_product(static_cast<double>(i), step) + start;
}

// A bin index this far out would make the histogram absurdly large (TF
// would try to allocate it); reject it rather than exhaust memory [E].
constexpr double kMaxBinIndex = 1 << 24;

}  // namespace

CalibratedRange average_min_max_range(const AverageMinMaxStatistics& stats) {
  if (stats.num_samples == 0) {
    throw ValueError("num_samples must not be 0 when calibration method is AverageMinMax");
  }
  // Python divides the proto's float32 sums as doubles; the range is then
  // stored as float32.
  const double n = static_cast<double>(stats.num_samples);
  return {static_cast<float>(static_cast<double>(stats.min_sum) / n),
          static_cast<float>(static_cast<double>(stats.max_sum) / n)};
}

CalibratedRange histogram_percentile_range(const HistogramStatistics& stats, float min_percentile,
                                           float max_percentile) {
  const int64_t bins = static_cast<int64_t>(stats.hist_freq.size());
  int64_t total = 0;
  for (int64_t f : stats.hist_freq) total += f;
  if (bins == 0 || total == 0) throw ValueError("the calibration histogram is empty");
  const double first_mid = static_cast<double>(stats.lower_bound) + static_cast<double>(stats.bin_width) / 2;
  const double last_mid =
      first_mid + rounded_product(static_cast<double>(bins - 1), static_cast<double>(stats.bin_width));
  const double min_quantile = static_cast<double>(min_percentile) / 100.0;
  const double max_quantile = static_cast<double>(max_percentile) / 100.0;
  // searchsorted 'right': the first fraction > min_quantile; 'left': the
  // first >= max_quantile. Past every bin means index `bins`, which numpy
  // would fail to index; quantiles <= 1 never get there.
  int64_t min_index = bins, max_index = bins, running = 0;
  for (int64_t i = 0; i < bins; ++i) {
    running += stats.hist_freq[static_cast<size_t>(i)];
    const double fraction = static_cast<double>(running) / static_cast<double>(total);
    if (min_index == bins && fraction > min_quantile) min_index = i;
    if (max_index == bins && fraction >= max_quantile) max_index = i;
  }
  if (min_index == bins || max_index == bins) throw ValueError("calibration percentiles must be in [0, 100]");
  return {static_cast<float>(linspace_at(first_mid, last_mid, bins, min_index)),
          static_cast<float>(linspace_at(first_mid, last_mid, bins, max_index))};
}

Calibrator::Calibrator(CalibrationMethod method, int num_bins) : method_(method), num_bins_(num_bins) {
  if (num_bins < 1) throw ValueError("the calibration histogram needs at least one bin");
}

void Calibrator::collect(std::span<const float> values) {
  if (values.empty()) return;
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  if (!seen_) {
    min_max_ = {*lo, *hi};
  } else {
    min_max_.global_min = std::min(min_max_.global_min, *lo);
    min_max_.global_max = std::max(min_max_.global_max, *hi);
  }
  average_.min_sum += *lo;
  average_.max_sum += *hi;
  ++average_.num_samples;
  seen_ = true;
  if (method_ == CalibrationOptions::CALIBRATION_METHOD_HISTOGRAM_PERCENTILE) collect_histogram(values);
}

void Calibrator::collect_histogram(std::span<const float> values) {
  HistogramStatistics& h = histogram_;
  if (h.bin_width == 0) {
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    const float min_value = std::floor(*lo), max_value = std::ceil(*hi);
    h.hist_freq.assign(static_cast<size_t>(num_bins_), 0);
    h.bin_width = (max_value - min_value) / static_cast<float>(num_bins_);
    h.lower_bound = min_value;
    if (std::fabs(h.bin_width) < 1e-9f) {
      h.bin_width = 0;  // one integer: wait for a sample with a range
      return;
    }
  }
  for (float v : values) {
    if (std::isnan(v)) continue;  // TF's int conversion of NaN is undefined [E]
    const float position = (v - h.lower_bound) / h.bin_width;
    const double truncated = std::trunc(static_cast<double>(position));
    if (std::fabs(truncated) > kMaxBinIndex) {
      throw InvalidArgumentError("calibration value " + std::to_string(v) +
                                 " lies too far outside the histogram's first range");
    }
    int64_t index = static_cast<int64_t>(truncated);
    if (index < 0) {
      h.hist_freq.insert(h.hist_freq.begin(), static_cast<size_t>(-index), 0);
      h.lower_bound -= rounded_product(h.bin_width, static_cast<float>(-index));
      index = 0;
    }
    if (index >= static_cast<int64_t>(h.hist_freq.size())) h.hist_freq.resize(static_cast<size_t>(index + 1), 0);
    ++h.hist_freq[static_cast<size_t>(index)];
  }
}

std::optional<CalibratedRange> Calibrator::range(float min_percentile, float max_percentile) const {
  if (!seen_) return std::nullopt;
  switch (method_) {
    case CalibrationOptions::CALIBRATION_METHOD_UNSPECIFIED:  // B37: MIN_MAX by default
    case CalibrationOptions::CALIBRATION_METHOD_MIN_MAX:
      return CalibratedRange{min_max_.global_min, min_max_.global_max};
    case CalibrationOptions::CALIBRATION_METHOD_AVERAGE_MIN_MAX:
      return average_min_max_range(average_);
    case CalibrationOptions::CALIBRATION_METHOD_HISTOGRAM_PERCENTILE:
      if (histogram_.bin_width == 0) return std::nullopt;
      return histogram_percentile_range(histogram_, min_percentile, max_percentile);
    default:
      break;  // the proto's open enum: values outside it
  }
  throw ValueError("Unsupported calibration method: " + std::to_string(static_cast<int>(method_)));
}

}  // namespace ag::tpu
