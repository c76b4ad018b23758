#include "runtime/core/tfrecord.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "runtime/core/crc32c.h"
#include "runtime/core/error.h"

namespace ag {
namespace {

constexpr size_t kHeaderSize = 12;  // length + its crc
constexpr size_t kFooterSize = 4;

void put32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}
uint32_t get32(const unsigned char* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}
uint64_t get64(const unsigned char* p) { return uint64_t{get32(p)} | uint64_t{get32(p + 4)} << 32; }

uint32_t masked_crc(const void* data, size_t n) { return crc32c_mask(crc32c_extend(0, data, n)); }

/// TF reminds that a file failing at offset 0 may not be a TFRecord file at all.
std::string suffix(uint64_t offset) { return offset == 0 ? " (Is this even a TFRecord file?)" : ""; }

}  // namespace

std::string tfrecord_frame(std::string_view data) {
  std::string out;
  out.reserve(kHeaderSize + data.size() + kFooterSize);
  const uint64_t length = data.size();
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((length >> (8 * i)) & 0xff));
  put32(out, masked_crc(out.data(), 8));
  out.append(data);
  put32(out, masked_crc(data.data(), data.size()));
  return out;
}

TFRecordReader::TFRecordReader(std::string path) : path_(std::move(path)) {
  file_ = std::fopen(path_.c_str(), "rb");
  if (file_ == nullptr) throw NotFoundError(path_ + "; " + std::strerror(errno));
}

TFRecordReader::~TFRecordReader() {
  if (file_) std::fclose(file_);
}

size_t TFRecordReader::read(void* into, size_t n) { return std::fread(into, 1, n, file_); }

bool TFRecordReader::next(std::string& out) {
  unsigned char header[kHeaderSize];
  const size_t got = read(header, kHeaderSize);
  if (got < kHeaderSize) return false;  // the end, or a header cut short (TF ends there too)
  if (get32(header + 8) != masked_crc(header, 8)) {
    throw DataLossError("corrupted record at " + std::to_string(offset_) + suffix(offset_) + " in " + path_);
  }
  const uint64_t length = get64(header);
  const uint64_t data_at = offset_ + kHeaderSize;
  // A corrupt length could ask for more than the file holds: read in chunks.
  out.clear();
  size_t want = static_cast<size_t>(length) + kFooterSize;
  constexpr size_t kChunk = size_t{1} << 20;
  while (out.size() < want) {
    const size_t before = out.size();
    const size_t n = std::min(kChunk, want - before);
    out.resize(before + n);
    const size_t r = read(out.data() + before, n);
    out.resize(before + r);
    if (r < n) break;
  }
  if (out.size() < want) {
    // TF's buffered stream reports a short read so, whether or not any data came.
    throw DataLossError("truncated record at " + std::to_string(offset_) +
                        "' failed with Read less bytes than requested in " + path_);
  }
  const auto* bytes = reinterpret_cast<const unsigned char*>(out.data());
  if (get32(bytes + length) != masked_crc(bytes, static_cast<size_t>(length))) {
    throw DataLossError("corrupted record at " + std::to_string(data_at) + suffix(data_at) + " in " + path_);
  }
  out.resize(static_cast<size_t>(length));
  offset_ = data_at + length + kFooterSize;
  return true;
}

TFRecordWriter::TFRecordWriter(std::string path) : path_(std::move(path)) {
  file_ = std::fopen(path_.c_str(), "wb");
  if (file_ == nullptr) {
    const int e = errno;
    if (e == ENOENT) throw NotFoundError(path_ + "; No such file or directory");
    if (e == EACCES) throw PermissionDeniedError(path_ + "; Permission denied");
    throw UnknownError(path_ + "; " + std::strerror(e));
  }
}

TFRecordWriter::~TFRecordWriter() {
  if (file_) std::fclose(file_);
}

void TFRecordWriter::write(std::string_view record) {
  if (!file_) throw FailedPreconditionError("File is closed.");
  const std::string framed = tfrecord_frame(record);
  if (std::fwrite(framed.data(), 1, framed.size(), file_) != framed.size()) {
    throw UnknownError(path_ + "; " + std::strerror(errno));
  }
}

void TFRecordWriter::flush() {
  if (file_) std::fflush(file_);
}

void TFRecordWriter::close() {
  if (file_) std::fclose(file_);
  file_ = nullptr;
}

}  // namespace ag
