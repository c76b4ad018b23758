#include "transpiler/base/identifier.h"

#include <mutex>
#include <unordered_set>

namespace agc {

const std::string& Identifier::intern(std::string_view text) {
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  // Never destroyed: nodes holding identifiers may outlive static destructors.
  static auto* table = new std::unordered_set<std::string, Hash, std::equal_to<>>();
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  auto it = table->find(text);
  if (it == table->end()) it = table->emplace(text).first;
  return *it;
}

}  // namespace agc
