// Calibration of activation ranges (TPU_EMULATOR.md B42), as TF's quantizer
// does it: statistics collected sample by sample (calibrator/
// calibration_statistics_collector_*.cc), then a [min, max] chosen from them
// (calibrator/calibration_algorithm.py) for MIN_MAX, AVERAGE_MIN_MAX and
// HISTOGRAM_PERCENTILE.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <utility>

#include "runtime/core/proto/converter_options.pb.h"

namespace ag::tpu {

using CalibrationMethod = CalibrationOptions::CalibrationMethod;

/// A calibrated range.
struct CalibratedRange {
  float min = 0, max = 0;
  friend bool operator==(const CalibratedRange&, const CalibratedRange&) = default;
};

/// MIN_MAX's statistics: the global min and max over every sample.
struct MinMaxStatistics {
  float global_min = 0, global_max = 0;
};

/// AVERAGE_MIN_MAX's: sums of each sample's min and max, and the sample count.
struct AverageMinMaxStatistics {
  float min_sum = 0, max_sum = 0;
  int64_t num_samples = 0;
};

/// HISTOGRAM_*'s: bin i counts [lower_bound + i·bin_width, + bin_width).
struct HistogramStatistics {
  float lower_bound = 0, bin_width = 0;
  std::deque<int64_t> hist_freq;
};

/// The default histogram size and percentiles (quantize_model.py's defaults).
inline constexpr int kDefaultHistogramBins = 256;
inline constexpr float kDefaultMinPercentile = 0.001f, kDefaultMaxPercentile = 99.999f;

/// AVERAGE_MIN_MAX: [min_sum / n, max_sum / n]; ValueError when n is 0.
CalibratedRange average_min_max_range(const AverageMinMaxStatistics& stats);

/// HISTOGRAM_PERCENTILE over `stats`, as calibration_algorithm.py: the
/// cumulative frequencies divided by the total, min at the first bin whose
/// fraction exceeds min_percentile/100 (searchsorted 'right'), max at the
/// first whose fraction reaches max_percentile/100 ('left'); each the middle
/// of its bin, mids spaced as numpy.linspace spaces them.
CalibratedRange histogram_percentile_range(const HistogramStatistics& stats,
                                           float min_percentile = kDefaultMinPercentile,
                                           float max_percentile = kDefaultMaxPercentile);

/// Collects one tensor's statistics over the representative samples and
/// gives its range by `method`.
class Calibrator {
 public:
  explicit Calibrator(CalibrationMethod method, int num_bins = kDefaultHistogramBins);

  /// One sample's values of the tensor (one run of the float model). An
  /// empty sample is ignored, as TF's collectors do.
  void collect(std::span<const float> values);

  /// The calibrated range, or nullopt when no sample reached the tensor (B44:
  /// its op stays float) or, for the histogram, when no sample has yet
  /// spanned a range (TF's collector waits for one).
  std::optional<CalibratedRange> range(float min_percentile = kDefaultMinPercentile,
                                       float max_percentile = kDefaultMaxPercentile) const;

  const MinMaxStatistics& min_max() const { return min_max_; }
  const AverageMinMaxStatistics& average_min_max() const { return average_; }
  const HistogramStatistics& histogram() const { return histogram_; }

 private:
  void collect_histogram(std::span<const float> values);

  CalibrationMethod method_;
  int num_bins_;
  bool seen_ = false;
  MinMaxStatistics min_max_;
  AverageMinMaxStatistics average_;
  HistogramStatistics histogram_;
};

}  // namespace ag::tpu
