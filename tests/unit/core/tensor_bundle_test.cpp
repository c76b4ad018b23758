// The checkpoint bundle format: round trips of every dtype (strings
// included), the bytes TensorFlow's format fixes (the data layout, the
// masked CRC-32C, the table's magic number), and clear errors for missing,
// truncated and corrupted files.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <typeinfo>

#include "runtime/core/error.h"
#include "runtime/core/tensor_bundle.h"

using namespace ag;

namespace {

std::string temp_prefix(const char* name) {
  auto dir = std::filesystem::temp_directory_path() / ("agc-bundle-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

std::string slurp(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void spit(const std::string& file, const std::string& bytes) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << bytes;
}

}  // namespace

TEST_CASE("CRC-32C matches the standard check value and TF's masking") {
  const char* digits = "123456789";
  CHECK(crc32c_extend(0, digits, 9) == 0xe3069283u);
  CHECK(crc32c_extend(crc32c_extend(0, digits, 4), digits + 4, 5) == 0xe3069283u);
  CHECK(crc32c_mask(0) == 0xa282ead8u);
}

TEST_CASE("a bundle round-trips tensors of every dtype, sorted by key") {
  std::string prefix = temp_prefix("all");
  Tensor strings(DType::String, Shape{2});
  strings.data<std::string>()[0] = "checkpoint";
  strings.data<std::string>()[1] = std::string(300, 'x');  // a two-byte varint length
  BundleWriter w(prefix);
  w.add("b/f32", Tensor::from_vector<float>({2, 2}, {1, 2, 3, 4}));
  w.add("a/f64", Tensor::scalar<double>(0.25));
  w.add("c/i64", Tensor::from_vector<int64_t>({3}, {-1, 0, 1LL << 40}));
  w.add("d/bool", Tensor::from_vector(Shape{2}, std::vector<bool>{true, false}));
  w.add("e/str", strings);
  w.add("f/empty", Tensor(DType::Int32, Shape{0, 3}));
  w.finish();
  BundleReader r(prefix);
  CHECK(r.keys() == std::vector<std::string>{"a/f64", "b/f32", "c/i64", "d/bool", "e/str", "f/empty"});
  CHECK(r.get("b/f32").data<float>()[3] == 4.f);
  CHECK(r.get("b/f32").shape() == Shape{2, 2});
  CHECK(r.get("a/f64").scalar_value<double>() == 0.25);
  CHECK(r.get("c/i64").data<int64_t>()[2] == (1LL << 40));
  CHECK(r.get("e/str").data<std::string>()[1].size() == 300);
  CHECK(r.get("f/empty").shape() == Shape{0, 3});
  CHECK_THROWS_WITH_AS(r.get("nope"), "Key nope not found in checkpoint", NotFoundError);

  // TF's layout: the data file is the tensors' raw bytes in key order
  // (a/f64 first: 8 bytes), and the index is a LevelDB table (its magic).
  std::string data = slurp(bundle_data_file(prefix));
  double first;
  std::memcpy(&first, data.data(), 8);
  CHECK(first == 0.25);
  std::string index = slurp(bundle_index_file(prefix));
  REQUIRE(index.size() > 8);
  CHECK(static_cast<uint8_t>(index[index.size() - 8]) == 0x57);  // 0xdb4775248b80fb57, little-endian
  CHECK(static_cast<uint8_t>(index[index.size() - 1]) == 0xdb);
}

TEST_CASE("missing, truncated and corrupted bundles fail with TF's error types") {
  CHECK_THROWS_WITH_AS(BundleReader{temp_prefix("absent")},
                       doctest::Contains("Failed to find any matching files for"), NotFoundError);
  std::string prefix = temp_prefix("bad");
  BundleWriter w(prefix);
  w.add("v", Tensor::from_vector<float>({4}, {1, 2, 3, 4}));
  w.finish();
  std::string data = slurp(bundle_data_file(prefix));
  std::string index = slurp(bundle_index_file(prefix));

  spit(bundle_data_file(prefix), data.substr(0, 8));
  CHECK_THROWS_WITH_AS(BundleReader{prefix}, doctest::Contains("truncated"), DataLossError);
  std::string flipped = data;
  flipped[5] ^= 0x40;
  spit(bundle_data_file(prefix), flipped);
  CHECK_THROWS_WITH_AS(BundleReader{prefix}, doctest::Contains("Checksum does not match"), DataLossError);
  spit(bundle_data_file(prefix), data);
  spit(bundle_index_file(prefix), index.substr(0, index.size() / 2));
  CHECK_THROWS_AS(BundleReader{prefix}, DataLossError);
  std::string bad_index = index;
  bad_index[3] ^= 0x01;
  spit(bundle_index_file(prefix), bad_index);
  CHECK_THROWS_AS(BundleReader{prefix}, DataLossError);
}

namespace {

/// A small bundle of a float vector, a scalar and a string tensor; returns
/// its prefix.
std::string small_bundle(const char* name) {
  std::string prefix = temp_prefix(name);
  Tensor s(DType::String, Shape{2});
  s.data<std::string>()[0] = "a";
  s.data<std::string>()[1] = "bc";
  BundleWriter w(prefix);
  w.add("v", Tensor::from_vector<float>({3}, {1, 2, 3}));
  w.add("n", Tensor::scalar<int64_t>(7));
  w.add("s", s);
  w.finish();
  return prefix;
}

/// Reading `prefix` either succeeds or throws one of TF's error types naming
/// `file`; any other exception (or a crash) fails the test. Returns whether
/// it read.
bool read_or_data_loss(const std::string& prefix, const std::string& file, bool allow_not_found) {
  try {
    BundleReader r(prefix);
    return true;
  } catch (const DataLossError& e) {
    CHECK_MESSAGE(std::string(e.what()).find(file) != std::string::npos, e.what());
  } catch (const NotFoundError& e) {
    CHECK_MESSAGE(allow_not_found, e.what());
    CHECK_MESSAGE(std::string(e.what()).find(file) != std::string::npos, e.what());
  } catch (const std::exception& e) {
    std::string what = std::string("another exception: ") + typeid(e).name() + ": " + e.what();
    FAIL_CHECK(what);
  }
  return false;
}

}  // namespace

TEST_CASE("a bundle truncated to any length fails with DataLossError naming the file") {
  std::string prefix = small_bundle("truncated");
  for (const std::string& file : {bundle_index_file(prefix), bundle_data_file(prefix)}) {
    const std::string whole = slurp(file);
    REQUIRE(!whole.empty());
    for (size_t n = 0; n < whole.size(); ++n) {
      CAPTURE(file);
      CAPTURE(n);
      spit(file, whole.substr(0, n));
      CHECK_FALSE(read_or_data_loss(prefix, file, /*allow_not_found=*/true));
    }
    spit(file, whole);
  }
  CHECK(read_or_data_loss(prefix, bundle_index_file(prefix), false));
}

TEST_CASE("an index with any one byte flipped reads back the same tensors or fails with DataLossError") {
  std::string prefix = small_bundle("flipped");
  const std::string index_file = bundle_index_file(prefix);
  const std::string index = slurp(index_file);
  BundleReader good(prefix);
  for (uint8_t mask : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xff}}) {
    for (size_t i = 0; i < index.size(); ++i) {
      CAPTURE(i);
      CAPTURE(int(mask));
      std::string bad = index;
      bad[i] = static_cast<char>(static_cast<uint8_t>(bad[i]) ^ mask);
      spit(index_file, bad);
      if (!read_or_data_loss(prefix, index_file, /*allow_not_found=*/false)) continue;
      // Bytes no reader looks at (the footer's padding) may change freely.
      BundleReader r(prefix);
      REQUIRE(r.keys() == good.keys());
      CHECK(r.get("v").data<float>()[2] == 3.f);
      CHECK(r.get("n").scalar_value<int64_t>() == 7);
      CHECK(r.get("s").data<std::string>()[1] == "bc");
    }
  }
  spit(index_file, index);
}

