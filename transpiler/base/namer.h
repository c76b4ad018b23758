// Fresh, deterministic names for generated symbols, as AutoGraph's Namer makes
// them: `if_body`, then `if_body_1`, `if_body_2`, ... skipping any name the
// module defines, the block references, or this namer already handed out.
#pragma once

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace agc {

class Namer {
 public:
  Namer() = default;
  /// The module's names, shared by the namers of all its functions (a module with
  /// thousands of functions must not copy its name set for each).
  explicit Namer(std::shared_ptr<const std::set<std::string>> global_namespace)
      : globals_(std::move(global_namespace)) {}
  explicit Namer(std::set<std::string> global_namespace)
      : globals_(std::make_shared<const std::set<std::string>>(std::move(global_namespace))) {}

  /// Whether a block already uses a name; a predicate, so analyses need not
  /// build a set of strings for every block that asks.
  using Reserved = std::function<bool(const std::string&)>;

  /// A name built from `root` that collides with none of `reserved`, the module's
  /// names, or earlier results. A root ending in `_<digits>` continues from there.
  std::string new_symbol(std::string_view root, const Reserved& reserved);
  std::string new_symbol(std::string_view root, const std::set<std::string>& reserved);

 private:
  std::shared_ptr<const std::set<std::string>> globals_;
  std::unordered_set<std::string> generated_;
  /// Per root, a k such that root_1 .. root_{k-1} were all handed out already:
  /// the search starts there, so a function with n `if`s names them in O(n)
  /// rather than probing if_body, if_body_1, ... afresh each time.
  std::unordered_map<std::string, long> first_unused_;
};

}  // namespace agc
