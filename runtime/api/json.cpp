#include "runtime/api/json.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "runtime/core/utf8.h"
#include "runtime/value/value.h"

namespace ag::json {

const char* Json::kind_name() const {
  switch (v.index()) {
    case 0: return "null";
    case 1: return "boolean";
    case 2: return "integer";
    case 3: return "number";
    case 4: return "string";
    case 5: return "array";
    default: return "object";
  }
}

namespace {

// Nesting limit: deeper documents are refused rather than recursing without
// bound (a hostile ARGS_JSON must not overflow the stack).
constexpr int kMaxDepth = 512;

class Reader {
 public:
  explicit Reader(std::string_view text) : s_(text) {}

  Json document() {
    skip_space();
    Json v = value(0);
    skip_space();
    if (pos_ != s_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw JsonError(what + " at offset " + std::to_string(pos_));
  }
  static std::string hex_byte(unsigned char c) {
    char buf[4];
    std::snprintf(buf, sizeof buf, "%02x", c);
    return buf;
  }
  std::string describe_here() const {
    if (pos_ >= s_.size()) return "end of input";
    unsigned char c = static_cast<unsigned char>(s_[pos_]);
    if (c >= 0x20 && c < 0x7f) return std::string("'") + static_cast<char>(c) + "'";
    return "byte 0x" + hex_byte(c);
  }
  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }
  bool eat(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  Json value(int depth) {
    if (depth > kMaxDepth) fail("JSON nested deeper than " + std::to_string(kMaxDepth) + " levels");
    if (pos_ >= s_.size()) fail("expected a JSON value but found end of input");
    char c = s_[pos_];
    if (c == '{') return object(depth);
    if (c == '[') return array(depth);
    if (c == '"') return Json(string());
    if (c == '-' || (c >= '0' && c <= '9')) {
      if (eat("-Infinity")) return Json(-std::numeric_limits<double>::infinity());
      return number();
    }
    if (eat("true")) return Json(true);
    if (eat("false")) return Json(false);
    if (eat("null")) return Json(nullptr);
    if (eat("NaN")) return Json(std::numeric_limits<double>::quiet_NaN());
    if (eat("Infinity")) return Json(std::numeric_limits<double>::infinity());
    fail("expected a JSON value but found " + describe_here());
  }

  Json array(int depth) {
    ++pos_;  // '['
    Array items;
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return Json(std::move(items));
    }
    for (;;) {
      skip_space();
      items.push_back(value(depth + 1));
      skip_space();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == ']') {
        ++pos_;
        return Json(std::move(items));
      }
      fail("expected ',' or ']' but found " + describe_here());
    }
  }

  Json object(int depth) {
    ++pos_;  // '{'
    Object members;
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      return Json(std::move(members));
    }
    for (;;) {
      skip_space();
      if (pos_ >= s_.size() || s_[pos_] != '"') fail("expected a string key but found " + describe_here());
      std::string key = string();
      skip_space();
      if (pos_ >= s_.size() || s_[pos_] != ':') fail("expected ':' but found " + describe_here());
      ++pos_;
      skip_space();
      members.emplace_back(std::move(key), value(depth + 1));
      skip_space();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == '}') {
        ++pos_;
        return Json(std::move(members));
      }
      fail("expected ',' or '}' but found " + describe_here());
    }
  }

  unsigned hex4() {
    if (pos_ + 4 > s_.size()) fail("truncated \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = s_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<unsigned>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<unsigned>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<unsigned>(c - 'A' + 10);
      else {
        --pos_;
        fail("invalid \\u escape");
      }
    }
    return v;
  }

  std::string string() {
    ++pos_;  // '"'
    std::string out;
    for (;;) {
      if (pos_ >= s_.size()) fail("unterminated string");
      unsigned char c = static_cast<unsigned char>(s_[pos_]);
      if (c == '"') {
        ++pos_;
        return out;
      }
      if (c < 0x20) fail("control character in string (write it as an escape)");
      if (c >= 0x80) {
        // JSON text is UTF-8 (RFC 8259 section 8.1): a byte that is not
        // would come back from json::write as another character.
        auto [cp, n] = next_code_point(s_, pos_);
        if (cp < 0) fail("invalid UTF-8 byte 0x" + hex_byte(c) + " in a string");
        out.append(s_.substr(pos_, n));
        pos_ += n;
        continue;
      }
      if (c != '\\') {
        out += static_cast<char>(c);
        ++pos_;
        continue;
      }
      ++pos_;
      if (pos_ >= s_.size()) fail("unterminated string");
      char e = s_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp < 0xDC00 && s_.substr(pos_, 2) == "\\u") {
            size_t save = pos_;
            pos_ += 2;
            unsigned lo = hex4();
            if (lo >= 0xDC00 && lo < 0xE000) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else {
              pos_ = save;  // a lone high surrogate, then another escape
            }
          }
          append_utf8(out, cp);  // lone surrogates as Python keeps them (encoded as-is)
          break;
        }
        default:
          --pos_;
          fail("invalid escape '\\" + std::string(1, e) + "'");
      }
    }
  }

  Json number() {
    size_t start = pos_;
    bool is_float = false;
    if (s_[pos_] == '-') ++pos_;
    if (pos_ < s_.size() && s_[pos_] == '0') {
      ++pos_;
    } else if (pos_ < s_.size() && s_[pos_] >= '1' && s_[pos_] <= '9') {
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    } else {
      fail("expected a digit but found " + describe_here());
    }
    if (pos_ < s_.size() && s_[pos_] == '.') {
      is_float = true;
      ++pos_;
      if (pos_ >= s_.size() || s_[pos_] < '0' || s_[pos_] > '9') fail("expected a digit after '.'");
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      is_float = true;
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (pos_ >= s_.size() || s_[pos_] < '0' || s_[pos_] > '9') fail("expected a digit in the exponent");
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    }
    if (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') fail("leading zeros are not allowed in JSON numbers");
    std::string text(s_.substr(start, pos_ - start));
    if (!is_float) {
      int64_t v = 0;
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (ec != std::errc() || end != text.data() + text.size()) {
        pos_ = start;
        fail("integer " + text + " does not fit in 64 bits");
      }
      return Json(v);
    }
    // Overflow to infinity is what Python's json.loads('1e999') gives too.
    return Json(std::strtod(text.c_str(), nullptr));
  }

  std::string_view s_;
  size_t pos_ = 0;
};

