// The layering rule of docs/architecture.md, checked over the source tree.
//
// The document states, per component, its layers in order on one line:
//
//   Layer order of runtime: core < ops < graph < ...
//   Layer order of transpiler: base < ast < ...
//   The transpiler includes from the runtime only: runtime/api/tf_table_macros.h, *.def
//
// and this check holds the code to it: a file may include its own layer and
// the layers before it, never a later one; every directory of a component is
// placed in its order; components include each other only as such a line
// allows (so the runtime never includes the transpiler); and no
// header includes itself through others (a cycle among files).
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace agc::layering {

struct Rules {
  /// Component ("runtime", "transpiler") -> its layers, first to last.
  std::vector<std::pair<std::string, std::vector<std::string>>> orders;
  /// (includer, included component) -> the files the one may include from the
  /// other: an exact path, or "*.ext" for any file with that extension.
  /// Components not paired here never include each other.
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> may_include;
};

/// The rules as the architecture document states them; throws
/// std::runtime_error when a line is missing or malformed.
Rules parse_rules(const std::string& architecture_md);

/// Every violation under `root` (the source root holding the components),
/// one line each naming the file, the include and the rule broken.
std::vector<std::string> check(const std::filesystem::path& root, const Rules& rules);

}  // namespace agc::layering
