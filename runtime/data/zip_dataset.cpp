// Dataset.zip (elements side by side, until the shortest input ends) and
// Dataset.concatenate (one input's elements, then the other's).
#include "runtime/data/datasets.h"

namespace ag::data {
namespace {

class ZipDataset final : public Dataset {
 public:
  ZipDataset(std::vector<DatasetPtr> inputs, ElementSpec spec) : Dataset(std::move(spec)), inputs_(std::move(inputs)) {}
  const char* class_name() const override { return "_ZipDataset"; }
  int64_t cardinality() const override {
    int64_t n = kInfiniteCardinality;
    for (const DatasetPtr& d : inputs_) {
      int64_t c = d->cardinality();
      if (c == kUnknownCardinality) return kUnknownCardinality;
      if (c != kInfiniteCardinality) n = n == kInfiniteCardinality ? c : std::min(n, c);
    }
    return n;
  }

  std::unique_ptr<DatasetIterator> make_iterator() const override {
    class Iterator final : public DatasetIterator {
     public:
      explicit Iterator(const ZipDataset& ds) {
        for (const DatasetPtr& d : ds.inputs_) inputs_.push_back(d->make_iterator());
      }
      bool next(std::vector<Tensor>& out) override {
        out.clear();
        for (auto& it : inputs_) {
          if (!it->next(part_)) return false;
          out.insert(out.end(), part_.begin(), part_.end());
        }
        return true;
      }

     private:
      std::vector<std::unique_ptr<DatasetIterator>> inputs_;
      std::vector<Tensor> part_;
    };
    return std::make_unique<Iterator>(*this);
  }

 private:
  std::vector<DatasetPtr> inputs_;
};

class ConcatenateDataset final : public Dataset {
 public:
  ConcatenateDataset(DatasetPtr a, DatasetPtr b, ElementSpec spec)
      : Dataset(std::move(spec)), a_(std::move(a)), b_(std::move(b)) {}
  const char* class_name() const override { return "_ConcatenateDataset"; }
  int64_t cardinality() const override {
    int64_t x = a_->cardinality(), y = b_->cardinality();
    if (x == kInfiniteCardinality || y == kInfiniteCardinality) return kInfiniteCardinality;
    if (x == kUnknownCardinality || y == kUnknownCardinality) return kUnknownCardinality;
    return x + y;
  }

  std::unique_ptr<DatasetIterator> make_iterator() const override {
    class Iterator final : public DatasetIterator {
     public:
      explicit Iterator(const ConcatenateDataset& ds) : ds_(ds), it_(ds.a_->make_iterator()) {}
      bool next(std::vector<Tensor>& out) override {
        if (!it_) return false;
        if (it_->next(out)) return true;
        if (second_) {
          it_.reset();
          return false;
        }
        second_ = true;
        it_ = ds_.b_->make_iterator();
        return next(out);
      }

     private:
      const ConcatenateDataset& ds_;
      std::unique_ptr<DatasetIterator> it_;
      bool second_ = false;
    };
    return std::make_unique<Iterator>(*this);
  }

 private:
  DatasetPtr a_, b_;
};

}  // namespace

DatasetPtr zip_dataset(std::vector<DatasetPtr> inputs, ElementSpec spec) {
  return std::make_shared<ZipDataset>(std::move(inputs), std::move(spec));
}

DatasetPtr concatenate_dataset(DatasetPtr first, DatasetPtr second) {
  // TF's rule: the specs must have one structure and dtypes; shapes relax to
  // their most specific common supertype.
  const ElementSpec& a = first->element_spec();
  const ElementSpec& b = second->element_spec();
  if (!a.same_types(b)) throw TypeError("Incompatible dataset elements:\n  " + a.repr() + " vs.   " + b.repr());
  std::vector<TensorSpec> bs = b.flat_specs();
  size_t i = 0;
  ElementSpec spec = a.map_specs([&](const TensorSpec& s) {
    return TensorSpec{s.dtype, s.shape.most_specific_common_supertype(bs[i++].shape)};
  });
  return std::make_shared<ConcatenateDataset>(std::move(first), std::move(second), std::move(spec));
}

}  // namespace ag::data
