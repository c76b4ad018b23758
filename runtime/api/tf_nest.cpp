// tf.nest (nest_util.py) over value/nest: flatten, is_nested,
// assert_same_structure, pack_sequence_as and map_structure, with TF's texts.
// Lists, tuples and dicts are structures; a dict's values go in sorted key order.
#include <string>
#include <vector>

#include "runtime/api/tf_call.h"
#include "runtime/value/nest.h"

namespace ag::tf::impl {
namespace {

/// nest_util's truncate(value, 100).
std::string truncated(const Value& v) {
  std::string s = str(v);
  return s.size() > 100 ? s.substr(0, 100) + "..." : s;
}

void assert_same(const Value& a, const Value& b, bool check_types) {
  if (auto m = nest::structure_mismatch(a, b, check_types)) {
    if (m->type_error) throw TypeError(m->message);
    throw ValueError(m->message);
  }
}

Value pack_sequence_as(const Value& structure, const Value& flat) {
  if (!nest::is_nested(flat)) {
    throw TypeError("Attempted to pack value:\n  " + truncated(flat) +
                    "\ninto a structure, but found incompatible type `<class '" + flat.type_name() + "'>` instead.");
  }
  // The flat sequence's own items (a dict's values in sorted key order).
  std::vector<Value> items =
      flat.is_dict() ? nest::flatten(flat) : std::vector<Value>(flat.items().begin(), flat.items().end());
  if (!nest::is_nested(structure)) {
    if (items.size() != 1) {
      throw ValueError("The target structure is of type `<class '" + structure.type_name() + "'>`\n  " +
                       truncated(structure) + "\nHowever the input is a sequence (<class '" + flat.type_name() +
                       "'>) of length " + std::to_string(items.size()) + ".\n  " + truncated(flat) +
                       "\nnest cannot guarantee that it is safe to map one to the other.");
    }
    return items[0];
  }
  const size_t atoms = nest::flatten(structure).size();
  if (atoms != items.size()) {
    throw ValueError("Could not pack sequence. Structure had " + std::to_string(atoms) + " atoms, but flat_sequence had " +
                     std::to_string(items.size()) + " items.  Structure: " + str(structure) +
                     ", flat_sequence: " + str(flat) + ".");
  }
  size_t pos = 0;
  return nest::map_structure(structure, [&](const Value&) { return items[pos++]; });
}

}  // namespace

Value nest_flatten(const TfCall& c) { return Value::list(nest::flatten(c["structure"])); }

Value nest_is_nested(const TfCall& c) { return Value(nest::is_nested(c["seq"])); }

Value nest_assert_same_structure(const TfCall& c) {
  assert_same(c["nest1"], c["nest2"], truthy(c["check_types"]));
  return Value();
}

Value nest_pack_sequence_as(const TfCall& c) { return pack_sequence_as(c["structure"], c["flat_sequence"]); }

Value nest_map_structure(const TfCall& c) {
  const Value& func = c["func"];
  const std::vector<Value>& structures = c["structure"].items();
  if (!func.is_callable() && !func.is_object()) throw TypeError("func must be callable, got: " + str(func));
  if (structures.empty()) throw ValueError("Must provide at least one structure");
  bool check_types = true;
  std::vector<std::string> unknown;
  for (const auto& [k, v] : c["kwargs"].as_dict().entries) {
    if (k.as_str() == "check_types") {
      check_types = truthy(v);
    } else if (k.as_str() != "expand_composites") {
      unknown.push_back(k.as_str());
    }
  }
  if (!unknown.empty()) {
    std::string names;
    for (const std::string& n : unknown) names += (names.empty() ? "" : "`, `") + n;
    throw ValueError("Only valid keyword arguments are `check_types` and `expand_composites`, not: `" + names + "`");
  }
  for (size_t i = 1; i < structures.size(); ++i) assert_same(structures[0], structures[i], check_types);
  std::vector<std::vector<Value>> flats;
  for (const Value& s : structures) flats.push_back(nest::flatten(s));
  std::vector<Value> results;
  for (size_t k = 0; k < flats[0].size(); ++k) {
    std::vector<Value> args;
    for (const auto& f : flats) args.push_back(f[k]);
    results.push_back(func(std::move(args)));
  }
  return pack_sequence_as(structures[0], Value::list(std::move(results)));
}

}  // namespace ag::tf::impl
