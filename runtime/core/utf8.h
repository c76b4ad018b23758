// UTF-8: encoding one code point, as chr(), JSON's \u escapes and
// tf.strings.unicode_encode write it, and decoding one, as
// tf.strings.unicode_decode and bytes.decode read it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

namespace ag {

/// Appends the UTF-8 encoding of `cp` (at most 0x10FFFF; surrogates are
/// encoded as they are, as Python's surrogatepass keeps them) to `out`.
inline void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

/// One code point of UTF-8 at `s[i]`: its value and length, or -1 with the
/// length of the maximal ill-formed subpart (Unicode's "best practice").
inline std::pair<int32_t, size_t> next_code_point(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char b = byte(i);
  if (b < 0x80) return {b, 1};
  int need;
  unsigned char lo = 0x80, hi = 0xBF;
  int32_t cp;
  if (b >= 0xC2 && b <= 0xDF) {
    need = 1;
    cp = b & 0x1F;
  } else if (b >= 0xE0 && b <= 0xEF) {
    need = 2;
    cp = b & 0x0F;
    if (b == 0xE0) lo = 0xA0;
    if (b == 0xED) hi = 0x9F;
  } else if (b >= 0xF0 && b <= 0xF4) {
    need = 3;
    cp = b & 0x07;
    if (b == 0xF0) lo = 0x90;
    if (b == 0xF4) hi = 0x8F;
  } else {
    return {-1, 1};
  }
  size_t k = i + 1;
  for (int j = 0; j < need; ++j, ++k) {
    if (k >= s.size()) return {-1, k - i};
    unsigned char c = byte(k);
    unsigned char l = j == 0 ? lo : 0x80, h = j == 0 ? hi : 0xBF;
    if (c < l || c > h) return {-1, k - i};
    cp = (cp << 6) | (c & 0x3F);
  }
  return {cp, k - i};
}

}  // namespace ag
