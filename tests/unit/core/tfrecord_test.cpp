// The TFRecord format against bytes built here by hand (a bitwise CRC-32C,
// independent of core/crc32c's table and SSE4.2 paths), and TF's errors for
// files cut short or corrupted.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "runtime/core/crc32c.h"
#include "runtime/core/error.h"
#include "runtime/core/tfrecord.h"

using namespace ag;

namespace {

/// CRC-32C one bit at a time, straight from the polynomial.
uint32_t bitwise_crc32c(const std::string& s) {
  uint32_t c = 0xffffffffu;
  for (unsigned char b : s) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82f63b78u : c >> 1;
  }
  return c ^ 0xffffffffu;
}

std::string le(uint64_t v, int bytes) {
  std::string out;
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  return out;
}

uint32_t masked(const std::string& s) {
  uint32_t c = bitwise_crc32c(s);
  return ((c >> 15) | (c << 17)) + 0xa282ead8u;
}

/// One record as the format frames it, built field by field.
std::string hand_record(const std::string& data) {
  std::string length = le(data.size(), 8);
  return length + le(masked(length), 4) + data + le(masked(data), 4);
}

std::string write_file(const std::string& name, const std::string& bytes) {
  std::string path = "/tmp/agc-tfrecord-test-" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::vector<std::string> read_all(const std::string& path) {
  TFRecordReader r(path);
  std::vector<std::string> out;
  std::string rec;
  while (r.next(rec)) out.push_back(rec);
  return out;
}

std::string data_loss_of(const std::string& path) {
  try {
    read_all(path);
  } catch (const DataLossError& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace

TEST_CASE("crc32c matches the standard check value and the bitwise definition") {
  CHECK(crc32c_extend(0, "123456789", 9) == 0xE3069283u);
  std::string long_text(1000, 'x');
  for (size_t i = 0; i < long_text.size(); ++i) long_text[i] = static_cast<char>(i * 7);
  CHECK(crc32c_extend(0, long_text.data(), long_text.size()) == bitwise_crc32c(long_text));
  // Extending in pieces equals one pass.
  uint32_t half = crc32c_extend(0, long_text.data(), 333);
  CHECK(crc32c_extend(half, long_text.data() + 333, 667) == bitwise_crc32c(long_text));
}

TEST_CASE("hand-built records read back, and the writer writes the same bytes") {
  std::string bytes = hand_record("hi") + hand_record("") + hand_record(std::string("a\0b", 3));
  std::string path = write_file("hand", bytes);
  CHECK(read_all(path) == std::vector<std::string>{"hi", "", std::string("a\0b", 3)});
  CHECK(tfrecord_frame("hi") == hand_record("hi"));

  std::string written = "/tmp/agc-tfrecord-test-written";
  {
    TFRecordWriter w(written);
    w.write("hi");
    w.write("");
    w.write(std::string("a\0b", 3));
  }
  std::ifstream in(written, std::ios::binary);
  std::string got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(got == bytes);
}

TEST_CASE("a file cut inside a record's data is TF's DataLossError naming the offset and file") {
  std::string whole = hand_record("hello") + hand_record("world");
  std::string cut = write_file("cut", whole.substr(0, whole.size() - 3));
  CHECK(data_loss_of(cut) == "truncated record at 21' failed with Read less bytes than requested in " + cut);
  std::string no_data = write_file("nodata", whole.substr(0, 12));
  CHECK(data_loss_of(no_data) == "truncated record at 0' failed with Read less bytes than requested in " + no_data);
}

TEST_CASE("a file cut inside a header ends the records, as TF's buffered reader does") {
  std::string whole = hand_record("hello") + hand_record("world");
  std::string path = write_file("header", whole.substr(0, 21 + 5));
  CHECK(read_all(path) == std::vector<std::string>{"hello"});
  CHECK(read_all(write_file("empty", "")).empty());
}

TEST_CASE("corrupted bytes are TF's DataLossError at the record's offset") {
  std::string whole = hand_record("hello") + hand_record("world");
  std::string data = whole;
  data[21 + 12 + 1] ^= 0x20;  // a byte of the second record's data
  std::string p1 = write_file("data", data);
  CHECK(data_loss_of(p1) == "corrupted record at 33 in " + p1);
  std::string header = whole;
  header[0] ^= 1;  // the first length
  std::string p2 = write_file("length", header);
  CHECK(data_loss_of(p2) == "corrupted record at 0 (Is this even a TFRecord file?) in " + p2);
  // Not a TFRecord file at all.
  std::string p3 = write_file("text", "this is not a record file at all");
  CHECK(data_loss_of(p3) == "corrupted record at 0 (Is this even a TFRecord file?) in " + p3);
}

TEST_CASE("a missing file is NotFoundError") {
  CHECK_THROWS_AS(TFRecordReader("/tmp/agc-no-such-dir/x.tfrecord"), NotFoundError);
  CHECK_THROWS_AS(TFRecordWriter("/tmp/agc-no-such-dir/x.tfrecord"), NotFoundError);
}
