// Dataset.range: start, start + step, ... up to stop (exclusive), as TF's
// RangeDatasetOp counts (a negative step counts down).
#include "runtime/data/datasets.h"

namespace ag::data {
namespace {

Tensor scalar_of(DType dtype, int64_t v) {
  switch (dtype) {
    case DType::Int32: return Tensor::scalar<int32_t>(static_cast<int32_t>(v));
    case DType::Float32: return Tensor::scalar<float>(static_cast<float>(v));
    case DType::Float64: return Tensor::scalar<double>(static_cast<double>(v));
    case DType::Int8: return Tensor::scalar<int8_t>(static_cast<int8_t>(v));
    case DType::UInt8: return Tensor::scalar<uint8_t>(static_cast<uint8_t>(v));
    default: return Tensor::scalar<int64_t>(v);
  }
}

class RangeDataset final : public Dataset {
 public:
  RangeDataset(int64_t start, int64_t stop, int64_t step, DType dtype)
      : Dataset(ElementSpec::tensor({dtype, Shape{}})), start_(start), stop_(stop), step_(step), dtype_(dtype) {}
  const char* class_name() const override { return "_RangeDataset"; }
  bool random_access() const override { return true; }
  void get(int64_t i, std::vector<Tensor>& out) const override {
    out.resize(1);
    out[0] = scalar_of(dtype_, start_ + i * step_);
  }
  int64_t cardinality() const override {
    if (step_ > 0) return stop_ > start_ ? (stop_ - start_ - 1) / step_ + 1 : 0;
    return start_ > stop_ ? (start_ - stop_ - 1) / -step_ + 1 : 0;
  }

  std::unique_ptr<DatasetIterator> make_iterator() const override {
    class Iterator final : public DatasetIterator {
     public:
      explicit Iterator(const RangeDataset& ds) : ds_(ds), left_(ds.cardinality()) {}
      bool next(std::vector<Tensor>& out) override {
        if (left_ <= 0) return false;
        ds_.get(emitted_++, out);
        --left_;
        return true;
      }

     private:
      const RangeDataset& ds_;
      int64_t left_;
      int64_t emitted_ = 0;
    };
    return std::make_unique<Iterator>(*this);
  }

 private:
  int64_t start_, stop_, step_;
  DType dtype_;
};

}  // namespace

DatasetPtr range_dataset(int64_t start, int64_t stop, int64_t step, DType dtype) {
  if (step == 0) throw InvalidArgumentError("step must be a non-zero integer.");
  return std::make_shared<RangeDataset>(start, stop, step, dtype);
}

}  // namespace ag::data
