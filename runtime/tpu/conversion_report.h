// The conversion report the converter prints and returns (TPU_EMULATOR.md
// section 7, the seed's layout): the TPU and CPU shares of the model's cost,
// then one row per TPU function in tpu_functions order.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ag::tpu {

struct ReportRow {
  std::string name;  // the alias when selected by alias, else the concrete or signature name
  int64_t cost = 0;
};

/// The report's text, ending in a newline.
std::string conversion_report(int64_t cpu_cost, const std::vector<ReportRow>& tpu_functions);

}  // namespace ag::tpu
