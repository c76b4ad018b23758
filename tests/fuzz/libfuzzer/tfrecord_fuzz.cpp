// libFuzzer target: TFRecord files and the tf.train.Example records in them,
// as `tf.data.TFRecordDataset(files).map(tf.io.parse_single_example)` reads
// them. Each input is used twice:
//   - as a whole file, read by TFRecordDataset: records or TF's
//     DataLossError, never a crash or a read past the data;
//   - as one record, written by TFRecordWriter and read back unchanged.
// Every record read is then parsed as a tf.train.Example with a fixed
// feature spec (dense int64, float and string features with and without
// defaults, and a VarLenFeature): values, or an agc error naming the feature.
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/tfrecord.h"
#include "runtime/data/datasets.h"
#include "runtime/ops/eager.h"
#include "tests/fuzz/libfuzzer/fuzz_inputs.h"
#include "tests/fuzz/libfuzzer/fuzz_target.h"

namespace {

using ag::DType;
using ag::Shape;
using ag::Tensor;

/// tf.io.parse_single_example(record, {"a": FixedLenFeature([], tf.int64),
///   "f": FixedLenFeature([2], tf.float32, default_value=[0.5, 1.5]),
///   "s": FixedLenFeature([], tf.string, default_value=""),
///   "v": VarLenFeature(tf.int64)})
void parse_example(const std::string& record) {
  static const ag::Attrs attrs{
      {"dense_keys", std::vector<std::string>{"a", "f", "s"}},
      {"Tdense", std::vector<int64_t>{static_cast<int64_t>(DType::Int64), static_cast<int64_t>(DType::Float32),
                                      static_cast<int64_t>(DType::String)}},
      {"dense_shape_dims", std::vector<int64_t>{0, 1, 2, 0}},
      {"sparse_keys", std::vector<std::string>{"v"}},
      {"sparse_types", std::vector<int64_t>{static_cast<int64_t>(DType::Int64)}},
  };
  const std::vector<Tensor> inputs{Tensor::scalar<std::string>(record), Tensor(DType::Int64, Shape{0}),
                                   Tensor::from_vector<float>(Shape{2}, {0.5f, 1.5f}),
                                   Tensor::scalar<std::string>("")};
  ag::fuzz::expect_clean("ParseSingleExample", [&] {
    (void)ag::run_op(ag::OpRegistry::global().get(ag::OpType{"ParseSingleExample"}), inputs, attrs);
  });
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ag::fuzz::quiet_protobuf_logs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes = ag::fuzz::as_text(data, size);
  static const std::string file = ag::fuzz::scratch_path("input.tfrecord");

  ag::fuzz::write_file(file, bytes);
  std::vector<std::string> records;
  ag::fuzz::expect_clean("TFRecordDataset", [&] {
    const ag::data::DatasetPtr dataset = ag::data::tfrecord_dataset({file}, "");  // outlives its iterator
    auto it = dataset->make_iterator();
    std::vector<Tensor> element;
    while (it->next(element)) records.push_back(element.at(0).scalar_value<std::string>());
  });
  for (const std::string& r : records) parse_example(r);

  {
    ag::TFRecordWriter writer(file);
    writer.write(bytes);
  }
  ag::TFRecordReader reader(file);
  std::string back;
  if (!reader.next(back) || back != bytes) ag::fuzz::fail("a record does not read back as written");
  if (reader.next(back)) ag::fuzz::fail("one record written, two read");
  parse_example(back);
  return 0;
}