TEST_CASE("a footer naming a block past the end of the index is DataLossError, not a huge allocation") {
  // Found by saved_model_fuzz: a corrupt footer's index block handle asked
  // libleveldb for 2^49 bytes, which it allocates before reading (fatal
  // under ASan, std::bad_alloc elsewhere).
  std::string prefix = small_bundle("footer");
  const std::string index_file = bundle_index_file(prefix);
  const std::string index = slurp(index_file);
  REQUIRE(index.size() > 48);
  for (uint64_t size : {uint64_t{1} << 49, uint64_t{index.size()}}) {
    CAPTURE(size);
    std::string bad = index;
    // The footer: metaindex handle (offset, size), index handle, padding to
    // 40 bytes, the magic. Keep the metaindex handle, replace the index's.
    const size_t footer = bad.size() - 48;
    size_t at = footer;
    for (int varints = 0; varints < 2; ++varints) {
      while (static_cast<uint8_t>(bad[at]) & 0x80) ++at;
      ++at;
    }
    std::string handle;
    auto put = [&handle](uint64_t v) {
      while (v >= 0x80) {
        handle.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
      }
      handle.push_back(static_cast<char>(v));
    };
    put(0);
    put(size);
    handle.resize(footer + 40 - at, '\0');
    bad.replace(at, handle.size(), handle);
    spit(index_file, bad);
    CHECK_THROWS_WITH_AS(BundleReader{prefix}, doctest::Contains("the table's index block lies past the end of the file"),
                         DataLossError);
  }
  spit(index_file, index);
}