void write_to(std::string& out, const Json& v) {
  switch (v.v.index()) {
    case 0: out += "null"; return;
    case 1: out += v.as_bool() ? "true" : "false"; return;
    case 2: out += std::to_string(v.as_int()); return;
    case 3: {
      double d = v.as_float();
      if (std::isnan(d)) out += "NaN";
      else if (std::isinf(d)) out += d > 0 ? "Infinity" : "-Infinity";
      else out += float_repr(d);
      return;
    }
    case 4: write_string(out, v.as_string()); return;
    case 5: {
      out += '[';
      bool first = true;
      for (const Json& item : v.as_array()) {
        if (!first) out += ", ";
        first = false;
        write_to(out, item);
      }
      out += ']';
      return;
    }
    default: {
      out += '{';
      bool first = true;
      for (const auto& [key, item] : v.as_object()) {
        if (!first) out += ", ";
        first = false;
        write_string(out, key);
        out += ": ";
        write_to(out, item);
      }
      out += '}';
      return;
    }
  }
}

}  // namespace

Json parse(std::string_view text) { return Reader(text).document(); }

void write_string(std::string& out, std::string_view s) {
  out += '"';
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    char buf[8];
    switch (c) {
      case '"': out += "\\\""; ++i; continue;
      case '\\': out += "\\\\"; ++i; continue;
      case '\n': out += "\\n"; ++i; continue;
      case '\r': out += "\\r"; ++i; continue;
      case '\t': out += "\\t"; ++i; continue;
      case '\b': out += "\\b"; ++i; continue;
      case '\f': out += "\\f"; ++i; continue;
      default: break;
    }
    if (c < 0x20 || c == 0x7f) {
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
      ++i;
      continue;
    }
    auto [cp, n] = next_code_point(s, i);
    if (cp >= 0) {
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    // A lone surrogate, as the reader keeps a "\ud800" escape (Python's
    // surrogatepass bytes), is written as that escape again; any other byte
    // that is not UTF-8 as \u00XX, its Latin-1 reading.
    if (c == 0xED && i + 2 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xE0) == 0xA0 &&
        (static_cast<unsigned char>(s[i + 2]) & 0xC0) == 0x80) {
      unsigned surrogate = 0xD000 | (static_cast<unsigned char>(s[i + 1]) & 0x3F) << 6 |
                           (static_cast<unsigned char>(s[i + 2]) & 0x3F);
      std::snprintf(buf, sizeof buf, "\\u%04x", surrogate);
      out += buf;
      i += 3;
      continue;
    }
    std::snprintf(buf, sizeof buf, "\\u%04x", c);
    out += buf;
    ++i;
  }
  out += '"';
}

std::string write(const Json& value) {
  std::string out;
  write_to(out, value);
  return out;
}

}  // namespace ag::json
