// A source file held in memory with its line index, and the span type every AST
// node and diagnostic carries. Columns count Unicode code points, 1-based.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace agc {

class SourceFile {
 public:
  SourceFile(std::string path, std::string text);
  ~SourceFile();
  // Its number (FileRef) is its identity: a copy would share it.
  SourceFile(const SourceFile&) = delete;
  SourceFile& operator=(const SourceFile&) = delete;

  const std::string& path() const { return path_; }
  const std::string& text() const { return text_; }

  struct LineCol {
    uint32_t line = 0;  // 1-based
    uint32_t col = 0;   // 1-based, in code points
  };
  /// Line and column of a byte offset (clamped to the text).
  LineCol line_col(uint32_t offset) const;
  /// Byte offset where 1-based `line` starts.
  uint32_t line_start(uint32_t line) const;
  /// Text of 1-based `line`, without its newline.
  std::string_view line_text(uint32_t line) const;
  uint32_t line_count() const { return static_cast<uint32_t>(line_starts_.size()); }

 private:
  friend class FileRef;
  std::string path_;
  std::string text_;
  std::vector<uint32_t> line_starts_;
  uint32_t number_;
};

/// A SourceFile as a 32-bit number that a process-wide table maps to it, used
/// like a pointer: what every span holds, so that a span is 12 bytes and an
/// AST node 8 bytes smaller than with a pointer (large inputs are millions of
/// nodes). Valid while its SourceFile lives, as a pointer would be.
class FileRef {
 public:
  FileRef() = default;
  FileRef(const SourceFile* f) : number_(f ? f->number_ : 0) {}  // NOLINT: spans are built from pointers
  const SourceFile* get() const;
  operator const SourceFile*() const { return get(); }
  const SourceFile* operator->() const { return get(); }
  const SourceFile& operator*() const { return *get(); }
  bool valid() const { return number_ != 0; }

 private:
  uint32_t number_ = 0;
};

/// A half-open byte range [begin, end) in a SourceFile. A default span is "unknown".
struct SourceSpan {
  FileRef file;
  uint32_t begin = 0;
  uint32_t end = 0;

  bool known() const { return file.valid(); }
  /// The smallest span covering both (either may be unknown).
  static SourceSpan cover(const SourceSpan& a, const SourceSpan& b);
};

/// Number of UTF-8 code points in `s` (continuation bytes are not counted).
uint32_t count_code_points(std::string_view s);

}  // namespace agc
