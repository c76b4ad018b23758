#include "transpiler/base/source.h"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <utility>

#include "transpiler/base/check.h"

namespace agc {

namespace {

/// The files FileRef numbers name: number n is entry n % kChunk of chunk
/// n / kChunk. Chunks never move, so a lookup takes no lock (conversions
/// run on several threads); numbers of destroyed files are reused.
class FileTable {
 public:
  static FileTable& get() {
    static auto* table = new FileTable();  // never destroyed: spans may outlive statics
    return *table;
  }

  uint32_t add(const SourceFile* f) {
    std::lock_guard<std::mutex> lock(mu_);
    uint32_t n;
    if (!free_.empty()) {
      n = free_.back();
      free_.pop_back();
    } else {
      AGC_CHECK(next_ < kChunk * kChunks) << "more than " << kChunk * kChunks << " source files at once";
      n = next_++;
    }
    Slot* chunk = chunks_[n / kChunk].load(std::memory_order_acquire);
    if (!chunk) {
      chunk = new Slot[kChunk]();
      chunks_[n / kChunk].store(chunk, std::memory_order_release);
    }
    chunk[n % kChunk].store(f, std::memory_order_release);
    return n;
  }

  void remove(uint32_t n) {
    std::lock_guard<std::mutex> lock(mu_);
    chunks_[n / kChunk].load(std::memory_order_acquire)[n % kChunk].store(nullptr, std::memory_order_release);
    free_.push_back(n);
  }

  const SourceFile* find(uint32_t n) const {
    return chunks_[n / kChunk].load(std::memory_order_acquire)[n % kChunk].load(std::memory_order_acquire);
  }

 private:
  using Slot = std::atomic<const SourceFile*>;
  static constexpr uint32_t kChunk = 1u << 12, kChunks = 1u << 16;
  std::mutex mu_;
  std::unique_ptr<std::atomic<Slot*>[]> chunks_{new std::atomic<Slot*>[kChunks]()};
  std::vector<uint32_t> free_;
  uint32_t next_ = 1;  // 0 is "no file"
};

}  // namespace

const SourceFile* FileRef::get() const { return number_ == 0 ? nullptr : FileTable::get().find(number_); }

SourceFile::~SourceFile() { FileTable::get().remove(number_); }

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)), number_(FileTable::get().add(this)) {
  line_starts_.push_back(0);
  for (uint32_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

SourceFile::LineCol SourceFile::line_col(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text_.size()));
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  uint32_t line = static_cast<uint32_t>(it - line_starts_.begin());  // 1-based
  uint32_t start = line_starts_[line - 1];
  uint32_t col = count_code_points(std::string_view(text_).substr(start, offset - start)) + 1;
  return {line, col};
}

uint32_t SourceFile::line_start(uint32_t line) const {
  if (line == 0) return 0;
  if (line > line_starts_.size()) return static_cast<uint32_t>(text_.size());
  return line_starts_[line - 1];
}

std::string_view SourceFile::line_text(uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  uint32_t start = line_starts_[line - 1];
  uint32_t end = line < line_starts_.size() ? line_starts_[line] : static_cast<uint32_t>(text_.size());
  std::string_view s = std::string_view(text_).substr(start, end - start);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

SourceSpan SourceSpan::cover(const SourceSpan& a, const SourceSpan& b) {
  if (!a.known()) return b;
  if (!b.known() || a.file != b.file) return a;
  return {a.file, std::min(a.begin, b.begin), std::max(a.end, b.end)};
}

uint32_t count_code_points(std::string_view s) {
  uint32_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++n;
  }
  return n;
}

}  // namespace agc