namespace {

// A checkpoint assembled byte by byte from the format's description (LevelDB's
// table layout, TF's bundle messages in protobuf's wire format), sharing no
// code with the writer: what the reader accepts is TensorFlow's format, not
// whatever the writer happens to produce.
void put_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

void put_fixed32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

/// A table block of (key, value) pairs, one restart point, and its trailer
/// (no compression; masked CRC-32C of the contents and the type byte).
std::string block(const std::vector<std::pair<std::string, std::string>>& entries, std::string& trailer) {
  std::string b;
  for (const auto& [k, v] : entries) {
    put_varint(b, 0);  // shared key bytes: none (every entry spelled out)
    put_varint(b, k.size());
    put_varint(b, v.size());
    b += k;
    b += v;
  }
  put_fixed32(b, 0);  // restart offset
  put_fixed32(b, 1);  // restart count
  std::string with_type = b + '\0';
  trailer = std::string(1, '\0');
  put_fixed32(trailer, crc32c_mask(crc32c_extend(0, with_type.data(), with_type.size())));
  return b;
}

}  // namespace

TEST_CASE("a checkpoint built byte by byte from TensorFlow's format reads back") {
  std::string prefix = temp_prefix("handmade");
  const float values[] = {1.5f, -2.0f};
  std::string data(reinterpret_cast<const char*>(values), sizeof values);
  spit(bundle_data_file(prefix), data);

  // BundleHeaderProto{num_shards: 1, version{producer: 1}}.
  std::string header = "\x08\x01\x1a\x02\x08\x01";
  // BundleEntryProto{dtype: DT_FLOAT, shape{dim{size: 2}}, size: 8, crc32c}.
  std::string entry = std::string("\x08\x01\x12\x04\x12\x02\x08\x02\x28\x08\x35", 11);
  put_fixed32(entry, crc32c_mask(crc32c_extend(0, data.data(), data.size())));

  std::string index, trailer;
  std::string data_block = block({{"", header}, {"w", entry}}, trailer);
  uint64_t data_offset = 0, data_size = data_block.size();
  index += data_block + trailer;
  std::string meta_block = block({}, trailer);
  uint64_t meta_offset = index.size(), meta_size = meta_block.size();
  index += meta_block + trailer;
  std::string handle;
  put_varint(handle, data_offset);
  put_varint(handle, data_size);
  std::string index_block = block({{"w", handle}}, trailer);
  uint64_t index_offset = index.size(), index_size = index_block.size();
  index += index_block + trailer;
  std::string footer;
  put_varint(footer, meta_offset);
  put_varint(footer, meta_size);
  put_varint(footer, index_offset);
  put_varint(footer, index_size);
  footer.resize(40, '\0');
  put_fixed32(footer, 0x8b80fb57u);  // kTableMagicNumber 0xdb4775248b80fb57, little-endian
  put_fixed32(footer, 0xdb477524u);
  index += footer;
  spit(bundle_index_file(prefix), index);

  BundleReader r(prefix);
  CHECK(r.keys() == std::vector<std::string>{"w"});
  const Tensor& w = r.get("w");
  CHECK(w.dtype() == DType::Float32);
  CHECK(w.shape() == Shape{2});
  CHECK(w.data<float>()[0] == 1.5f);
  CHECK(w.data<float>()[1] == -2.0f);
}

