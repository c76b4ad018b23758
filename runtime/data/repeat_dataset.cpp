// repeat, take and skip: the input's sequence replayed, cut short or started late.
#include "runtime/data/datasets.h"

namespace ag::data {
namespace {

class RepeatDataset final : public Dataset {
 public:
  RepeatDataset(DatasetPtr input, int64_t count) : Dataset(input->element_spec()), input_(std::move(input)), count_(count) {}
  const char* class_name() const override { return "_RepeatDataset"; }
  int64_t cardinality() const override {
    int64_t n = input_->cardinality();
    if (count_ == 0 || n == 0) return 0;
    if (count_ < 0 || n == kInfiniteCardinality) return kInfiniteCardinality;
    if (n == kUnknownCardinality) return n;
    return n * count_;
  }

  std::unique_ptr<DatasetIterator> make_iterator() const override {
    class Iterator final : public DatasetIterator {
     public:
      explicit Iterator(const RepeatDataset& ds) : ds_(ds) {
        if (ds.count_ != 0) it_ = ds.input_->make_iterator();
      }
      bool next(std::vector<Tensor>& out) override {
        while (it_) {
          if (it_->next(out)) {
            produced_ = true;
            return true;
          }
          ++epoch_;
          // An epoch with no element ends a forever repeat rather than spinning (TF's ForeverIterator).
          if ((ds_.count_ >= 0 && epoch_ >= ds_.count_) || (ds_.count_ < 0 && !produced_)) {
            it_.reset();
            break;
          }
          produced_ = false;
          it_ = ds_.input_->make_iterator();
        }
        return false;
      }

     private:
      const RepeatDataset& ds_;
      std::unique_ptr<DatasetIterator> it_;
      int64_t epoch_ = 0;
      bool produced_ = false;
    };
    return std::make_unique<Iterator>(*this);
  }

 private:
  DatasetPtr input_;
  int64_t count_;
};

class TakeDataset final : public Dataset {
 public:
  TakeDataset(DatasetPtr input, int64_t count) : Dataset(input->element_spec()), input_(std::move(input)), count_(count) {}
  const char* class_name() const override { return "_TakeDataset"; }
  int64_t cardinality() const override {
    int64_t n = input_->cardinality();
    if (count_ < 0) return n;
    if (n == kInfiniteCardinality) return count_;
    if (n == kUnknownCardinality) return n;
    return std::min(n, count_);
  }

  std::unique_ptr<DatasetIterator> make_iterator() const override {
    class Iterator final : public DatasetIterator {
     public:
      explicit Iterator(const TakeDataset& ds) : left_(ds.count_), input_(ds.input_->make_iterator()) {}
      bool next(std::vector<Tensor>& out) override {
        if (left_ == 0 || !input_) return false;
        if (!input_->next(out)) {
          input_.reset();
          return false;
        }
        if (left_ > 0) --left_;
        return true;
      }

     private:
      int64_t left_;
      std::unique_ptr<DatasetIterator> input_;
    };
    return std::make_unique<Iterator>(*this);
  }

 private:
  DatasetPtr input_;
  int64_t count_;
};

class SkipDataset final : public Dataset {
 public:
  SkipDataset(DatasetPtr input, int64_t count) : Dataset(input->element_spec()), input_(std::move(input)), count_(count) {}
  const char* class_name() const override { return "_SkipDataset"; }
  int64_t cardinality() const override {
    int64_t n = input_->cardinality();
    if (n < 0) return n;
    if (count_ < 0) return 0;
    return std::max<int64_t>(0, n - count_);
  }

  std::unique_ptr<DatasetIterator> make_iterator() const override {
    class Iterator final : public DatasetIterator {
     public:
      explicit Iterator(const SkipDataset& ds) : skip_(ds.count_), input_(ds.input_->make_iterator()) {}
      bool next(std::vector<Tensor>& out) override {
        if (!input_) return false;
        while (skip_ != 0) {
          if (!input_->next(out)) {
            input_.reset();
            return false;
          }
          if (skip_ > 0) --skip_;
        }
        return input_->next(out);
      }

     private:
      int64_t skip_;
      std::unique_ptr<DatasetIterator> input_;
    };
    return std::make_unique<Iterator>(*this);
  }

 private:
  DatasetPtr input_;
  int64_t count_;
};

}  // namespace

DatasetPtr repeat_dataset(DatasetPtr input, int64_t count) {
  return std::make_shared<RepeatDataset>(std::move(input), count);
}
DatasetPtr take_dataset(DatasetPtr input, int64_t count) {
  return std::make_shared<TakeDataset>(std::move(input), count);
}
DatasetPtr skip_dataset(DatasetPtr input, int64_t count) {
  return std::make_shared<SkipDataset>(std::move(input), count);
}

}  // namespace ag::data
