// A Python identifier's text, interned: the process keeps one copy of each
// distinct text, and an Identifier is a pointer to it. The AST's Name.id and
// Attribute.attr are Identifiers: a converted function repeats a few names
// (ag__, ld, fscope, each variable) across millions of nodes, and an
// std::string in each cost 32 bytes a node (more for names past 15 bytes).
// Equal identifiers compare by address.
//
// Reads look like a const std::string (it converts to one and to a
// string_view); it is assigned from any string. Texts are never freed: the
// distinct identifiers of any input are few beside its nodes.
#pragma once

#include <algorithm>
#include <compare>
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace agc {

class Identifier {
 public:
  Identifier() : text_(&intern({})) {}
  explicit Identifier(std::string_view text) : text_(&intern(text)) {}
  Identifier& operator=(std::string_view text) {
    text_ = &intern(text);
    return *this;
  }

  const std::string& str() const { return *text_; }
  operator const std::string&() const { return *text_; }
  operator std::string_view() const { return *text_; }
  bool empty() const { return text_->empty(); }

  friend bool operator==(const Identifier& a, const Identifier& b) { return a.text_ == b.text_; }
  friend bool operator==(const Identifier& a, std::string_view b) { return *a.text_ == b; }
  friend std::strong_ordering operator<=>(const Identifier& a, const Identifier& b) {
    return a.text_ == b.text_ ? std::strong_ordering::equal : std::string_view(*a.text_) <=> std::string_view(*b.text_);
  }
  friend std::strong_ordering operator<=>(const Identifier& a, std::string_view b) {
    return std::string_view(*a.text_) <=> b;
  }
  friend std::string operator+(const Identifier& a, std::string_view b) { return std::string(*a.text_).append(b); }
  friend std::string operator+(std::string_view a, const Identifier& b) { return std::string(a).append(*b.text_); }
  friend std::ostream& operator<<(std::ostream& os, const Identifier& i) { return os << *i.text_; }

 private:
  /// The one copy of `text`, made on first use (thread-safe).
  static const std::string& intern(std::string_view text);
  const std::string* text_;
};

}  // namespace agc

template <>
struct std::hash<agc::Identifier> {
  size_t operator()(const agc::Identifier& i) const { return std::hash<const void*>()(&i.str()); }
};

// Formats as its text, without format specs. (Deriving from the string_view
// formatter trips GCC 12's -Wstringop-overflow inside fmt 9's spec parser.)
template <>
struct fmt::formatter<agc::Identifier> {
  constexpr auto parse(fmt::format_parse_context& ctx) { return ctx.begin(); }
  auto format(const agc::Identifier& i, fmt::format_context& ctx) const {
    return std::copy(i.str().begin(), i.str().end(), ctx.out());
  }
};
