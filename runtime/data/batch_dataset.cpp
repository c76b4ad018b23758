// batch, padded_batch and unbatch: consecutive elements stacked into one
// along a new first dimension (padded to a common shape), and the reverse.
#include <algorithm>

#include "runtime/data/datasets.h"
#include "runtime/data/tensor_rows.h"

namespace ag::data {
namespace {

int64_t batched_cardinality(int64_t n, int64_t batch_size, bool drop_remainder) {
  if (n < 0) return n;
  return drop_remainder ? n / batch_size : (n + batch_size - 1) / batch_size;
}

ElementSpec batched_spec(const ElementSpec& spec, int64_t batch_dim) {
  return spec.map_specs([&](const TensorSpec& s) {
    Shape shape{batch_dim};
    if (!s.shape.rank_known()) return TensorSpec{s.dtype, Shape::unknown_rank()};
    for (int64_t d : s.shape.dims()) shape.push_back(d);
    return TensorSpec{s.dtype, shape};
  });
}

/// Collects up to batch_size elements; false when none (or too few with drop_remainder).
bool take_elements(DatasetIterator& input, int64_t batch_size, bool drop_remainder,
                   std::vector<std::vector<Tensor>>& elements) {
  elements.clear();
  std::vector<Tensor> e;
  while (static_cast<int64_t>(elements.size()) < batch_size && input.next(e)) elements.push_back(std::move(e));
  if (elements.empty()) return false;
  return !(drop_remainder && static_cast<int64_t>(elements.size()) < batch_size);
}

class BatchDataset final : public Dataset {
 public:
  BatchDataset(DatasetPtr input, int64_t batch_size, bool drop)
      : Dataset(batched_spec(input->element_spec(), drop ? batch_size : kUnknownDim)),
        input_(std::move(input)),
        batch_size_(batch_size),
        drop_(drop) {}
  const char* class_name() const override { return "_BatchDataset"; }
  int64_t cardinality() const override { return batched_cardinality(input_->cardinality(), batch_size_, drop_); }

  std::unique_ptr<DatasetIterator> make_iterator() const override {
    class Iterator final : public DatasetIterator {
     public:
      explicit Iterator(const BatchDataset& ds) : ds_(ds), input_(ds.input_->make_iterator()) {}
      bool next(std::vector<Tensor>& out) override {
        if (done_) return false;
        const int64_t got = input_->next_rows(ds_.batch_size_, out);
        done_ = got < ds_.batch_size_;
        return got > 0 && !(ds_.drop_ && got < ds_.batch_size_);
      }

     private:
      const BatchDataset& ds_;
      std::unique_ptr<DatasetIterator> input_;
      bool done_ = false;
    };
    return std::make_unique<Iterator>(*this);
  }

 private:
  DatasetPtr input_;
  int64_t batch_size_;
  bool drop_;
};

ElementSpec padded_spec(const ElementSpec& spec, const std::vector<Shape>& padded, int64_t batch_dim) {
  size_t i = 0;
  ElementSpec s = spec.map_specs([&](const TensorSpec& t) { return TensorSpec{t.dtype, padded[i++]}; });
  return batched_spec(s, batch_dim);
}

class PaddedBatchDataset final : public Dataset {
 public:
  PaddedBatchDataset(DatasetPtr input, int64_t batch_size, std::vector<Shape> padded, std::vector<Tensor> values,
                     bool drop)
      : Dataset(padded_spec(input->element_spec(), padded, drop ? batch_size : kUnknownDim)),
        input_(std::move(input)),
        batch_size_(batch_size),
        padded_(std::move(padded)),
        values_(std::move(values)),
        drop_(drop) {}
  const char* class_name() const override { return "_PaddedBatchDataset"; }
  int64_t cardinality() const override { return batched_cardinality(input_->cardinality(), batch_size_, drop_); }

