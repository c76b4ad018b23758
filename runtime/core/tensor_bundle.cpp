#include "runtime/core/tensor_bundle.h"

#include <leveldb/env.h>
#include <leveldb/iterator.h>
#include <leveldb/options.h>
#include <leveldb/table.h>
#include <leveldb/table_builder.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

#include "runtime/core/error.h"
#include "runtime/core/proto_convert.h"
#include "runtime/core/proto/tensor_bundle.pb.h"

namespace ag {
namespace {

tensorflow::DataType to_proto(DType t) {
  if (t == DType::Variant) throw InvalidArgumentError("A checkpoint cannot hold a variant tensor (a TensorList)");
  return static_cast<tensorflow::DataType>(proto::data_type(t));
}

DType from_proto(int t, const std::string& key) {
  std::optional<DType> d = proto::dtype_of(t);
  if (d && *d != DType::Variant) return *d;
  throw UnimplementedError("agc cannot read the checkpoint tensor " + key + ": its dtype (DataType " +
                           std::to_string(t) + ") is not one agc has");
}

void put_varint64(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

bool get_varint64(const std::string& in, size_t& at, size_t end, uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64 && at < end; shift += 7) {
    auto byte = static_cast<uint8_t>(in[at++]);
    v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return true;
  }
  return false;
}

void put_fixed32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

/// A tensor's bytes in the data file.
std::string encode(const Tensor& t) {
  if (t.dtype() != DType::String) {
    return std::string(static_cast<const char*>(t.raw_data()), t.byte_size());
  }
  std::string out;
  const std::string* s = t.data<std::string>();
  for (int64_t i = 0; i < t.num_elements(); ++i) put_varint64(out, s[i].size());
  put_fixed32(out, crc32c_mask(crc32c_extend(0, out.data(), out.size())));
  for (int64_t i = 0; i < t.num_elements(); ++i) out += s[i];
  return out;
}

[[noreturn]] void data_loss(const std::string& file, const std::string& what) {
  throw DataLossError(what + " (in " + file + ")");
}

Tensor decode(const std::string& data, const std::string& file, const tensorflow::BundleEntryProto& e,
              const std::string& key) {
  auto at = static_cast<size_t>(e.offset());
  auto size = static_cast<size_t>(e.size());
  if (e.offset() < 0 || e.size() < 0 || at + size > data.size()) {
    data_loss(file, "The data of " + key + " lies past the end of the file: it is truncated");
  }
  uint32_t crc = crc32c_extend(0, data.data() + at, size);
  if (crc32c_mask(crc) != e.crc32c()) {
    data_loss(file, "Checksum does not match: stored " + std::to_string(e.crc32c()) +
                        " vs. calculated on the restored bytes " + std::to_string(crc32c_mask(crc)));
  }
  Shape shape;
  for (const auto& d : e.shape().dim()) shape.push_back(d.size());
  DType dtype = from_proto(e.dtype(), key);
  Tensor t(dtype, shape);
  if (dtype != DType::String) {
    if (size != t.byte_size()) data_loss(file, "The entry of " + key + " has the wrong size for its shape");
    std::memcpy(t.raw_data(), data.data() + at, size);
    return t;
  }
  const size_t end = at + size;
  std::vector<uint64_t> lengths(static_cast<size_t>(t.num_elements()));
  for (uint64_t& n : lengths) {
    if (!get_varint64(data, at, end, n)) data_loss(file, "Bad string lengths in " + key);
  }
  if (at + 4 > end) data_loss(file, "Bad string tensor " + key);
  at += 4;  // the lengths' checksum, covered by the entry's
  std::string* s = t.data<std::string>();
  for (size_t i = 0; i < lengths.size(); ++i) {
    if (at + lengths[i] > end) data_loss(file, "Bad string tensor " + key);
    s[i].assign(data.data() + at, lengths[i]);
    at += lengths[i];
  }
  return t;
}

std::string read_file(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw NotFoundError("Failed to open the checkpoint file " + file);
  std::ostringstream buf;
  buf << in.rdbuf();
  if (!in && !in.eof()) throw InternalError("Failed to read the checkpoint file " + file);
  return buf.str();
}

/// The index file's bytes as LevelDB's file: a read past the end returns
/// what there is, as pread does, so the table reports a block that a
/// corrupted handle puts out of the file as Corruption ("truncated block
/// read"). LevelDB's own mmap file calls that an IO error (EINVAL), and
/// cannot map an empty file at all.
class IndexFile : public leveldb::RandomAccessFile {
 public:
  explicit IndexFile(const std::string& bytes) : bytes_(bytes) {}
  leveldb::Status Read(uint64_t offset, size_t n, leveldb::Slice* result, char*) const override {
    if (offset > bytes_.size()) {
      *result = leveldb::Slice();
      return leveldb::Status::OK();
    }
    *result = leveldb::Slice(bytes_.data() + offset, std::min<uint64_t>(n, bytes_.size() - offset));
    return leveldb::Status::OK();
  }

