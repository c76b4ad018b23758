#include "runtime/function/retrace_reason.h"

#include "runtime/value/composite_tensor.h"

namespace ag {
namespace {

std::string describe_shape(const Shape& s) {
  if (!s.rank_known()) return "[<unknown>]";
  std::string out = "[";
  for (int i = 0; i < s.rank(); ++i) {
    if (i > 0) out += ", ";
    out += s.dim(i) < 0 ? "None" : std::to_string(s.dim(i));
  }
  return out + "]";
}

std::string items(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string key_list(const std::vector<Value>& keys) {
  std::string s = "[";
  for (size_t i = 0; i < keys.size(); ++i) s += (i ? ", " : "") + repr(keys[i]);
  return s + "]";
}

bool has_key(const std::vector<Value>& keys, const Value& k) {
  for (const Value& have : keys) {
    if (py_equal(have, k)) return true;
  }
  return false;
}

void differences(const TraceType& call, const TraceType& cached, const TraceType* relaxed, const std::string& path,
                 ParamKind kind, std::vector<TypeDifference>& out) {
  using K = TraceType::Kind;
  auto changed = [&] {
    std::string change = describe_trace_type(cached) + " -> " + describe_trace_type(call);
    if (relaxed != nullptr && !(*relaxed == call)) change += " (traced as " + describe_trace_type(*relaxed) + ")";
    out.push_back({path, std::move(change)});
  };
  if (call.kind() != cached.kind()) return changed();
  switch (call.kind()) {
    case K::Tensor:
    case K::Literal:
    case K::Composite:
      if (!call.is_subtype_of(cached)) changed();
      return;
    case K::Identity:
      // Objects are keyed by identity (Python's id()): any other object misses.
      if (!call.is_subtype_of(cached)) out.push_back({path, "a new " + call.literal().type_name() + " object"});
      return;
    case K::List:
    case K::Tuple: {
      size_t n = call.children().size(), m = cached.children().size();
      if (n != m) {
        // *args: the call passed another number of positional arguments.
        if (kind == ParamKind::VarPositional) {
          out.push_back({path, std::to_string(m) + " -> " + items(n, "extra positional argument", "extra positional arguments")});
        } else {
          out.push_back({path, describe_trace_type(cached) + " -> " + describe_trace_type(call)});
        }
        return;
      }
      for (size_t i = 0; i < n; ++i) {
        const TraceType* r = relaxed != nullptr ? &relaxed->children()[i] : nullptr;
        differences(call.children()[i], cached.children()[i], r, path + "[" + std::to_string(i) + "]",
                    ParamKind::PositionalOrKeyword, out);
      }
      return;
    }
    case K::Dict: {
      const std::vector<Value>& now = call.keys();
      const std::vector<Value>& before = cached.keys();
      bool keyword = kind == ParamKind::VarKeyword;
      size_t found = out.size();
      for (const Value& k : now) {
        if (!has_key(before, k)) out.push_back({path, (keyword ? "a new keyword " : "a new key ") + repr(k)});
      }
      for (const Value& k : before) {
        if (!has_key(now, k)) out.push_back({path, (keyword ? "keyword " : "key ") + repr(k) + " no longer given"});
      }
      if (out.size() > found) return;
      // The same keys, both sorted (TraceType::of).
      for (size_t i = 0; i < now.size(); ++i) {
        const TraceType* r = relaxed != nullptr ? &relaxed->children()[i] : nullptr;
        differences(call.children()[i], cached.children()[i], r, path + "[" + repr(now[i]) + "]",
                    ParamKind::PositionalOrKeyword, out);
      }
      return;
    }
  }
}

}  // namespace

std::string describe_trace_type(const TraceType& t) {
  switch (t.kind()) {
    case TraceType::Kind::Tensor: return std::string(dtype_name(t.spec().dtype)) + describe_shape(t.spec().shape);
    case TraceType::Kind::Literal: return repr(t.literal());
    case TraceType::Kind::Identity: return "a " + t.literal().type_name() + " object";
    case TraceType::Kind::Composite: return type_spec_repr(*type_spec_state(t.type_spec()));
    case TraceType::Kind::List: return "a list of " + items(t.children().size(), "item", "items");
    case TraceType::Kind::Tuple: return "a tuple of " + items(t.children().size(), "item", "items");
    case TraceType::Kind::Dict: return "a dict with keys " + key_list(t.keys());
  }
  return {};
}

std::vector<TypeDifference> type_differences(const TraceType& call, const TraceType& cached, const TraceType* relaxed,
                                             const std::string& path, ParamKind param_kind) {
  std::vector<TypeDifference> out;
  differences(call, cached, relaxed, path, param_kind, out);
  return out;
}

std::string explain_retrace(const std::vector<Param>& params, const std::vector<TraceType>& call,
                            const std::vector<TraceType>& traced, const std::vector<const std::vector<TraceType>*>& cached) {
  std::vector<TypeDifference> closest;
  bool any = false;
  for (const std::vector<TraceType>* types : cached) {
    std::vector<TypeDifference> diffs;
    if (types->size() != call.size()) {
      diffs.push_back({"", "a different number of arguments: " + std::to_string(types->size()) + " -> " +
                               std::to_string(call.size())});
    } else {
      for (size_t i = 0; i < call.size(); ++i) {
        std::string name = i < params.size() ? params[i].name : "args_" + std::to_string(i);
        ParamKind kind = i < params.size() ? params[i].kind : ParamKind::PositionalOrKeyword;
        const TraceType* relaxed = i < traced.size() ? &traced[i] : nullptr;
        differences(call[i], (*types)[i], relaxed, name, kind, diffs);
      }
    }
    // The closest trace: the fewest differences, the latest among equals.
    if (!any || diffs.size() <= closest.size()) closest = std::move(diffs);
    any = true;
  }
  std::string s;
  for (const TypeDifference& d : closest) {
    if (!s.empty()) s += "; ";
    s += d.path.empty() ? d.change : d.path + ": " + d.change;
  }
  // A miss always has a difference (the cache's own subtype rule found one).
  if (any && s.empty()) s = "no cached trace accepts these argument types";
  return s;
}

}  // namespace ag
