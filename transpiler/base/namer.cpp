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
  std::string name = root;
  while ((globals_ && globals_->count(name)) || generated_.count(name) || (reserved && reserved(name))) {
    ++n;
    name = fmt::format("{}_{}", root, n);
  }
  generated_.insert(name);
  return name;
}

}  // namespace agc
