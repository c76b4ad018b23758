// Named tuples: collections.namedtuple's classes, and the namedtuple
// results of TF's functions (TopKV2(values, indices) of tf.math.top_k,
// Unique(y, idx) of tf.unique, Qr(q, r) of tf.linalg.qr): a tuple that also
// reads its fields by name.
#pragma once

#include <string>
#include <vector>

#include "runtime/value/value.h"

namespace ag::tf {

/// A `type_name(*fields)` namedtuple holding `items` (one per field): it
/// indexes, unpacks, iterates and has a len() as a tuple does, reads
/// `.field`, and prints as Python's "TopKV2(values=..., indices=...)".
Value named_tuple(const std::string& type_name, const std::vector<std::string>& fields, std::vector<Value> items);

/// collections.namedtuple(type_name, fields, defaults=...): a class whose
/// call binds its arguments to the fields as Python's generated __new__ does
/// (`defaults` apply to the last fields), with _fields, _asdict, _replace
/// and _make.
Value named_tuple_class(const std::string& type_name, const std::vector<std::string>& fields,
                        std::vector<Value> defaults);

}  // namespace ag::tf
