// TensorFlow's TFRecord file format (tsl/lib/io/record_{reader,writer}.cc):
// records one after another, each
//   uint64 length (little-endian), uint32 masked crc32c of those 8 bytes,
//   length bytes of data,           uint32 masked crc32c of the data.
// No compression. Errors are TF's: a header whose checksum fails is
// DataLossError "corrupted record at <offset>", data cut short "truncated
// record at <offset>' failed with ..."; agc adds the file's name to both.
// A file that ends inside a header ends the sequence, as TF's buffered
// reader treats it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace ag {

/// The bytes of one record as the format frames them (header, data, footer).
std::string tfrecord_frame(std::string_view data);

class TFRecordReader {
 public:
  /// NotFoundError "<path>; No such file or directory" when it cannot be opened.
  explicit TFRecordReader(std::string path);
  ~TFRecordReader();
  TFRecordReader(const TFRecordReader&) = delete;
  TFRecordReader& operator=(const TFRecordReader&) = delete;

  /// The next record into `out`, or false at the end of the file.
  bool next(std::string& out);

 private:
  /// Up to n bytes at the current position (fewer at the end of the file).
  size_t read(void* into, size_t n);

  std::string path_;
  std::FILE* file_ = nullptr;
  uint64_t offset_ = 0;
};

class TFRecordWriter {
 public:
  /// Creates (truncates) `path`; an Error naming it when that fails.
  explicit TFRecordWriter(std::string path);
  ~TFRecordWriter();
  TFRecordWriter(const TFRecordWriter&) = delete;
  TFRecordWriter& operator=(const TFRecordWriter&) = delete;

  void write(std::string_view record);
  void flush();
  void close();

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
};

}  // namespace ag
