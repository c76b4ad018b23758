// TensorFlow's checkpoint file format, the tensor bundle
// (tensorflow/core/util/tensor_bundle): `PREFIX.index`, an immutable sorted
// string table (LevelDB's SSTable layout, written and read with libleveldb's
// table API) mapping "" to a BundleHeaderProto and each tensor's key to a
// BundleEntryProto; and `PREFIX.data-00000-of-00001`, the tensors' bytes
// (little-endian; strings as varint lengths, a masked crc32c of them, then
// the bytes), each entry carrying the masked crc32c of its bytes. One shard,
// no compression, as TensorFlow writes them: agc reads TF's checkpoints and TF
// reads agc's.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/crc32c.h"
#include "runtime/core/tensor.h"

namespace ag {

/// Collects tensors by key, then writes the bundle.
class BundleWriter {
 public:
  explicit BundleWriter(std::string prefix) : prefix_(std::move(prefix)) {}
  void add(const std::string& key, const Tensor& value);
  /// Writes both files; an Error naming the file when one cannot be written.
  void finish();

 private:
  std::string prefix_;
  std::map<std::string, Tensor> tensors_;
};

/// A bundle's tensors, read whole when opened.
class BundleReader {
 public:
  /// NotFoundError (TF's text) when PREFIX.index does not exist;
  /// DataLossError when a file is truncated or fails its checksums.
  explicit BundleReader(const std::string& prefix);
  bool contains(const std::string& key) const { return tensors_.count(key) != 0; }
  /// NotFoundError "Key K not found in checkpoint" when absent.
  const Tensor& get(const std::string& key) const;
  std::vector<std::string> keys() const;

 private:
  std::string prefix_;
  std::map<std::string, Tensor> tensors_;
};

/// "PREFIX.index" and "PREFIX.data-00000-of-00001".
std::string bundle_index_file(const std::string& prefix);
std::string bundle_data_file(const std::string& prefix);

}  // namespace ag
