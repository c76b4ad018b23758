// Python's set and frozenset (Kind::Set): CPython 3.11's hash table
// (setobject.c: open addressing, nine linear probes then perturbation, dummy
// entries on removal, resizing at 3/5 full), with CPython's hash for ints,
// floats, bools and tuples, so a set of ints iterates and prints in CPython's
// order ({10, 1} prints {1, 10}). strs hash differently from CPython, which
// randomizes their order per process anyway.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "runtime/value/value.h"

namespace ag {

/// A set's table. Change it only through add() and discard(): they keep
/// CPython's fill/used accounting, which decides when the table grows.
struct SetObj {
  struct Entry {
    Value key;
    int64_t hash = 0;
    enum State : uint8_t { Unused, Active, Dummy } state = Unused;
  };
  bool frozen = false;
  std::vector<Entry> table = std::vector<Entry>(8);
  size_t fill = 0;    // active + dummy entries
  size_t used = 0;    // active entries
  size_t finger = 0;  // where pop() looks first

  bool contains(const Value& key) const;
  /// Adds `key`; TypeError "unhashable type: 'list'" for an unhashable key.
  void add(const Value& key);
  /// Removes `key`; false when absent.
  bool discard(const Value& key);
  /// set.pop(): CPython's choice (the first active entry from the finger).
  Value pop();
  /// The items in table order (Python's iteration order).
  std::vector<Value> items() const;
  size_t size() const { return used; }

  /// set_add_entry with the key's hash already computed.
  void add_hashed(const Value& key, int64_t hash);
  /// set_table_resize: a table of the smallest power of two above `min_used`.
  void resize_for(size_t min_used);
  /// An empty table of the minimum size (set.clear()).
  SetObj* clear_table();

 private:
  size_t lookup(const Value& key, int64_t hash) const;  // index, or table.size()
  void insert_clean(const Value& key, int64_t hash);
};

namespace set_value {

/// A new set (or frozenset) of `items`, added in order as CPython's set(iterable) does.
Value make(const std::vector<Value>& items, bool frozen = false);
/// set(iterable) / frozenset(iterable): CPython's set_update_internal (a
/// set merged table to table, a dict pre-sized); frozenset(f) is f.
Value from_iterable(const Value& iterable, bool frozen);
/// CPython's hash(): ints modulo 2**61-1, floats as CPython's _Py_HashDouble,
/// tuples by its xxHash-based tuplehash, frozensets by frozenset_hash; other
/// hashable kinds by ag::hash. TypeError "unhashable type: 'set'" for a set.
int64_t py_hash(const Value& v);
/// `a op b` for | & - ^ when both are sets (the result has a's kind, as in
/// Python); nullopt when an operand is not a set.
std::optional<Value> binary(char op, const Value& a, const Value& b);
/// a < b, <=, >, >= (subset and superset tests) when both are sets.
bool compare(std::string_view op, const Value& a, const Value& b);
/// set == set (frozensets included): the same items.
bool equal(const Value& a, const Value& b);
/// repr: `{1, 2}`, `set()`, `frozenset({1})`, `frozenset()`.
std::string repr(const Value& v);
/// The method `name` of a set or frozenset bound to `self`, or nullopt.
std::optional<Value> method(const Value& self, std::string_view name);

}  // namespace set_value
}  // namespace ag
