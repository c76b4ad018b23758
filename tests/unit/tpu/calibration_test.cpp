// TPU_EMULATOR.md B42: MIN_MAX, AVERAGE_MIN_MAX and HISTOGRAM_PERCENTILE as
// TF's calibrator computes them, with vectors derived by hand.
#include <doctest/doctest.h>

#include <vector>

#include "runtime/core/error.h"
#include "runtime/tpu/calibration.h"

using namespace ag;
using namespace ag::tpu;

TEST_CASE("MIN_MAX is the global min and max over every sample") {
  Calibrator c(CalibrationOptions::CALIBRATION_METHOD_MIN_MAX);
  CHECK_FALSE(c.range().has_value());  // B44: never reached
  c.collect(std::vector<float>{1, 2, 3});
  c.collect(std::vector<float>{-1, 0.5f});
  c.collect(std::vector<float>{});
  c.collect(std::vector<float>{10});
  CHECK(c.range() == CalibratedRange{-1, 10});
  // UNSPECIFIED means MIN_MAX (B37).
  Calibrator d(CalibrationOptions::CALIBRATION_METHOD_UNSPECIFIED);
  d.collect(std::vector<float>{4, -2});
  CHECK(d.range() == CalibratedRange{-2, 4});
}

TEST_CASE("AVERAGE_MIN_MAX: min_sum 5, max_sum 50 over 5 samples is [1, 10]") {
  CHECK(average_min_max_range({5, 50, 5}) == CalibratedRange{1, 10});
  CHECK_THROWS_AS(average_min_max_range({0, 0, 0}), ValueError);
  Calibrator c(CalibrationOptions::CALIBRATION_METHOD_AVERAGE_MIN_MAX);
  c.collect(std::vector<float>{0, 8});
  c.collect(std::vector<float>{2, 12});
  c.collect(std::vector<float>{1, 5, 10});
  c.collect(std::vector<float>{10, 1});
  c.collect(std::vector<float>{1, 10});
  CHECK(c.average_min_max().min_sum == 5);
  CHECK(c.average_min_max().max_sum == 50);
  CHECK(c.average_min_max().num_samples == 5);
  CHECK(c.range() == CalibratedRange{1, 10});
}

TEST_CASE("the percentile picks bin middles: searchsorted right for the min, left for the max") {
  HistogramStatistics h;
  h.lower_bound = 0;
  h.bin_width = 1;
  h.hist_freq = {0, 5, 5, 0};
  // Fractions 0, .5, 1, 1: first > 0.00001 is bin 1; first >= 0.99999 is bin 2.
  CHECK(histogram_percentile_range(h) == CalibratedRange{1.5f, 2.5f});
  // At 50/50 the sides differ: first > .5 is bin 2, first >= .5 is bin 1.
  CHECK(histogram_percentile_range(h, 50, 50) == CalibratedRange{2.5f, 1.5f});
  h.hist_freq = {0, 0, 0, 0};
  CHECK_THROWS_AS(histogram_percentile_range(h), ValueError);
}

TEST_CASE("HISTOGRAM_PERCENTILE: 256 bins over the first sample's floor..ceil") {
  Calibrator c(CalibrationOptions::CALIBRATION_METHOD_HISTOGRAM_PERCENTILE);
  std::vector<float> values;
  for (int i = 0; i < 256; ++i) values.push_back(static_cast<float>(i) + 0.5f);
  c.collect(values);
  const HistogramStatistics& h = c.histogram();
  CHECK(h.lower_bound == 0);
  CHECK(h.bin_width == 1);  // (ceil(255.5) - floor(0.5)) / 256
  REQUIRE(h.hist_freq.size() == 256);
  for (int64_t f : h.hist_freq) REQUIRE(f == 1);
  CHECK(c.range() == CalibratedRange{0.5f, 255.5f});
}

TEST_CASE("HISTOGRAM_PERCENTILE drops a lone outlier that MIN_MAX keeps") {
  Calibrator c(CalibrationOptions::CALIBRATION_METHOD_HISTOGRAM_PERCENTILE);
  // Width 1000 / 256 = 3.90625; 1000 lands in bin 256, growing the histogram to 257.
  c.collect(std::vector<float>{0, 1000});
  c.collect(std::vector<float>(200000, 1.0f));  // bin 0
  CHECK(c.histogram().bin_width == 3.90625f);
  REQUIRE(c.histogram().hist_freq.size() == 257);
  CHECK(c.histogram().hist_freq[0] == 200001);
  CHECK(c.histogram().hist_freq[256] == 1);
  // 200001 / 200002 >= 0.99999: both ends in bin 0, whose middle is 1.953125.
  CHECK(c.range() == CalibratedRange{1.953125f, 1.953125f});
  CHECK(c.min_max().global_min == 0);
  CHECK(c.min_max().global_max == 1000);
}

TEST_CASE("values below the histogram grow it leftwards, truncating toward zero as TF does") {
  Calibrator c(CalibrationOptions::CALIBRATION_METHOD_HISTOGRAM_PERCENTILE);
  c.collect(std::vector<float>{0, 256});  // width 1; 256 grows it to 257 bins
  // -3.5 is 3.5 bins below: truncated to -3, three bins prepended, lower
  // bound -3, and -3.5 counted in bin 0 = [-3, -2). -0.5 is at 2.5: bin 2.
  c.collect(std::vector<float>{-3.5f, -0.5f});
  const HistogramStatistics& h = c.histogram();
  CHECK(h.lower_bound == -3);
  REQUIRE(h.hist_freq.size() == 260);
  CHECK(h.hist_freq[0] == 1);
  CHECK(h.hist_freq[1] == 0);
  CHECK(h.hist_freq[2] == 1);
  CHECK(h.hist_freq[3] == 1);
  CHECK(h.hist_freq[259] == 1);
  CHECK(c.range() == CalibratedRange{-2.5f, 256.5f});
}

TEST_CASE("a first sample of one integer value starts no histogram; the next one does") {
  Calibrator c(CalibrationOptions::CALIBRATION_METHOD_HISTOGRAM_PERCENTILE);
  c.collect(std::vector<float>{5, 5});
  CHECK(c.histogram().bin_width == 0);
  CHECK_FALSE(c.range().has_value());
  c.collect(std::vector<float>{0, 2.5f});  // floor 0, ceil 3: width 3/256
  CHECK(c.histogram().bin_width == 0.01171875f);
  REQUIRE(c.range().has_value());
  // Two values, in bins 0 and 213 (2.5 / 0.01171875 = 213.33).
  CHECK(c.histogram().hist_freq[213] == 1);
  CHECK(c.range()->min == doctest::Approx(0.01171875 / 2));
}
