// Sweep cases for parse_example_ops.cpp, on tf.train.Example records whose
// protobuf wire bytes are written out here by hand (not by libprotobuf).
#include <doctest/doctest.h>

#include <cstring>

#include "tests/unit/ops/support.h"

using namespace ag;
using namespace ag::test;

AG_SWEEP_COVERS("ParseSingleExample", "ParseExampleV2");

namespace {

std::string len_field(int field, const std::string& payload) {
  return std::string(1, static_cast<char>(field << 3 | 2)) + std::string(1, static_cast<char>(payload.size())) + payload;
}

/// Example{features{feature{key: k value: feature}}} for small payloads.
std::string example(const std::vector<std::pair<std::string, std::string>>& features) {
  std::string fs;
  for (const auto& [key, feature] : features) fs += len_field(1, len_field(1, key) + len_field(2, feature));
  return len_field(1, fs);
}

std::string int64_feature(std::vector<uint8_t> varints) {
  return len_field(3, len_field(1, std::string(varints.begin(), varints.end())));
}
std::string float_feature(std::vector<float> values) {
  std::string packed(values.size() * 4, '\0');
  std::memcpy(packed.data(), values.data(), packed.size());
  return len_field(2, len_field(1, packed));
}
std::string bytes_feature(const std::string& v) { return len_field(1, len_field(1, v)); }

Attrs dense(std::vector<std::string> keys, std::vector<DType> types, std::vector<int64_t> dims) {
  std::vector<int64_t> t;
  for (DType d : types) t.push_back(static_cast<int64_t>(d));
  return Attrs{{"dense_keys", keys}, {"Tdense", t}, {"dense_shape_dims", dims}};
}

}  // namespace

TEST_CASE("ParseSingleExample reads int64, float and bytes features, with defaults") {
  // The exact bytes of Example{features{feature{key:"a" value{int64_list{value:7}}}}}.
  std::string a_only = example({{"a", int64_feature({7})}});
  CHECK(a_only == std::string("\x0a\x0c\x0a\x0a\x0a\x01" "a" "\x12\x05\x1a\x03\x0a\x01\x07", 14));
  std::string rec = example({{"a", int64_feature({7})}, {"f", float_feature({0.5f, 2.0f})}, {"s", bytes_feature("hi")}});
  Attrs attrs = dense({"a", "f", "m", "s"}, {DType::Int64, DType::Float32, DType::Int64, DType::String},
                      {0, 1, 2, 0, 0});
  auto out = runv("ParseSingleExample",
                  {Tensor::scalar<std::string>(rec), Tensor(DType::Int64, Shape{0}), Tensor(DType::Float32, Shape{0}),
                   Tensor::scalar<int64_t>(-1), Tensor(DType::String, Shape{0})},
                  attrs);
  REQUIRE(out.size() == 4);
  CHECK(out[0].scalar_value<int64_t>() == 7);
  CHECK(out[1].shape() == Shape{2});
  CHECK(out[1].data<float>()[1] == 2.0f);
  CHECK(out[2].scalar_value<int64_t>() == -1);  // missing: the default
  CHECK(out[3].scalar_value<std::string>() == "hi");
}

