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