namespace {

uint64_t get_varint(const std::string& s, size_t& at) {
  uint64_t v = 0;
  for (int shift = 0; at < s.size(); shift += 7) {
    auto byte = static_cast<uint8_t>(s[at++]);
    v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) break;
  }
  return v;
}

uint32_t get_fixed32(const std::string& s, size_t at) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<uint8_t>(s[at + static_cast<size_t>(i)])) << (8 * i);
  return v;
}

/// The entries of the block at [offset, offset + size) of a table file,
/// its trailer's type byte and CRC checked.
std::vector<std::pair<std::string, std::string>> read_block(const std::string& file, uint64_t offset, uint64_t size) {
  std::string contents = file.substr(offset, size);
  REQUIRE(file[offset + size] == '\0');  // no compression
  std::string with_type = contents + '\0';
  CHECK(get_fixed32(file, offset + size + 1) == crc32c_mask(crc32c_extend(0, with_type.data(), with_type.size())));
  uint32_t restarts = get_fixed32(contents, contents.size() - 4);
  size_t end = contents.size() - 4 * (restarts + 1);
  std::vector<std::pair<std::string, std::string>> out;
  std::string key;
  for (size_t at = 0; at < end;) {
    uint64_t shared = get_varint(contents, at), own = get_varint(contents, at), value = get_varint(contents, at);
    key = key.substr(0, shared) + contents.substr(at, own);
    at += own;
    out.emplace_back(key, contents.substr(at, value));
    at += value;
  }
  return out;
}

}  // namespace

TEST_CASE("the writer's index file parses as a LevelDB table by hand, entries in TF's wire format") {
  std::string prefix = temp_prefix("parsed");
  BundleWriter w(prefix);
  w.add("model/kernel/.ATTRIBUTES/VARIABLE_VALUE", Tensor::from_vector<float>({2}, {3, 4}));
  w.add("model/bias/.ATTRIBUTES/VARIABLE_VALUE", Tensor::scalar<float>(1));
  w.finish();
  std::string index = slurp(bundle_index_file(prefix));
  REQUIRE(index.size() >= 48);
  std::string footer = index.substr(index.size() - 48);
  CHECK(get_fixed32(footer, 40) == 0x8b80fb57u);
  CHECK(get_fixed32(footer, 44) == 0xdb477524u);
  size_t at = 0;
  get_varint(footer, at);  // the metaindex handle
  get_varint(footer, at);
  uint64_t index_offset = get_varint(footer, at), index_size = get_varint(footer, at);
  std::vector<std::pair<std::string, std::string>> entries;
  for (const auto& [last_key, handle] : read_block(index, index_offset, index_size)) {
    size_t h = 0;
    uint64_t offset = get_varint(handle, h), size = get_varint(handle, h);
    for (auto& e : read_block(index, offset, size)) entries.push_back(e);
  }
  REQUIRE(entries.size() == 3);
  CHECK(entries[0].first.empty());  // the header first: "" sorts before every key
  CHECK(entries[0].second == std::string("\x08\x01\x1a\x02\x08\x01"));
  CHECK(entries[1].first == "model/bias/.ATTRIBUTES/VARIABLE_VALUE");
  CHECK(entries[2].first == "model/kernel/.ATTRIBUTES/VARIABLE_VALUE");
  // The kernel's entry: DT_FLOAT, shape [2], offset 4 (after the bias), 8 bytes.
  const std::string& kernel = entries[2].second;
  CHECK(kernel.substr(0, 8) == std::string("\x08\x01\x12\x04\x12\x02\x08\x02", 8));
  CHECK(kernel.substr(8, 4) == std::string("\x20\x04\x28\x08", 4));
  std::string data = slurp(bundle_data_file(prefix));
  CHECK(get_fixed32(kernel, 13) == crc32c_mask(crc32c_extend(0, data.data() + 4, 8)));
}
