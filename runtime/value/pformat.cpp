#include "runtime/value/pformat.h"

#include <algorithm>

namespace ag {
namespace {

constexpr int64_t kWidth = 80;

/// pprint's _safe_key order: keys that compare by `<` do so; others by
/// their type's name (pprint then falls back to the id).
bool key_less(const Value& a, const Value& b) {
  try {
    return truthy(a < b);
  } catch (const TypeError&) {
    return a.type_name() < b.type_name();
  }
}

std::vector<std::pair<Value, Value>> sorted_items(const Value& dict) {
  std::vector<std::pair<Value, Value>> items = dict.as_dict().entries;
  std::stable_sort(items.begin(), items.end(), [](const auto& a, const auto& b) { return key_less(a.first, b.first); });
  return items;
}

/// pprint's _safe_repr: repr with dicts sorted by key, at every depth.
std::string safe_repr(const Value& v) {
  if (v.is_dict()) {
    std::string s = "{";
    bool first = true;
    for (const auto& [k, x] : sorted_items(v)) {
      s += (first ? "" : ", ") + safe_repr(k) + ": " + safe_repr(x);
      first = false;
    }
    return s + "}";
  }
  if (v.is_list() || v.is_tuple()) {
    const std::vector<Value>& items = v.items();
    std::string s = v.is_list() ? "[" : "(";
    for (size_t i = 0; i < items.size(); ++i) s += (i > 0 ? ", " : "") + safe_repr(items[i]);
    if (v.is_tuple() && items.size() == 1) s += ",";
    return s + (v.is_list() ? "]" : ")");
  }
  return repr(v);
}

class Printer {
 public:
  std::string out;

  /// PrettyPrinter._format.
  void format(const Value& v, int64_t indent, int64_t allowance) {
    std::string rep = safe_repr(v);
    if (static_cast<int64_t>(rep.size()) <= kWidth - indent - allowance) {
      out += rep;
      return;
    }
    if (v.is_dict()) {
      // _pprint_dict / _format_dict_items.
      out += "{";
      std::vector<std::pair<Value, Value>> items = sorted_items(v);
      const int64_t inner = indent + 1;
      for (size_t i = 0; i < items.size(); ++i) {
        bool last = i + 1 == items.size();
        std::string key = safe_repr(items[i].first);
        out += key + ": ";
        format(items[i].second, inner + static_cast<int64_t>(key.size()) + 2, last ? allowance + 1 : 1);
        if (!last) out += ",\n" + std::string(static_cast<size_t>(inner), ' ');
      }
      out += "}";
      return;
    }
    if (v.is_list() || v.is_tuple()) {
      // _pprint_list / _pprint_tuple / _format_items.
      const std::vector<Value>& items = v.items();
      std::string end = v.is_list() ? "]" : (items.size() == 1 ? ",)" : ")");
      out += v.is_list() ? "[" : "(";
      const int64_t inner = indent + 1;
      const int64_t inner_allowance = allowance + static_cast<int64_t>(end.size());
      for (size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += ",\n" + std::string(static_cast<size_t>(inner), ' ');
        format(items[i], inner, i + 1 == items.size() ? inner_allowance : 1);
      }
      out += end;
      return;
    }
    out += rep;
  }
};

}  // namespace

std::string pformat(const Value& v) {
  Printer p;
  p.format(v, 0, 0);
  return p.out;
}

}  // namespace ag