TEST_CASE("ParseExampleV2 parses a batch, and bad records are TF's errors") {
  std::string r1 = example({{"a", int64_feature({1})}});
  std::string r2 = example({{"a", int64_feature({2})}});
  Attrs attrs = dense({"a"}, {DType::Int64}, {0});
  Tensor batch(DType::String, Shape{2});
  batch.data<std::string>()[0] = r1;
  batch.data<std::string>()[1] = r2;
  auto out = runv("ParseExampleV2", {batch, Tensor(DType::Int64, Shape{0})}, attrs);
  CHECK(out[0].shape() == Shape{2});
  CHECK(out[0].data<int64_t>()[1] == 2);

  std::string missing = example({{"b", int64_feature({1})}});
  CHECK(error_of("ParseSingleExample", {Tensor::scalar<std::string>(missing), Tensor(DType::Int64, Shape{0})}, attrs) ==
        "Feature: a (data type: int64) is required but could not be found.");
  std::string wrong = example({{"a", float_feature({1.0f})}});
  CHECK(error_of("ParseSingleExample", {Tensor::scalar<std::string>(wrong), Tensor(DType::Int64, Shape{0})}, attrs) ==
        "Name: <unknown>, Key: a, Index: 0.  Data types don't match. Data type: float but expected type: int64");
  std::string two = example({{"a", int64_feature({1, 2})}});
  CHECK(error_of("ParseSingleExample", {Tensor::scalar<std::string>(two), Tensor(DType::Int64, Shape{0})}, attrs) ==
        "Name: <unknown>, Key: a, Index: 0.  Number of int64 values != expected.  Values size: 2 but output shape: []");
  CHECK(error_of("ParseSingleExample", {Tensor::scalar<std::string>("\xff\xff"), Tensor(DType::Int64, Shape{0})},
                 attrs).rfind("Could not parse example input", 0) == 0);
}

TEST_CASE("ParseSingleExample checks the feature attributes and defaults a graph from a file may get wrong") {
  // Found by ops_fuzz: an empty Tdense for one dense key threw std::out_of_range
  // (Tdense.at), and short dense_shape_dims, dtypes that are no feature
  // type, and defaults of another dtype or size read past their data.
  const Tensor rec = Tensor::scalar<std::string>(example({{"a", int64_feature({1})}}));
  const Tensor no_default(DType::Int64, Shape{0});
  auto parse = [&](const Attrs& a, std::vector<Tensor> defaults = {}) {
    std::vector<Tensor> in{rec};
    in.insert(in.end(), defaults.begin(), defaults.end());
    return error_of("ParseSingleExample", in, a);
  };
  Attrs no_types{{"dense_keys", std::vector<std::string>{"a"}}, {"Tdense", std::vector<int64_t>{}},
                 {"dense_shape_dims", std::vector<int64_t>{0}}};
  CHECK(parse(no_types, {no_default}) == "len(dense_keys) != len(Tdense): 1 vs. 0");
  CHECK(parse(dense({"a"}, {DType::Int64}, {}), {no_default}) ==
        "dense_shape_dims does not hold a shape for dense key 0 ('a')");
  CHECK(parse(dense({"a"}, {DType::Int64}, {2, 1}), {no_default}) ==
        "dense_shape_dims does not hold a shape for dense key 0 ('a')");
  CHECK(parse(dense({"a"}, {DType::Int64}, {1, -1}), {no_default}) == "dense_shapes[0] must be fully defined, not [?]");
  CHECK(parse(dense({"a"}, {DType::Bool}, {0}), {Tensor(DType::Bool, Shape{0})}) ==
        "Tdense[0] must be float32, int64 or string, not bool");
  Attrs bad_number = dense({"a"}, {DType::Int64}, {0});
  bad_number.set("Tdense", std::vector<int64_t>{99});
  CHECK(parse(bad_number, {no_default}) == "Tdense[0] must be float32, int64 or string, not dtype 99");
  Attrs sparse = dense({}, {}, {});
  sparse.set("sparse_keys", std::vector<std::string>{"v", "w"});
  sparse.set("sparse_types", std::vector<int64_t>{static_cast<int64_t>(DType::Int64)});
  CHECK(parse(sparse) == "len(sparse_keys) != len(sparse_types): 2 vs. 1");
  const Attrs a = dense({"a", "m"}, {DType::Int64, DType::Int64}, {0, 1, 3});
  CHECK(parse(a, {no_default}) ==
        "ParseSingleExample takes the records and one default per dense key: 3 inputs, not 2");
  CHECK(parse(a, {no_default, Tensor(DType::Float32, Shape{3})}) ==
        "cannot compute ParseSingleExample as input #2(zero-based) was expected to be a int64 tensor but is a float "
        "tensor");
  CHECK(parse(a, {no_default, Tensor(DType::Int64, Shape{2})}) ==
        "The default value of feature m has 2 elements, but its shape [3] holds 3");
}
