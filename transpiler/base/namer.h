// Fresh, deterministic names for generated symbols, as AutoGraph's Namer makes
// them: `if_body`, then `if_body_1`, `if_body_2`, ... skipping any name the
// module defines, the block references, or this namer already handed out.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace agc {

class Namer {
 public:
  explicit Namer(std::set<std::string> global_namespace = {}) : globals_(std::move(global_namespace)) {}

  /// A name built from `root` that collides with none of `reserved`, the module's
  /// names, or earlier results. A root ending in `_<digits>` continues from there.
  std::string new_symbol(std::string_view root, const std::set<std::string>& reserved);

 private:
  std::set<std::string> globals_;
  std::set<std::string> generated_;
};

}  // namespace agc
