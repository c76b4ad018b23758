// The datasets of tensors held in memory: Dataset.from_tensor_slices (one
// element per row) and Dataset.from_tensors (one element).
#include <algorithm>

#include "runtime/data/datasets.h"
#include "runtime/data/tensor_rows.h"

namespace ag::data {
namespace {

class TensorSliceDataset final : public Dataset {
 public:
  TensorSliceDataset(std::vector<Tensor> components, ElementSpec spec)
      : Dataset(std::move(spec)), components_(std::move(components)) {}
  const char* class_name() const override { return "_TensorSliceDataset"; }
  int64_t cardinality() const override { return components_.front().shape().dim(0); }
  bool random_access() const override { return true; }
  void get(int64_t i, std::vector<Tensor>& out) const override {
    out.resize(components_.size());
    for (size_t c = 0; c < out.size(); ++c) out[c] = row(components_[c], i);
  }
  void gather(std::span<const int64_t> rows, std::vector<Tensor>& out) const override {
    out.resize(components_.size());
    for (size_t c = 0; c < out.size(); ++c) {
      const Tensor& from = components_[c];
      Shape shape = from.shape().with_dim(0, static_cast<int64_t>(rows.size()));
      Tensor t(from.dtype(), shape);
      const int64_t per = from.shape().dim(0) == 0 ? 0 : from.num_elements() / from.shape().dim(0);
      for (size_t j = 0; j < rows.size(); ++j) copy_elements(t, static_cast<int64_t>(j) * per, from, rows[j] * per, per);
      out[c] = std::move(t);
    }
  }

  std::unique_ptr<DatasetIterator> make_iterator() const override {
    class Iterator final : public DatasetIterator {
     public:
      explicit Iterator(const TensorSliceDataset& ds) : ds_(ds) {}
      bool next(std::vector<Tensor>& out) override {
        if (i_ >= ds_.cardinality()) return false;
        ds_.get(i_++, out);
        return true;
      }
      // A block of consecutive rows: one copy per component.
      int64_t next_rows(int64_t max, std::vector<Tensor>& out) override {
        const int64_t n = std::min(max, ds_.cardinality() - i_);
        if (n <= 0) return 0;
        out.resize(ds_.components_.size());
        for (size_t c = 0; c < out.size(); ++c) {
          const Tensor& from = ds_.components_[c];
          Tensor t(from.dtype(), from.shape().with_dim(0, n));
          const int64_t per = t.num_elements() / n;
          copy_elements(t, 0, from, i_ * per, n * per);
          out[c] = std::move(t);
        }
        i_ += n;
        return n;
      }

     private:
      const TensorSliceDataset& ds_;
      int64_t i_ = 0;
    };
    return std::make_unique<Iterator>(*this);
  }

 private:
  std::vector<Tensor> components_;
};

class TensorDataset final : public Dataset {
 public:
  TensorDataset(std::vector<Tensor> components, ElementSpec spec)
      : Dataset(std::move(spec)), components_(std::move(components)) {}
  const char* class_name() const override { return "_TensorDataset"; }
  int64_t cardinality() const override { return 1; }

  std::unique_ptr<DatasetIterator> make_iterator() const override {
    class Iterator final : public DatasetIterator {
     public:
      explicit Iterator(const TensorDataset& ds) : ds_(ds) {}
      bool next(std::vector<Tensor>& out) override {
        if (done_) return false;
        done_ = true;
        out = ds_.components_;
        return true;
      }

     private:
      const TensorDataset& ds_;
      bool done_ = false;
    };
    return std::make_unique<Iterator>(*this);
  }

 private:
  std::vector<Tensor> components_;
};

}  // namespace

DatasetPtr tensor_slice_dataset(std::vector<Tensor> components, ElementSpec batched) {
  // The element spec drops the first dimension of each component.
  ElementSpec spec = batched.map_specs([](const TensorSpec& s) {
    return TensorSpec{s.dtype, Shape(s.shape.dims().subspan(1))};
  });
  return std::make_shared<TensorSliceDataset>(std::move(components), std::move(spec));
}

DatasetPtr tensor_dataset(std::vector<Tensor> components, ElementSpec spec) {
  return std::make_shared<TensorDataset>(std::move(components), std::move(spec));
}

}  // namespace ag::data
