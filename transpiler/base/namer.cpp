#include "transpiler/base/namer.h"

#include <fmt/format.h>

namespace agc {

std::string Namer::new_symbol(std::string_view root, const std::set<std::string>& reserved) {
  return new_symbol(root, Reserved([&](const std::string& name) { return reserved.count(name) > 0; }));
}

std::string Namer::new_symbol(std::string_view root_in, const Reserved& reserved) {
  std::string root(root_in);
  long n = 0;
  // Like AutoGraph: "x_3" continues numbering at 3 with root "x"; "retval_" keeps
  // its trailing underscore because the empty last piece is not a number.
  auto us = root.rfind('_');
  if (us != std::string::npos && us + 1 < root.size() && us + 10 > root.size()) {
    std::string tail = root.substr(us + 1);
    bool digits = !tail.empty();
    for (char c : tail) digits = digits && c >= '0' && c <= '9';
    if (digits) {
      n = std::stol(tail);
      root = root.substr(0, us);
    }
  }
  auto taken = [&](const std::string& name) {
    return (globals_ && globals_->count(name)) || generated_.count(name) || (reserved && reserved(name));
  };
  std::string name = root;
  if (taken(name)) {
    long& first_unused = first_unused_.try_emplace(root, 1).first->second;
    long k = std::max(n + 1, first_unused);
    while (taken(name = fmt::format("{}_{}", root, k))) ++k;
    if (k == first_unused) {
      generated_.insert(name);
      while (generated_.count(fmt::format("{}_{}", root, first_unused))) ++first_unused;
      return name;
    }
  }
  generated_.insert(name);
  return name;
}

}  // namespace agc
