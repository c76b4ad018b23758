#include "runtime/value/nest.h"

#include <algorithm>
#include <numeric>

namespace ag::nest {

std::vector<size_t> sorted_entries(const DictObj& d) {
  std::vector<size_t> order(d.entries.size());
  std::iota(order.begin(), order.end(), size_t{0});
  try {
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return truthy(d.entries[a].first < d.entries[b].first); });
  } catch (const TypeError&) {
    throw TypeError("nest only supports dicts with sortable keys.");
  }
  return order;
}

namespace {

/// The children of a structure in flatten order.
std::vector<Value> children(const Value& v) {
  if (!v.is_dict()) return v.items();
  const DictObj& d = v.as_dict();
  std::vector<Value> out;
  for (size_t i : sorted_entries(d)) out.push_back(d.entries[i].second);
  return out;
}

void flatten_into(const Value& v, std::vector<Value>& out) {
  if (!is_nested(v)) {
    out.push_back(v);
    return;
  }
  for (const Value& c : children(v)) flatten_into(c, out);
}

/// util.cc's PyObjectToString: "type=list str=[1, 2]".
std::string describe(const Value& v) { return "type=" + v.type_name() + " str=" + str(v); }

/// The structure with a '.' per leaf, as str(map_structure(lambda _: _DOT, v)).
std::string dots(const Value& v) {
  if (v.is_dict()) {
    std::string s = "{";
    bool first = true;
    for (const auto& [k, x] : v.as_dict().entries) {
      s += (first ? "" : ", ") + repr(k) + ": " + dots(x);
      first = false;
    }
    return s + "}";
  }
  if (!is_nested(v)) return ".";
  const std::vector<Value>& items = v.items();
  std::string s = v.is_list() ? "[" : "(";
  for (size_t i = 0; i < items.size(); ++i) s += (i > 0 ? ", " : "") + dots(items[i]);
  if (v.is_tuple() && items.size() == 1) s += ",";
  return s + (v.is_list() ? "]" : ")");
}

/// util.cc's AssertSameStructureHelper: the first difference, or "".
std::string difference(const Value& a, const Value& b, bool check_types, bool& type_error) {
  bool na = is_nested(a), nb = is_nested(b);
  if (na != nb) {
    type_error = false;
    return "Substructure \"" + describe(na ? a : b) + "\" is a sequence, while substructure \"" +
           describe(na ? b : a) + "\" is not";
  }
  if (!na) return "";
  bool sequences = !a.is_dict() && !b.is_dict();
  if (a.kind() != b.kind() && (check_types || !sequences)) {
    type_error = true;
    return "The two namedtuples don't have the same sequence type. First structure " + describe(a) + " has type " +
           a.type_name() + ", while second structure " + describe(b) + " has type " + b.type_name();
  }
  if (a.is_dict()) {
    const DictObj& da = a.as_dict();
    const DictObj& db = b.as_dict();
    bool same_keys = da.size() == db.size();
    for (size_t i = 0; same_keys && i < da.entries.size(); ++i) same_keys = db.find(da.entries[i].first) >= 0;
    if (!same_keys) {
      auto keys = [](const DictObj& d) {
        std::vector<Value> k;
        for (const auto& e : d.entries) k.push_back(e.first);
        return describe(Value::list(std::move(k)));
      };
      type_error = false;
      return "The two dictionaries don't have the same set of keys. First structure has keys " + keys(da) +
             ", while second structure has keys " + keys(db);
    }
  }
  std::vector<Value> ca = children(a), cb = children(b);
  for (size_t i = 0; i < ca.size() && i < cb.size(); ++i) {
    std::string d = difference(ca[i], cb[i], check_types, type_error);
    if (!d.empty()) return d;
  }
  if (ca.size() != cb.size()) {
    type_error = false;
    return "The two structures don't have the same number of elements. First structure: " + describe(a) +
           ". Second structure: " + describe(b);
  }
  return "";
}

}  // namespace

bool is_nested(const Value& v) { return v.is_list() || v.is_tuple() || v.is_dict(); }

std::vector<Value> flatten(const Value& v) {
  std::vector<Value> out;
  flatten_into(v, out);
  return out;
}

Value map_structure(const Value& structure, const std::function<Value(const Value&)>& f) {
  if (!is_nested(structure)) return f(structure);
  if (structure.is_dict()) {
    const DictObj& d = structure.as_dict();
    std::vector<std::pair<Value, Value>> entries = d.entries;
    for (size_t i : sorted_entries(d)) entries[i].second = map_structure(d.entries[i].second, f);
    return Value::dict(std::move(entries));
  }
  std::vector<Value> items;
  for (const Value& x : structure.items()) items.push_back(map_structure(x, f));
  return structure.is_list() ? Value::list(std::move(items)) : Value::tuple(std::move(items));
}

std::optional<Mismatch> structure_mismatch(const Value& a, const Value& b, bool check_types) {
  bool type_error = false;
  std::string d = difference(a, b, check_types, type_error);
  if (d.empty()) return std::nullopt;
  return Mismatch{type_error, "The two structures don't have the same nested structure.\n\nFirst structure: " +
                                  describe(a) + "\n\nSecond structure: " + describe(b) +
                                  "\n\nMore specifically: " + d + "\nEntire first structure:\n" + dots(a) +
                                  "\nEntire second structure:\n" + dots(b)};
}

}  // namespace ag::nest
