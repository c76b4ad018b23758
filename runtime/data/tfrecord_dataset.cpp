// TFRecordDataset: the records of its files, in order, each a string scalar
// (core/tfrecord.h reads the format and raises TF's DataLossError).
#include "runtime/core/tfrecord.h"
#include "runtime/data/datasets.h"

namespace ag::data {
namespace {

class TFRecordDataset final : public Dataset {
 public:
  explicit TFRecordDataset(std::vector<std::string> files)
      : Dataset(ElementSpec::tensor({DType::String, Shape{}})), files_(std::move(files)) {}
  // TF's Python class for tf.data.TFRecordDataset.
  const char* class_name() const override { return "TFRecordDatasetV2"; }
  int64_t cardinality() const override { return kUnknownCardinality; }

  std::unique_ptr<DatasetIterator> make_iterator() const override {
    class Iterator final : public DatasetIterator {
     public:
      explicit Iterator(const TFRecordDataset& ds) : ds_(ds) {}
      bool next(std::vector<Tensor>& out) override {
        for (;;) {
          if (!reader_) {
            if (file_ >= ds_.files_.size()) return false;
            reader_ = std::make_unique<TFRecordReader>(ds_.files_[file_]);
          }
          std::string record;
          bool got = false;
          try {
            got = reader_->next(record);
          } catch (const Error&) {
            // TF moves on to the next file after an error (for ignore_errors).
            reader_.reset();
            ++file_;
            throw;
          }
          if (got) {
            out.resize(1);
            out[0] = Tensor::scalar<std::string>(std::move(record));
            return true;
          }
          reader_.reset();
          ++file_;
        }
      }

     private:
      const TFRecordDataset& ds_;
      size_t file_ = 0;
      std::unique_ptr<TFRecordReader> reader_;
    };
    return std::make_unique<Iterator>(*this);
  }

 private:
  std::vector<std::string> files_;
};

}  // namespace

DatasetPtr tfrecord_dataset(std::vector<std::string> files, std::string compression_type) {
  if (!compression_type.empty()) {
    throw UnimplementedError("TFRecordDataset compression_type '" + compression_type +
                             "' is not supported: agc reads uncompressed TFRecord files");
  }
  return std::make_shared<TFRecordDataset>(std::move(files));
}

}  // namespace ag::data
