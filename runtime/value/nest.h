// TF's nest (tf.nest) over Values: lists, tuples and dicts are structures,
// everything else (tensors, numbers, None, TensorArrays, objects) is a leaf.
// A dict's values are visited in sorted key order, as nest.flatten gives
// them; a rebuilt dict keeps its own key order. AutoGraph's loop and branch
// state, and tf.function's inputs and outputs, are such structures.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/value/value.h"

namespace ag::nest {

/// A list, tuple or dict.
bool is_nested(const Value& v);

/// A dict's entry indices in sorted key order (nest's _tf_core_sorted); a
/// TypeError "nest only supports dicts with sortable keys." when keys do not
/// compare.
std::vector<size_t> sorted_entries(const DictObj& d);

/// The leaves of `v` in nest.flatten's order.
std::vector<Value> flatten(const Value& v);

/// `structure` with each leaf replaced by f(leaf), f called in flatten order
/// (nest.map_structure over one structure; with f taking the next of a list
/// of leaves, nest.pack_sequence_as).
Value map_structure(const Value& structure, const std::function<Value(const Value&)>& f);

/// What nest.assert_same_structure(a, b) raises when `a` and `b` differ (a
/// TypeError for sequences of different types, else a ValueError), in TF's
/// words: "The two structures don't have the same nested structure. ...
/// More specifically: ...", then both structures drawn with a '.' per leaf.
/// `check_types` false: a list and a tuple count as the same sequence type
/// (assert_same_structure(check_types=False), as tf.while_loop compares).
struct Mismatch {
  bool type_error = false;
  std::string message;
};
std::optional<Mismatch> structure_mismatch(const Value& a, const Value& b, bool check_types = true);

}  // namespace ag::nest
