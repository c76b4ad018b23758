#include "runtime/value/bytes_value.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "runtime/core/utf8.h"
#include "runtime/value/ndarray.h"
#include "runtime/value/user_function.h"

namespace ag::bytes_value {

using detail::BinOp;

namespace {

// ---- Codecs: the three TF programs meet (CPython's names and messages).
enum class Codec { Utf8, Ascii, Latin1 };

Codec codec(const std::string& name) {
  std::string n;
  for (char c : name) n += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (n == "utf-8" || n == "utf8" || n == "u8") return Codec::Utf8;
  if (n == "ascii" || n == "us-ascii") return Codec::Ascii;
  if (n == "latin-1" || n == "latin1" || n == "iso-8859-1" || n == "iso8859-1" || n == "l1") return Codec::Latin1;
  throw LookupError("unknown encoding: " + name);
}

const char* codec_name(Codec c) { return c == Codec::Utf8 ? "utf-8" : c == Codec::Ascii ? "ascii" : "latin-1"; }

enum class Errors { Strict, Ignore, Replace };

Errors error_handler(const std::string& name) {
  if (name == "strict") return Errors::Strict;
  if (name == "ignore") return Errors::Ignore;
  if (name == "replace") return Errors::Replace;
  throw LookupError("unknown error handler name '" + name + "'");
}

std::string hex_byte(unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", c);
  return buf;
}

std::string char_repr(uint32_t cp) {
  char buf[16];
  if (cp < 0x100) {
    std::snprintf(buf, sizeof buf, "'\\x%02x'", cp);
  } else if (cp < 0x10000) {
    std::snprintf(buf, sizeof buf, "'\\u%04x'", cp);
  } else {
    std::snprintf(buf, sizeof buf, "'\\U%08x'", cp);
  }
  return buf;
}

/// The raw bytes of a bytes-like argument of a bytes method; TypeError in
/// Python's words for anything else.
const std::string& bytes_arg(const Value& v) {
  if (is_bytes(v)) return data(v);
  throw TypeError("a bytes-like object is required, not '" + v.type_name() + "'");
}

/// An argument of a shared str method seen as the str of its raw bytes.
Value as_raw_str(const Value& v) {
  if (is_bytes(v)) return Value(data(v));
  if (v.is_tuple()) {
    std::vector<Value> items;
    for (const Value& x : v.items()) items.push_back(as_raw_str(x));
    return Value::tuple(std::move(items));
  }
  if (v.is_none() || v.is_index()) return v;
  return Value(bytes_arg(v));  // raises
}

/// A shared str method's result as bytes (strs, and lists/tuples of them).
Value as_bytes_result(const Value& v) {
  if (v.is_str()) return make(v.as_str());
  if (v.is_list() || v.is_tuple()) {
    std::vector<Value> items;
    for (const Value& x : v.items()) items.push_back(as_bytes_result(x));
    return v.is_list() ? Value::list(std::move(items)) : Value::tuple(std::move(items));
  }
  return v;
}

/// The bytes of an iterable of ints, as bytes() and bytes.join read them.
std::string from_ints(const Value& iterable) {
  std::string out;
  for (const Value& x : ag::iterate(iterable)) {
    if (!x.is_index()) throw TypeError("'" + x.type_name() + "' object cannot be interpreted as an integer");
    int64_t i = x.as_int();
    if (i < 0 || i > 255) throw ValueError("bytes must be in range(0, 256)");
    out += static_cast<char>(i);
  }
  return out;
}

}  // namespace

bool is_bytes(const Value& v) {
  return v.is_ndarray() && ndarray::is_scalar(v) && ndarray::tensor(v).dtype() == DType::String;
}

Value make(std::string data) { return ndarray::scalar(Tensor::scalar<std::string>(std::move(data))); }

const std::string& data(const Value& v) { return ndarray::tensor(v).data<std::string>()[0]; }

Value getitem(const Value& b, const std::vector<IndexPart>& parts) {
  const std::string& s = data(b);
  auto n = static_cast<int64_t>(s.size());
  if (parts.size() != 1) throw TypeError("byte indices must be integers or slices, not tuple");
  if (const SliceSpec* slice = std::get_if<SliceSpec>(&parts[0])) {
    SliceRange r = slice_indices(n, *slice);
    std::string out;
    for (int64_t k = 0, i = r.start; k < r.count; ++k, i += r.step) out += s[static_cast<size_t>(i)];
    return make(std::move(out));
  }
  const Value& key = std::get<Value>(parts[0]);
  if (!key.is_index()) throw TypeError("byte indices must be integers or slices, not " + key.type_name());
  int64_t i = key.as_int();
  if (i < 0) i += n;
  if (i < 0 || i >= n) throw IndexError("index out of range");
  return Value(static_cast<int64_t>(static_cast<unsigned char>(s[static_cast<size_t>(i)])));
}

std::vector<Value> iterate(const Value& b) {
  std::vector<Value> out;
  for (char c : data(b)) out.emplace_back(static_cast<int64_t>(static_cast<unsigned char>(c)));
  return out;
}

bool contains(const Value& b, const Value& item) {
  if (item.is_index()) {
    int64_t i = item.as_int();
    if (i < 0 || i > 255) throw ValueError("byte must be in range(0, 256)");
    return data(b).find(static_cast<char>(i)) != std::string::npos;
  }
  return data(b).find(bytes_arg(item)) != std::string::npos;
}

std::optional<Value> binary(detail::BinOp op, const Value& a, const Value& b) {
  if (op == BinOp::Mul && (a.is_index() || b.is_index())) {
    const Value& seq = is_bytes(a) ? a : b;
    if (!is_bytes(seq)) return std::nullopt;
    int64_t times = (is_bytes(a) ? b : a).as_int();
    std::string out;
    for (int64_t i = 0; i < times; ++i) out += data(seq);
    return make(std::move(out));
  }
  if (op == BinOp::Add && is_bytes(a) && !is_bytes(b)) throw TypeError("can't concat " + b.type_name() + " to bytes");
  if (op == BinOp::Add && a.is_str()) {
    throw TypeError("can only concatenate str (not \"" + b.type_name() + "\") to str");
  }
  if (!is_bytes(a) || !is_bytes(b)) return std::nullopt;
  int c = data(a).compare(data(b));
  switch (op) {
    case BinOp::Add: return make(data(a) + data(b));
    case BinOp::Less: return Value(c < 0);
    case BinOp::LessEqual: return Value(c <= 0);
    case BinOp::Greater: return Value(c > 0);
    case BinOp::GreaterEqual: return Value(c >= 0);
    default: return std::nullopt;  // == and != are ndarray::equal's, as for every NumPy scalar
  }
}

std::optional<Value> method(const Value& self, std::string_view name) {
  std::string n(name);
  if (name == "decode") {
    std::vector<Param> params{{"encoding", Value("utf-8")}, {"errors", Value("strict")}};
    return Value::callable("decode", [self, params](std::vector<Value> args, Kwargs kwargs) {
      std::vector<Value> a = bind_arguments("decode", params, std::move(args), std::move(kwargs));
      if (!a[0].is_str()) throw TypeError("decode() argument 'encoding' must be str, not " + a[0].type_name());
      if (!a[1].is_str()) throw TypeError("decode() argument 'errors' must be str, not " + a[1].type_name());
      return Value(decode(data(self), a[0].as_str(), a[1].as_str()));
    });
  }
  if (name == "hex") {
    return Value::callable("hex", [self](std::vector<Value> args, Kwargs kwargs) {
      bind_arguments("hex", {}, std::move(args), std::move(kwargs));
      std::string out;
      for (char c : data(self)) out += hex_byte(static_cast<unsigned char>(c)).substr(2);
      return Value(std::move(out));
    });
  }
  if (name == "join") {
    return Value::callable("join", [self](std::vector<Value> args, Kwargs kwargs) {
      std::vector<Value> a = bind_arguments("join", {{"iterable_of_bytes"}}, std::move(args), std::move(kwargs));
      std::vector<Value> parts = ag::iterate(a[0]);
      std::string out;
      for (size_t i = 0; i < parts.size(); ++i) {
        if (!is_bytes(parts[i])) {
          throw TypeError("sequence item " + std::to_string(i) + ": expected a bytes-like object, " +
                          parts[i].type_name() + " found");
        }
        if (i > 0) out += data(self);
        out += data(parts[i]);
      }
      return make(std::move(out));
    });
  }
  // The rest are str's methods working bytewise on the raw bytes.
  static const char* const kShared[] = {"split",      "strip",    "lstrip",  "rstrip", "upper",
                                        "lower",      "startswith", "endswith", "replace", "find",
                                        "rfind",      "partition", "rpartition", "splitlines"};
  if (std::none_of(std::begin(kShared), std::end(kShared), [&](const char* m) { return name == m; })) {
    return std::nullopt;
  }
  std::optional<Value> str_fn = builtin_method(Value(data(self)), name);
  if (!str_fn) return std::nullopt;
  return Value::callable(n, [fn = *str_fn](std::vector<Value> args, Kwargs kwargs) {
    for (Value& a : args) a = as_raw_str(a);
    for (auto& [k, v] : kwargs) v = as_raw_str(v);
    return as_bytes_result(fn(std::move(args), std::move(kwargs)));
  });
}

Value construct(std::vector<Value> args, Kwargs kwargs) {
  std::vector<Param> params{{"source", Value()}, {"encoding", Value()}, {"errors", Value()}};
  std::vector<Value> a = bind_arguments("bytes", params, std::move(args), std::move(kwargs));
  const Value& source = a[0];
  if (source.is_str()) {
    if (a[1].is_none()) throw TypeError("string argument without an encoding");
    return encode(source.as_str(), a[1].as_str(), a[2].is_none() ? "strict" : a[2].as_str());
  }
  if (!a[1].is_none() || !a[2].is_none()) {
    throw TypeError(a[1].is_none() ? "errors without a string argument" : "encoding without a string argument");
  }
  if (source.is_none()) return make("");
  if (is_bytes(source)) return source;
  if (source.is_index()) {
    int64_t n = source.as_int();
    if (n < 0) throw ValueError("negative count");
    return make(std::string(static_cast<size_t>(n), '\0'));
  }
  if (source.is_float()) throw TypeError("cannot convert 'float' object to bytes");
  return make(from_ints(source));
}

Value encode(const std::string& text, const std::string& encoding, const std::string& errors) {
  Codec c = codec(encoding);
  Errors e = error_handler(errors);
  if (c == Codec::Utf8) return make(text);
  uint32_t limit = c == Codec::Ascii ? 0x80 : 0x100;
  std::string out;
  size_t position = 0;  // in code points, as CPython counts
  for (size_t at = 0; at < text.size(); ++position) {
    auto [cp, len] = next_code_point(text, at);
    at += len;
    const uint32_t u = cp < 0 ? 0xFFFD : static_cast<uint32_t>(cp);
    if (u < limit) {
      out += static_cast<char>(u);
    } else if (e == Errors::Replace) {
      out += '?';
    } else if (e == Errors::Strict) {
      throw UnicodeEncodeError(std::string("'") + codec_name(c) + "' codec can't encode character " + char_repr(u) +
                               " in position " + std::to_string(position) + ": ordinal not in range(" +
                               std::to_string(limit) + ")");
    }
  }
  return make(std::move(out));
}

std::string decode(const std::string& s, const std::string& encoding, const std::string& errors) {
  Codec c = codec(encoding);
  Errors e = error_handler(errors);
  std::string out;
  auto fail = [&](size_t pos, size_t count, const std::string& reason) {
    std::string what = count == 1 ? "byte " + hex_byte(static_cast<unsigned char>(s[pos])) + " in position " +
                                        std::to_string(pos)
                                  : "bytes in position " + std::to_string(pos) + "-" + std::to_string(pos + count - 1);
    if (e == Errors::Strict) {
      throw UnicodeDecodeError(std::string("'") + codec_name(c) + "' codec can't decode " + what + ": " + reason);
    }
    if (e == Errors::Replace) append_utf8(out, 0xFFFD);
  };
  for (size_t i = 0; i < s.size();) {
    auto b = static_cast<unsigned char>(s[i]);
    if (c == Codec::Latin1 || b < 0x80) {
      append_utf8(out, b);
      ++i;
    } else if (c == Codec::Ascii) {
      fail(i, 1, "ordinal not in range(128)");
      ++i;
    } else {
      auto [cp, len] = next_code_point(s, i);
      if (cp >= 0) {
        out.append(s, i, len);
      } else if (b < 0xC2 || b > 0xF4) {
        fail(i, 1, "invalid start byte");
      } else if (i + len == s.size()) {
        fail(i, len, "unexpected end of data");  // CPython names every byte present
      } else {
        fail(i, 1, "invalid continuation byte");
      }
      i += len;
    }
  }
  return out;
}

}  // namespace ag::bytes_value
