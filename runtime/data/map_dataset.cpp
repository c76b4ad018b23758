// map and filter: a traced function (dataset_function.h) run on each element.
#include "runtime/data/datasets.h"

namespace ag::data {
namespace {

class MapDataset final : public Dataset {
 public:
  MapDataset(DatasetPtr input, std::shared_ptr<const DatasetFunction> fn, bool parallel)
      : Dataset(fn->output_spec()), input_(std::move(input)), fn_(std::move(fn)), parallel_(parallel) {}
  // With num_parallel_calls TF makes a _ParallelMapDataset; agc runs both in
  // order on the iterating thread (the same elements, deterministic order).
  const char* class_name() const override { return parallel_ ? "_ParallelMapDataset" : "_MapDataset"; }
  int64_t cardinality() const override { return input_->cardinality(); }

  std::unique_ptr<DatasetIterator> make_iterator() const override {
    class Iterator final : public DatasetIterator {
     public:
      explicit Iterator(const MapDataset& ds) : ds_(ds), input_(ds.input_->make_iterator()) {}
      bool next(std::vector<Tensor>& out) override {
        if (!input_->next(element_)) return false;
        ds_.fn_->run(element_, out);
        return true;
      }
      // A batchable function maps a whole batch of the input's rows at once.
      int64_t next_rows(int64_t max, std::vector<Tensor>& out) override {
        if (!ds_.fn_->batchable()) return DatasetIterator::next_rows(max, out);
        const int64_t n = input_->next_rows(max, element_);
        if (n > 0) ds_.fn_->run_batch(element_, out);
        return n;
      }

     private:
      const MapDataset& ds_;
      std::unique_ptr<DatasetIterator> input_;
      std::vector<Tensor> element_;
    };
    return std::make_unique<Iterator>(*this);
  }

 private:
  DatasetPtr input_;
  std::shared_ptr<const DatasetFunction> fn_;
  bool parallel_;
};

class FilterDataset final : public Dataset {
 public:
  FilterDataset(DatasetPtr input, std::shared_ptr<const DatasetFunction> predicate)
      : Dataset(input->element_spec()), input_(std::move(input)), predicate_(std::move(predicate)) {}
  const char* class_name() const override { return "_FilterDataset"; }
  int64_t cardinality() const override {
    int64_t n = input_->cardinality();
    return n == kInfiniteCardinality || n == 0 ? n : kUnknownCardinality;
  }

  std::unique_ptr<DatasetIterator> make_iterator() const override {
    class Iterator final : public DatasetIterator {
     public:
      explicit Iterator(const FilterDataset& ds) : ds_(ds), input_(ds.input_->make_iterator()) {}
      bool next(std::vector<Tensor>& out) override {
        while (input_->next(out)) {
          ds_.predicate_->run(out, keep_);
          if (keep_[0].scalar_value<bool>()) return true;
        }
        return false;
      }

     private:
      const FilterDataset& ds_;
      std::unique_ptr<DatasetIterator> input_;
      std::vector<Tensor> keep_;
    };
    return std::make_unique<Iterator>(*this);
  }

 private:
  DatasetPtr input_;
  std::shared_ptr<const DatasetFunction> predicate_;
};

}  // namespace

DatasetPtr map_dataset(DatasetPtr input, std::shared_ptr<const DatasetFunction> fn, bool parallel) {
  return std::make_shared<MapDataset>(std::move(input), std::move(fn), parallel);
}

DatasetPtr filter_dataset(DatasetPtr input, std::shared_ptr<const DatasetFunction> predicate) {
  const ElementSpec& out = predicate->output_spec();
  if (out.kind != ElementSpec::Kind::Tensor || out.spec.dtype != DType::Bool ||
      (out.spec.shape.rank_known() && out.spec.shape.rank() != 0)) {
    // TF's message from structured_function / filter.
    throw ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor, but its return type "
                     "is " + out.repr() + ".");
  }
  return std::make_shared<FilterDataset>(std::move(input), std::move(predicate));
}

}  // namespace ag::data
