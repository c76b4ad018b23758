#include "transpiler/base/suggestions.h"

#include <algorithm>
#include <limits>

namespace agc {
namespace {

constexpr size_t kMoveCost = 2;
constexpr size_t kCaseCost = 1;
// CPython gives up on longer names (they are never typos of short ones).
constexpr size_t kMaxStringSize = 40;

size_t substitution_cost(char a, char b) {
  if ((a & 31) != (b & 31)) return kMoveCost;
  if (a == b) return 0;
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  return lower(a) == lower(b) ? kCaseCost : kMoveCost;
}

}  // namespace

size_t suggestion_distance(std::string_view a, std::string_view b, size_t max_cost) {
  // Common prefixes and suffixes cost nothing.
  while (!a.empty() && !b.empty() && a.front() == b.front()) {
    a.remove_prefix(1);
    b.remove_prefix(1);
  }
  while (!a.empty() && !b.empty() && a.back() == b.back()) {
    a.remove_suffix(1);
    b.remove_suffix(1);
  }
  if (a.empty() || b.empty()) return (a.size() + b.size()) * kMoveCost;
  if (a.size() > kMaxStringSize || b.size() > kMaxStringSize) return max_cost + 1;
  if (b.size() < a.size()) std::swap(a, b);
  if ((b.size() - a.size()) * kMoveCost > max_cost) return max_cost + 1;
  // One row of the Wagner-Fischer table over a, extended by b's characters.
  std::vector<size_t> row(a.size());
  for (size_t i = 0; i < a.size(); ++i) row[i] = (i + 1) * kMoveCost;
  size_t result = 0;
  for (size_t bi = 0; bi < b.size(); ++bi) {
    size_t distance = result = bi * kMoveCost;
    size_t minimum = std::numeric_limits<size_t>::max();
    for (size_t ai = 0; ai < a.size(); ++ai) {
      size_t substitute = distance + substitution_cost(b[bi], a[ai]);
      distance = row[ai];
      size_t insert_delete = std::min(result, distance) + kMoveCost;
      result = std::min(insert_delete, substitute);
      row[ai] = result;
      minimum = std::min(minimum, result);
    }
    if (minimum > max_cost) return max_cost + 1;
  }
  return result;
}

std::string_view closest_name(std::string_view name, const std::vector<std::string_view>& candidates) {
  return closest_name(name, candidates, {});
}

std::string_view closest_name(std::string_view name, const std::vector<std::string_view>& candidates,
                              const std::vector<std::string_view>& preferred) {
  std::string_view best;
  size_t best_distance = std::numeric_limits<size_t>::max();
  bool best_preferred = false;
  for (std::string_view c : candidates) {
    if (c == name) continue;
    bool is_preferred = std::find(preferred.begin(), preferred.end(), c) != preferred.end();
    // No more than a third of the characters involved may change.
    size_t max_distance = (name.size() + c.size() + 3) * kMoveCost / 6;
    // A preferred candidate may tie the best; others must beat it.
    size_t bound = is_preferred && !best_preferred ? best_distance : best_distance - 1;
    max_distance = std::min(max_distance, bound);
    size_t d = suggestion_distance(name, c, max_distance);
    if (d > max_distance) continue;
    if (best.empty() || d < best_distance || (d == best_distance && is_preferred && !best_preferred)) {
      best = c;
      best_distance = d;
      best_preferred = is_preferred;
    }
  }
  return best;
}

}  // namespace agc
