// Writes seed inputs for the libFuzzer targets, each in its target's input
// format and written by agc's own writers (TFRecordWriter, BundleWriter and
// tf.train.Checkpoint, Keras's save_weights, tf.saved_model.save), from the
// objects the targets load into (fuzz_inputs.h):
//
//   fuzz_seed_corpus OUT_DIR      writes OUT_DIR/TARGET/seed-N
//
// make_corpus.sh runs it and minimizes the seeds into tests/fuzz/corpus.
#include <leveldb/env.h>
#include <leveldb/iterator.h>
#include <leveldb/options.h>
#include <leveldb/table.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "runtime/api/checkpoint.h"
#include "runtime/api/python_api.h"
#include "runtime/core/error.h"
#include "runtime/core/proto/example.pb.h"
#include "runtime/core/tensor_bundle.h"
#include "runtime/core/tfrecord.h"
#include "runtime/ops/registry.h"
#include "runtime/value/user_function.h"
#include "tests/fuzz/libfuzzer/fuzz_inputs.h"

namespace fs = std::filesystem;
using namespace ag;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw NotFoundError("cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

class SeedDir {
 public:
  SeedDir(const fs::path& root, const std::string& target) : dir_(root / target) { fs::create_directories(dir_); }
  void add(const std::string& bytes) {
    std::ofstream out(dir_ / ("seed-" + std::to_string(++n_)), std::ios::binary | std::ios::trunc);
    out << bytes;
  }

 private:
  fs::path dir_;
  int n_ = 0;
};

void json_args(SeedDir& out) {
  for (const char* s : {
           R"([1, 2.5, "a", true, null])",
           R"({"args": [[1, 2], [3, 4]], "kwargs": {"training": false}})",
           R"([{"tensor": [[1, 2], [3, 4]], "dtype": "float32"}])",
           R"([{"tensor": [1, 2, 3]}, {"tensor": 2.5, "dtype": "float64"}, {"tensor": [true, false]}])",
           R"([{"tensor": [["a", "b"]], "dtype": "string"}, {"tensor": [], "dtype": "int64"}])",
           R"([{"tensor": [[0.1, -0.0], [1e30, 3.5e-39]], "dtype": "bfloat16"}, {"tensor": [255, 0], "dtype": "uint8"}])",
           R"({"kwargs": {"x": {"tensor": [NaN, Infinity, -Infinity], "dtype": "float32"}, "y": [1, {"a": null}]}})",
           R"(["\u00e9\ud83d\ude00\n\t\"\\ \ud800", -9223372036854775808, 9223372036854775807, 1e308, -1.5e-320])",
           R"([[[[[[1]]]]], {"": {}}, []])",
           R"({"args": [{"tensor": [[1], [2]], "dtype": "int8"}, {"tensor": 7, "dtype": "int16"}], "kwargs": {}})",
       }) {
    out.add(s);
  }
}

std::string example(int64_t a, std::vector<float> f, const std::string& s, std::vector<int64_t> v) {
  tensorflow::Example e;
  auto& features = *e.mutable_features()->mutable_feature();
  features["a"].mutable_int64_list()->add_value(a);
  for (float x : f) features["f"].mutable_float_list()->add_value(x);
  features["s"].mutable_bytes_list()->add_value(s);
  for (int64_t x : v) features["v"].mutable_int64_list()->add_value(x);
  return e.SerializeAsString();
}

void tfrecord(SeedDir& out, const std::string& tmp) {
  const std::vector<std::vector<std::string>> files = {
      {example(7, {0.5f, 2.0f}, "hi", {1, 2, 3}), example(-1, {}, "", {}), ""},
      {example(1LL << 40, {1.0f, -1.0f}, std::string(300, 'x'), {-5})},
      {"not an example"},
      {},
  };
  for (const auto& records : files) {
    {
      TFRecordWriter w(tmp);
      for (const std::string& r : records) w.write(r);
    }
    out.add(slurp(tmp));
  }
}

/// A bundle's index entries (key, value), read with LevelDB's table API.
std::vector<std::pair<std::string, std::string>> index_entries(const std::string& prefix) {
  const std::string index = bundle_index_file(prefix);
  leveldb::RandomAccessFile* raw = nullptr;
  uint64_t size = 0;
  leveldb::Env* env = leveldb::Env::Default();
  if (!env->GetFileSize(index, &size).ok() || !env->NewRandomAccessFile(index, &raw).ok()) {
    throw NotFoundError("cannot read " + index);
  }
  std::unique_ptr<leveldb::RandomAccessFile> file(raw);
  leveldb::Table* table_raw = nullptr;
  if (!leveldb::Table::Open(leveldb::Options(), file.get(), size, &table_raw).ok()) {
    throw DataLossError("cannot open the table " + index);
  }
  std::unique_ptr<leveldb::Table> table(table_raw);
  std::unique_ptr<leveldb::Iterator> it(table->NewIterator(leveldb::ReadOptions()));
  std::vector<std::pair<std::string, std::string>> entries;
  for (it->SeekToFirst(); it->Valid(); it->Next()) entries.emplace_back(it->key().ToString(), it->value().ToString());
  return entries;
}

void add_checkpoint(SeedDir& out, const std::string& prefix) {
  fuzz::CheckpointInput structured;
  structured.entries = index_entries(prefix);
  structured.data = slurp(bundle_data_file(prefix));
  out.add(fuzz::encode_checkpoint_input(structured));
  fuzz::CheckpointInput raw;
  raw.raw_index = true;
  raw.index = slurp(bundle_index_file(prefix));
  raw.data = structured.data;
  out.add(fuzz::encode_checkpoint_input(raw));
}

