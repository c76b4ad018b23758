#include "runtime/tpu/conversion_report.h"

#include <cstdio>

namespace ag::tpu {
namespace {

/// 100·cost/total with printf's rounding ("%.2f"); 0 when total is 0.
std::string percent(int64_t cost, int64_t total, const char* format) {
  char buf[32];
  std::snprintf(buf, sizeof buf, format, total == 0 ? 0.0 : 100.0 * static_cast<double>(cost) / static_cast<double>(total));
  return buf;
}

/// `text` left-justified to `width`; a wider value is followed by one space.
std::string column(const std::string& text, size_t width) {
  return text.size() < width ? text + std::string(width - text.size(), ' ') : text + " ";
}

}  // namespace

std::string conversion_report(int64_t cpu_cost, const std::vector<ReportRow>& tpu_functions) {
  int64_t tpu = 0;
  for (const ReportRow& r : tpu_functions) tpu += r.cost;
  const int64_t total = tpu + cpu_cost;
  const std::string rule(32, '-');
  std::string out = "-------- Conversion Report --------\n";
  out += "TPU cost of the model: " + percent(tpu, total, "%5.2f") + "% (" + std::to_string(tpu) + "/" +
         std::to_string(total) + ")\n";
  out += "CPU cost of the model: " + percent(cpu_cost, total, "%5.2f") + "% (" + std::to_string(cpu_cost) + "/" +
         std::to_string(total) + ")\n";
  out += "\nCost breakdown\n" + std::string(32, '=') + "\n";
  out += "%         Cost    Name\n" + rule + "\n";
  auto row = [&](const std::string& name, int64_t cost) {
    out += column(percent(cost, total, "%.2f"), 10) + column(std::to_string(cost), 8) + name + "\n";
  };
  row("[CPU cost]", cpu_cost);
  for (const ReportRow& r : tpu_functions) row(r.name, r.cost);
  return out + rule + "\n";
}

}  // namespace ag::tpu
