// Helpers shared by the graph tests: building nodes tersely, skipping a case
// whose ops are not registered, counting nodes and comparing results exactly.
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/graph/graph.h"
#include "runtime/ops/registry.h"

namespace ag::test {

/// False (and a doctest MESSAGE) when an op the case needs is not registered.
inline bool have(std::initializer_list<const char*> ops) {
  for (const char* o : ops) {
    if (OpRegistry::global().find(o) == nullptr) {
      MESSAGE("skipped: op " << o << " not registered yet");
      return false;
    }
  }
  return true;
}

/// A node of op `name` on `in` (no attributes), its first output.
inline Output node(Graph& g, const char* name, std::vector<Output> in, std::string_view node_name = {}) {
  return g.add_node(OpType{name}, std::move(in), {}, node_name)->output();
}

/// Number of `name` nodes in `g` (not in the graphs nested in it).
inline size_t count_op(const Graph& g, std::string_view name) {
  size_t n = 0;
  for (const auto& node : g.nodes()) n += node->op->name == name;
  return n;
}

/// Bytes of `t`'s elements (exact comparison; no strings).
inline std::string bytes_of(const Tensor& t) {
  return std::string(static_cast<const char*>(t.raw_data()), static_cast<size_t>(t.num_elements()) * dtype_size(t.dtype()));
}

}  // namespace ag::test