 private:
  const std::string& bytes_;
};

/// The table's footer (its last 48 bytes: the metaindex and index block
/// handles as varints, padding, the magic number) must name blocks inside
/// the file. libleveldb allocates a block's size before reading it, so a
/// corrupt footer asking for 2^49 bytes would fail the allocation (fatal
/// under ASan) instead of reporting its truncated block read. A shorter
/// file is left to libleveldb ("file is too short to be an sstable").
void check_footer(const std::string& bytes, const std::string& file) {
  constexpr size_t kFooterSize = 48, kBlockTrailerSize = 5;  // leveldb/table/format.h
  if (bytes.size() < kFooterSize) return;
  const size_t footer = bytes.size() - kFooterSize;
  size_t at = footer;
  for (const char* block : {"metaindex", "index"}) {
    uint64_t offset = 0, size = 0;
    if (!get_varint64(bytes, at, bytes.size(), offset) || !get_varint64(bytes, at, bytes.size(), size) ||
        offset > footer || size > footer - offset || kBlockTrailerSize > footer - offset - size) {
      throw DataLossError(file + ": Corruption: the table's " + block + " block lies past the end of the file");
    }
  }
}

void check(const leveldb::Status& s, const std::string& file) {
  if (s.ok()) return;
  if (s.IsNotFound()) throw NotFoundError(file + ": " + s.ToString());
  if (s.IsCorruption()) throw DataLossError(file + ": " + s.ToString());
  throw InternalError(file + ": " + s.ToString());
}

}  // namespace

std::string bundle_index_file(const std::string& prefix) { return prefix + ".index"; }
std::string bundle_data_file(const std::string& prefix) { return prefix + ".data-00000-of-00001"; }

void BundleWriter::add(const std::string& key, const Tensor& value) { tensors_[key] = value; }

void BundleWriter::finish() {
  // Both files go to temporary names first, so a failed save leaves an
  // earlier checkpoint of the same prefix whole.
  const std::string index = bundle_index_file(prefix_), data = bundle_data_file(prefix_);
  const std::string index_tmp = index + ".tempstate", data_tmp = data + ".tempstate";
  std::map<std::string, std::string> entries;
  {
    std::ofstream out(data_tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw NotFoundError("Failed to create a checkpoint file: " + data_tmp);
    int64_t offset = 0;
    for (const auto& [key, t] : tensors_) {
      std::string bytes = encode(t);
      out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      tensorflow::BundleEntryProto e;
      e.set_dtype(to_proto(t.dtype()));
      proto::write_shape(t.shape(), e.mutable_shape());
      e.set_offset(offset);
      e.set_size(static_cast<int64_t>(bytes.size()));
      e.set_crc32c(crc32c_mask(crc32c_extend(0, bytes.data(), bytes.size())));
      offset += static_cast<int64_t>(bytes.size());
      entries[key] = e.SerializeAsString();
    }
    if (!out.flush()) throw InternalError("Failed to write the checkpoint file " + data_tmp);
  }
  tensorflow::BundleHeaderProto header;
  header.set_num_shards(1);
  header.set_endianness(tensorflow::BundleHeaderProto::LITTLE);
  header.mutable_version()->set_producer(1);
  entries[""] = header.SerializeAsString();

  leveldb::Env* env = leveldb::Env::Default();
  leveldb::WritableFile* raw = nullptr;
  check(env->NewWritableFile(index_tmp, &raw), index_tmp);
  std::unique_ptr<leveldb::WritableFile> file(raw);
  leveldb::Options options;
  options.compression = leveldb::kNoCompression;
  leveldb::TableBuilder builder(options, file.get());
  for (const auto& [key, value] : entries) builder.Add(key, value);  // sorted: "" first
  check(builder.Finish(), index_tmp);
  check(file->Sync(), index_tmp);
  check(file->Close(), index_tmp);
  if (std::rename(data_tmp.c_str(), data.c_str()) != 0 || std::rename(index_tmp.c_str(), index.c_str()) != 0) {
    throw InternalError("Failed to rename the checkpoint files of " + prefix_ + ": " + std::strerror(errno));
  }
}

BundleReader::BundleReader(const std::string& prefix) : prefix_(prefix) {
  const std::string index = bundle_index_file(prefix), data_file = bundle_data_file(prefix);
  leveldb::Env* env = leveldb::Env::Default();
  if (!env->FileExists(index)) {
    throw NotFoundError("Unsuccessful TensorSliceReader constructor: Failed to find any matching files for " + prefix);
  }
  std::string index_bytes = read_file(index);
  check_footer(index_bytes, index);
  IndexFile file(index_bytes);
  leveldb::Table* table_raw = nullptr;
  leveldb::Options options;
  options.paranoid_checks = true;  // verify the index block's checksum too
  check(leveldb::Table::Open(options, &file, index_bytes.size(), &table_raw), index);
  std::unique_ptr<leveldb::Table> table(table_raw);
  leveldb::ReadOptions read;
  read.verify_checksums = true;
  std::unique_ptr<leveldb::Iterator> it(table->NewIterator(read));

  if (!env->FileExists(data_file)) throw NotFoundError("Failed to find the checkpoint data file " + data_file);
  const std::string data = read_file(data_file);
  bool header = false;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    std::string key = it->key().ToString();
    if (key.empty()) {
      tensorflow::BundleHeaderProto h;
      if (!h.ParseFromArray(it->value().data(), static_cast<int>(it->value().size()))) data_loss(index, "Bad header");
      if (h.num_shards() != 1) {
        throw UnimplementedError("agc reads checkpoints of one shard; " + prefix + " has " +
                                 std::to_string(h.num_shards()));
      }
      if (h.endianness() != tensorflow::BundleHeaderProto::LITTLE) {
        throw UnimplementedError("agc reads little-endian checkpoints; " + prefix + " is big-endian");
      }
      header = true;
      continue;
    }
    tensorflow::BundleEntryProto e;
    if (!e.ParseFromArray(it->value().data(), static_cast<int>(it->value().size()))) {
      data_loss(index, "Bad entry for " + key);
    }
    if (e.shard_id() != 0) data_loss(index, "Entry " + key + " names shard " + std::to_string(e.shard_id()));
    tensors_.emplace(key, decode(data, data_file, e, key));
  }
  check(it->status(), index);
  if (!header) data_loss(index, "The checkpoint index has no header");
}

const Tensor& BundleReader::get(const std::string& key) const {
  auto it = tensors_.find(key);
  if (it == tensors_.end()) throw NotFoundError("Key " + key + " not found in checkpoint");
  return it->second;
}

std::vector<std::string> BundleReader::keys() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : tensors_) out.push_back(k);
  return out;
}

}  // namespace ag
