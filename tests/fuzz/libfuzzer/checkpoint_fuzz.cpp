// libFuzzer target: TensorFlow checkpoints (the tensor bundle,
// runtime/core/tensor_bundle.h) as tf.train.Checkpoint reads them. Each input
// is a checkpoint (fuzz_inputs.h: the index table's entries, or raw
// index bytes, and the data file), read two ways:
//   - BundleReader: every tensor, or TF's DataLossError/NotFoundError/...;
//   - Checkpoint.read into a fresh object graph (a float vector, an int in a
//     list, a string in a dict, as the seeds' checkpoints hold): the object
//     graph's matching and the variables' checks, or an agc error.
#include <leveldb/env.h>
#include <leveldb/options.h>
#include <leveldb/table_builder.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "runtime/api/checkpoint.h"
#include "runtime/core/tensor_bundle.h"
#include "tests/fuzz/libfuzzer/fuzz_inputs.h"
#include "tests/fuzz/libfuzzer/fuzz_target.h"

namespace {

/// Writes `entries` (sorted, the first of repeated keys kept) as a LevelDB table.
void write_table(const std::string& path, const std::vector<std::pair<std::string, std::string>>& entries) {
  std::map<std::string, std::string> sorted(entries.begin(), entries.end());
  leveldb::WritableFile* raw = nullptr;
  if (!leveldb::Env::Default()->NewWritableFile(path, &raw).ok()) ag::fuzz::fail("cannot write " + path);
  std::unique_ptr<leveldb::WritableFile> file(raw);
  leveldb::Options options;
  options.compression = leveldb::kNoCompression;
  leveldb::TableBuilder builder(options, file.get());
  for (const auto& [key, value] : sorted) builder.Add(key, value);
  if (!builder.Finish().ok() || !file->Close().ok()) ag::fuzz::fail("cannot write " + path);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ag::fuzz::quiet_protobuf_logs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string prefix = ag::fuzz::scratch_path("ckpt");
  const ag::fuzz::CheckpointInput in = ag::fuzz::decode_checkpoint_input(ag::fuzz::as_text(data, size));
  if (in.raw_index) {
    ag::fuzz::write_file(ag::bundle_index_file(prefix), in.index);
  } else {
    write_table(ag::bundle_index_file(prefix), in.entries);
  }
  ag::fuzz::write_file(ag::bundle_data_file(prefix), in.data);

  ag::fuzz::expect_clean("BundleReader", [&] {
    ag::BundleReader reader(prefix);
    for (const std::string& key : reader.keys()) (void)reader.get(key).num_elements();
  });
  ag::fuzz::expect_clean("Checkpoint.read", [&] {
    (void)ag::checkpoint_read(ag::fuzz::checkpoint_fuzz_root(), prefix);
  });
  return 0;
}
