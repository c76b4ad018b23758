// How the AVX512 GEMM paths (bf16_gemm_avx512, int8_gemm_vnni) cover C:
// column panels of a fixed width against groups of rows, one unit of work
// per (panel, row group), units spread over the kernel pool when the product
// is big enough, each unit calling its micro-kernel on a few rows at a time.
#pragma once

#include <algorithm>
#include <cstdint>

#include "runtime/ops/kernels/gemm.h"

namespace ag::kernels::detail {

/// Calls tile(i, rows, q, cols) for every block of up to `max_rows` rows of
/// the m×n product starting at row i, in column panel q of `panel` columns
/// (`cols` of which lie inside C). `k` sizes the work for the thread choice.
template <class Tile>
void for_each_tile(int64_t m, int64_t n, int64_t k, int threads, int64_t panel, int max_rows, Tile&& tile) {
  const int64_t row_group = 8 * max_rows;
  const int64_t panels = (n + panel - 1) / panel;
  const int64_t row_groups = (m + row_group - 1) / row_group;
  const int64_t units = panels * row_groups;
  const double macs = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  const int parts = static_cast<int>(std::min<int64_t>(threads_for(macs) > 1 && threads > 1 ? 8 : 1, units));
  parallel_for(units, parts, [&](int64_t first, int64_t last) {
    for (int64_t u = first; u < last; ++u) {
      const int64_t q = u / row_groups, group = u % row_groups;
      const int64_t cols = std::min(panel, n - q * panel);
      const int64_t row_end = std::min(m, (group + 1) * row_group);
      for (int64_t i = group * row_group; i < row_end; i += max_rows) {
        tile(i, static_cast<int>(std::min<int64_t>(max_rows, row_end - i)), q, cols);
      }
    }
  });
}

}  // namespace ag::kernels::detail
