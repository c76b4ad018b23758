// "Did you mean": the closest of some names to a mistyped one, as CPython
// 3.12 picks its suggestion for a NameError or AttributeError
// (Python/suggestions.c), so agc suggests what Python would.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace agc {

/// CPython's edit distance: an insertion, deletion or substitution costs 2, a
/// change of case 1. Past `max_cost` it returns max_cost + 1.
size_t suggestion_distance(std::string_view a, std::string_view b, size_t max_cost);

/// The candidate closest to `name` that is close enough (no more than about a
/// third of the characters involved changed), or "" when none is. A candidate
/// equal to `name` is skipped; ties go to the first.
std::string_view closest_name(std::string_view name, const std::vector<std::string_view>& candidates);

/// closest_name(), preferring `preferred` candidates: one of them wins when it
/// is as close as the closest of all.
std::string_view closest_name(std::string_view name, const std::vector<std::string_view>& candidates,
                              const std::vector<std::string_view>& preferred);

}  // namespace agc
