// Python's bytes. A bytes value is a NumPy String scalar (ndarray.h): what
// TF's .numpy() of a string tensor returns and what its arrays' items are, so
// a b'..' literal, str.encode() and a string tensor's value are one
// representation, and tf.constant(b"ab") converts it like any NumPy scalar.
// Here are the parts of Python's bytes that NumPy's scalar does not have:
// indexing to ints, slicing, iteration, `in`, repetition, ordering, the
// bytes() constructor, decode() and the methods bytes shares with str.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/value/tensor_dispatch.h"
#include "runtime/value/value.h"

namespace ag::bytes_value {

bool is_bytes(const Value& v);
Value make(std::string data);
/// The raw bytes of a bytes value.
const std::string& data(const Value& v);

/// b[i] (an int), b[i:j:k] (bytes).
Value getitem(const Value& b, const std::vector<IndexPart>& parts);
/// The ints of `b`, as iterating a bytes does.
std::vector<Value> iterate(const Value& b);
/// `item in b`: an int in 0..255 or a bytes-like subsequence.
bool contains(const Value& b, const Value& item);
/// `a op b` where one operand is bytes: + concatenates, * repeats, ordering
/// compares bytewise (== and != are ndarray::equal's). nullopt when Python
/// has no such operator (the caller raises its TypeError).
std::optional<Value> binary(detail::BinOp op, const Value& a, const Value& b);
/// A method of bytes (decode, hex, and the ones bytes shares with str:
/// split, strip, startswith, replace, find, join, upper, ...), bound to `self`.
std::optional<Value> method(const Value& self, std::string_view name);

/// bytes(), bytes(n), bytes(iterable of ints), bytes(str, encoding[, errors]).
Value construct(std::vector<Value> args, Kwargs kwargs);
/// str.encode(encoding="utf-8", errors="strict").
Value encode(const std::string& text, const std::string& encoding, const std::string& errors);
/// bytes.decode(encoding="utf-8", errors="strict"): UnicodeDecodeError in
/// Python's words on bytes that are not valid in the encoding.
std::string decode(const std::string& data, const std::string& encoding, const std::string& errors);

}  // namespace ag::bytes_value