void checkpoint(SeedDir& out, const std::string& prefix) {
  checkpoint_write(fuzz::checkpoint_fuzz_root(), prefix);
  add_checkpoint(out, prefix);
  Tensor strings(DType::String, Shape{2});
  strings.data<std::string>()[0] = "checkpoint";
  strings.data<std::string>()[1] = std::string(200, 'x');
  BundleWriter w(prefix);
  w.add("b/f32", Tensor::from_vector<float>({2, 2}, {1, 2, 3, 4}));
  w.add("a/f64", Tensor::scalar<double>(0.25));
  w.add("c/i64", Tensor::from_vector<int64_t>({3}, {-1, 0, 1LL << 40}));
  w.add("d/bool", Tensor::from_vector(Shape{2}, std::vector<bool>{true, false}));
  w.add("e/str", strings);
  w.add("f/empty", Tensor(DType::Int32, Shape{0, 3}));
  w.finish();
  add_checkpoint(out, prefix);
}

void hdf5(SeedDir& out, const std::string& dir) {
  const Value model = fuzz::hdf5_fuzz_model();
  for (const char* name : {"w.h5", "w.weights.h5"}) {
    const std::string path = dir + "/" + name;
    model.getattr("save_weights")({Value(path)}, {});
    out.add(fuzz::encode_hdf5_program(fuzz::hdf5_program_of(path)));
  }
}

/// A tf.Module with variables and two tf.functions over ops with attributes
/// (MatMul, Sum with keepdims, Cast, ConcatV2, Reshape, StridedSlice, an If):
///   class M(tf.Module):
///     w = tf.Variable([[1., 2.], [3., 4.]]); b = tf.Variable([0.5, -0.5])
///     @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
///     def f(self, x):
///       y = tf.matmul(x, self.w, transpose_b=True) + self.b
///       s = tf.cast(tf.reduce_sum(y, axis=1, keepdims=True), tf.int32)
///       return tf.reshape(tf.concat([s, s], axis=1), [-1])[1:]
///     @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
///     def g(self, x):
///       return tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: -x)
Value saved_model_module() {
  Value m = tf::api::Module()({}, {});
  m.setattr("w", tf::api::Variable()({Value::list({Value::list({1.0, 2.0}), Value::list({3.0, 4.0})})}, {}));
  m.setattr("b", tf::api::Variable()({Value::list({0.5, -0.5})}, {}));
  const Value w = m.getattr("w"), b = m.getattr("b");
  auto spec = [](Value shape) { return Value::list({tf::api::TensorSpec()({shape, tf::api::float32()}, {})}); };
  Value f = make_function("f", {{"x", {}}}, [w, b](const std::vector<Value>& a) -> Value {
    Value y = tf::api::matmul({a[0], w}, {{"transpose_b", true}}) + b;
    Value s = tf::api::cast({tf::api::reduce_sum({y}, {{"axis", 1}, {"keepdims", true}}), tf::api::int32()}, {});
    Value r = tf::api::reshape({tf::api::concat({Value::list({s, s})}, {{"axis", 1}}), Value::list({-1})}, {});
    return getslice(r, SliceSpec{Value(1), Value(), Value()});
  });
  Value g = make_function("g", {{"x", {}}}, [](const std::vector<Value>& a) -> Value {
    Value x = a[0];
    Value yes = make_function("yes", {}, [x](const std::vector<Value>&) { return x * Value(2.0); });
    Value no = make_function("no", {}, [x](const std::vector<Value>&) { return -x; });
    return tf::api::cond({tf::api::greater({tf::api::reduce_sum({x}, {}), Value(0)}, {}), yes, no}, {});
  });
  m.setattr("f", tf::api::function({f}, {{"input_signature", spec(Value::list({Value(), Value(2)}))}}));
  m.setattr("g", tf::api::function({g}, {{"input_signature", spec(Value::list({Value(2)}))}}));
  return m;
}

void saved_model(SeedDir& out, const std::string& dir) {
  tf::api::saved_model_save({saved_model_module(), Value(dir)}, {});
  out.add(fuzz::encode_files({slurp(dir + "/saved_model.pb"), slurp(dir + "/variables/variables.index"),
                              slurp(dir + "/variables/variables.data-00000-of-00001")}));
}

/// Per op ops_fuzz may run, a program naming it, then bytes from a generator
/// seeded by the name (its inputs, values and attributes).
void ops(SeedDir& out) {
  for (const OpDef* op : fuzz::fuzzable_ops()) {
    std::string program(1, static_cast<char>(op->name.size()));
    program += op->name;
    std::mt19937 bytes(static_cast<uint32_t>(std::hash<std::string>{}(op->name)));
    for (int i = 0; i < 96; ++i) program += static_cast<char>(bytes() & 0xff);
    out.add(program);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_seed_corpus OUT_DIR\n");
    return 2;
  }
  const fs::path root = argv[1];
  const fs::path tmp = root / "tmp";
  try {
    fs::create_directories(tmp);
    SeedDir json(root, "json_args"), records(root, "tfrecord"), ckpt(root, "checkpoint"), h5(root, "hdf5"),
        model(root, "saved_model"), op_programs(root, "ops");
    json_args(json);
    tfrecord(records, (tmp / "r.tfrecord").string());
    checkpoint(ckpt, (tmp / "ckpt").string());
    hdf5(h5, tmp.string());
    saved_model(model, (tmp / "saved_model").string());
    ops(op_programs);
  } catch (const Error& e) {
    std::fprintf(stderr, "fuzz_seed_corpus: %s: %s\n", e.type_name(), e.what());
    return 1;
  }
  fs::remove_all(tmp);
  return 0;
}
