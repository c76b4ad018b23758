// A module's C++ cut into translation units that compile side by side: a
// big module's one .cpp keeps one core busy for all of a build (issue 17:
// 20 s of -O2 for a 1,073-line program), while its functions depend on one
// another only through the module's globals and run(), which makes their
// function values (and calls its parts, for a long module).
#include <algorithm>

#include "transpiler/emit/cpp_emitter.h"

namespace agc::emit {

std::vector<std::string_view> CppOutput::source_pieces() const {
  std::vector<std::string_view> pieces{parts.head, parts.data};
  pieces.insert(pieces.end(), parts.definitions.begin(), parts.definitions.end());
  pieces.insert(pieces.end(), {parts.run, parts.close, parts.rest});
  return pieces;
}

std::string CppOutput::source() const {
  std::string text;
  text.reserve(source_size());
  for (std::string_view p : source_pieces()) text += p;
  return text;
}

size_t CppOutput::source_size() const {
  size_t n = 0;
  for (std::string_view p : source_pieces()) n += p.size();
  return n;
}

std::vector<std::string> translation_units(const CppOutput& out, size_t n) {
  const CppOutput::Parts& p = out.parts;
  const size_t defs = p.definitions.size();
  if (n <= 1 || defs == 0) return {out.source()};
  // Runs of definitions in order, each about 1/n of the code to compile;
  // the first unit also compiles run() and main().
  size_t total = p.run.size() + p.rest.size();
  for (const std::string& d : p.definitions) total += d.size();
  const size_t share = total / n;
  std::vector<size_t> unit_of(defs);
  size_t unit = 0, filled = p.run.size() + p.rest.size();
  for (size_t i = 0; i < defs; ++i) {
    // A definition goes to the next unit when more than half of it would
    // overflow this one's share.
    if (unit + 1 < n && filled > 0 && filled + p.definitions[i].size() / 2 > share) {
      ++unit;
      filled = 0;
    }
    unit_of[i] = unit;
    filled += p.definitions[i].size();
  }
  // Every unit declares every definition: run() and its parts use them.
  std::string declarations;
  for (const std::string& d : p.declarations) declarations += d;
  std::vector<std::string> units(unit + 1, p.head + declarations + "\n");
  units[0] += p.data;
  for (size_t i = 0; i < defs; ++i) units[unit_of[i]] += p.definitions[i];
  units[0] += p.run + p.close + p.rest;
  for (size_t u = 1; u <= unit; ++u) units[u] += p.close;
  return units;
}

}  // namespace agc::emit