  std::unique_ptr<DatasetIterator> make_iterator() const override {
    class Iterator final : public DatasetIterator {
     public:
      explicit Iterator(const PaddedBatchDataset& ds) : ds_(ds), input_(ds.input_->make_iterator()) {}
      bool next(std::vector<Tensor>& out) override {
        if (!take_elements(*input_, ds_.batch_size_, ds_.drop_, elements_)) return false;
        const size_t n = elements_.front().size();
        out.resize(n);
        for (size_t c = 0; c < n; ++c) out[c] = pad_component(c);
        return true;
      }

     private:
      Tensor pad_component(size_t c) const {
        const Shape& want = ds_.padded_[c];
        const int rank = elements_[0][c].rank();
        // The batch's shape: the padded shape's known dims, the longest element's elsewhere.
        Shape shape{static_cast<int64_t>(elements_.size())};
        for (int d = 0; d < rank; ++d) {
          int64_t longest = 0;
          for (const auto& e : elements_) longest = std::max(longest, e[c].shape().dim(d));
          int64_t target = want.rank_known() && want.dim(d) != kUnknownDim ? want.dim(d) : longest;
          if (longest > target) {
            throw InvalidArgumentError("Attempted to pad to a smaller size than the input element.");
          }
          shape.push_back(target);
        }
        Tensor out(elements_[0][c].dtype(), shape);
        const Tensor& pad = ds_.values_[c];
        const int64_t per_row = out.num_elements() / std::max<int64_t>(1, shape.dim(0));
        for (int64_t k = 0; k < out.num_elements(); ++k) copy_elements(out, k, pad, 0, 1);
        // Each element's rows of its innermost dimension go to their place in the padded row.
        for (size_t j = 0; j < elements_.size(); ++j) {
          const Tensor& t = elements_[j][c];
          if (t.rank() != rank) {
            throw InvalidArgumentError("All elements in a batch must have the same rank as the padded shape for "
                                       "component" + std::to_string(c) + ": expected rank " +
                                       std::to_string(rank) + " but got element with rank " +
                                       std::to_string(t.rank()));
          }
          if (rank == 0) {
            copy_elements(out, static_cast<int64_t>(j), t, 0, 1);
            continue;
          }
          const int64_t inner = t.shape().dim(rank - 1);
          const int64_t rows = inner == 0 ? 0 : t.num_elements() / inner;
          for (int64_t r = 0; r < rows; ++r) {
            // Row r's index in t, mapped to an offset in the padded row.
            int64_t rem = r, offset = 0, stride = shape.dim(rank);
            for (int d = rank - 2; d >= 0; --d) {
              const int64_t idx = rem % t.shape().dim(d);
              rem /= t.shape().dim(d);
              offset += idx * stride;
              stride *= shape.dim(d + 1);
            }
            copy_elements(out, static_cast<int64_t>(j) * per_row + offset, t, r * inner, inner);
          }
        }
        return out;
      }

      const PaddedBatchDataset& ds_;
      std::unique_ptr<DatasetIterator> input_;
      std::vector<std::vector<Tensor>> elements_;
    };
    return std::make_unique<Iterator>(*this);
  }

 private:
  DatasetPtr input_;
  int64_t batch_size_;
  std::vector<Shape> padded_;
  std::vector<Tensor> values_;
  bool drop_;
};

class UnbatchDataset final : public Dataset {
 public:
  explicit UnbatchDataset(DatasetPtr input)
      : Dataset(input->element_spec().map_specs([](const TensorSpec& s) {
          return TensorSpec{s.dtype, s.shape.rank_known() ? Shape(s.shape.dims().subspan(1)) : s.shape};
        })),
        input_(std::move(input)) {}
  const char* class_name() const override { return "_UnbatchDataset"; }
  int64_t cardinality() const override {
    int64_t n = input_->cardinality();
    return n == kInfiniteCardinality ? n : (n == 0 ? 0 : kUnknownCardinality);
  }

  std::unique_ptr<DatasetIterator> make_iterator() const override {
    class Iterator final : public DatasetIterator {
     public:
      explicit Iterator(const UnbatchDataset& ds) : input_(ds.input_->make_iterator()) {}
      bool next(std::vector<Tensor>& out) override {
        while (row_ >= rows_) {
          if (!input_->next(batch_)) return false;
          row_ = 0;
          rows_ = batch_.front().shape().dim(0);
          for (size_t c = 1; c < batch_.size(); ++c) {
            if (batch_[c].shape().dim(0) != rows_) {
              throw InvalidArgumentError("Input element must have the same batch size in each component. "
                                         "Component 0 had size " + std::to_string(rows_) + " but component " +
                                         std::to_string(c) + " had size " +
                                         std::to_string(batch_[c].shape().dim(0)) + ".");
            }
          }
        }
        out.resize(batch_.size());
        for (size_t c = 0; c < batch_.size(); ++c) out[c] = row(batch_[c], row_);
        ++row_;
        return true;
      }

     private:
      std::unique_ptr<DatasetIterator> input_;
      std::vector<Tensor> batch_;
      int64_t row_ = 0, rows_ = 0;
    };
    return std::make_unique<Iterator>(*this);
  }

 private:
  DatasetPtr input_;
};

/// agc batches and unbatches dense components only; TF batches a RaggedTensor
/// element into a RaggedTensor of one more ragged dimension.
void refuse_composites(const DatasetPtr& input, const char* method) {
  if (input->element_spec().contains_composite()) {
    throw UnimplementedError(std::string("agc's Dataset.") + method +
                             " does not support composite (RaggedTensor, SparseTensor) elements: " +
                             input->element_spec().repr());
  }
}

}  // namespace

DatasetPtr batch_dataset(DatasetPtr input, int64_t batch_size, bool drop_remainder) {
  if (batch_size <= 0) throw InvalidArgumentError("Batch size must be greater than zero.");
  refuse_composites(input, "batch");
  return std::make_shared<BatchDataset>(std::move(input), batch_size, drop_remainder);
}

DatasetPtr padded_batch_dataset(DatasetPtr input, int64_t batch_size, std::vector<Shape> padded_shapes,
                                std::vector<Tensor> padding_values, bool drop_remainder) {
  if (batch_size <= 0) throw InvalidArgumentError("Batch size must be greater than zero.");
  refuse_composites(input, "padded_batch");
  return std::make_shared<PaddedBatchDataset>(std::move(input), batch_size, std::move(padded_shapes),
                                              std::move(padding_values), drop_remainder);
}

DatasetPtr unbatch_dataset(DatasetPtr input) {
  refuse_composites(input, "unbatch");
  for (const TensorSpec& s : input->element_spec().flat_specs()) {
    if (s.shape.rank_known() && s.shape.rank() == 0) {
      throw ValueError("Cannot unbatch an input with scalar components.");
    }
  }
  return std::make_shared<UnbatchDataset>(std::move(input));
}

}  // namespace ag::data
