#include "runtime/value/v1_graph_attrs.h"

#include <atomic>

namespace ag {
namespace {
std::atomic<V1AttrHook> g_hook{nullptr};
}  // namespace

void set_v1_attr_hook(V1AttrHook hook) { g_hook.store(hook); }

std::optional<Value> v1_attr(const Value& v, std::string_view name) {
  V1AttrHook hook = g_hook.load();
  return hook ? hook(v, name) : std::nullopt;
}

}  // namespace ag
