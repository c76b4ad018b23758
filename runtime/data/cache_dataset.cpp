// cache and prefetch. cache() keeps the first complete pass in memory and
// replays it to every later iterator (a pass left unfinished is not kept, as
// TF's MemoryCache requires a full pass). prefetch() changes when elements
// are computed, never which: agc computes them on demand, in order, on the
// iterating thread, so it passes its input through.
#include <mutex>

#include "runtime/data/datasets.h"

namespace ag::data {
namespace {

class CacheDataset final : public Dataset {
 public:
  explicit CacheDataset(DatasetPtr input) : Dataset(input->element_spec()), input_(std::move(input)) {}
  const char* class_name() const override { return "_CacheDataset"; }
  int64_t cardinality() const override { return input_->cardinality(); }

  std::unique_ptr<DatasetIterator> make_iterator() const override {
    std::shared_ptr<const std::vector<std::vector<Tensor>>> cached;
    {
      std::lock_guard<std::mutex> lock(mu_);
      cached = cache_;
    }
    class Iterator final : public DatasetIterator {
     public:
      Iterator(const CacheDataset& ds, std::shared_ptr<const std::vector<std::vector<Tensor>>> cached)
          : ds_(ds), cached_(std::move(cached)) {
        if (!cached_) {
          input_ = ds.input_->make_iterator();
          filling_ = std::make_shared<std::vector<std::vector<Tensor>>>();
        }
      }
      bool next(std::vector<Tensor>& out) override {
        if (cached_) {
          if (i_ >= cached_->size()) return false;
          out = (*cached_)[i_++];
          return true;
        }
        if (!input_) return false;
        if (input_->next(out)) {
          filling_->push_back(out);
          return true;
        }
        input_.reset();
        std::lock_guard<std::mutex> lock(ds_.mu_);
        if (!ds_.cache_) ds_.cache_ = std::move(filling_);
        return false;
      }

     private:
      const CacheDataset& ds_;
      std::shared_ptr<const std::vector<std::vector<Tensor>>> cached_;
      std::unique_ptr<DatasetIterator> input_;
      std::shared_ptr<std::vector<std::vector<Tensor>>> filling_;
      size_t i_ = 0;
    };
    return std::make_unique<Iterator>(*this, std::move(cached));
  }

 private:
  DatasetPtr input_;
  mutable std::mutex mu_;
  mutable std::shared_ptr<const std::vector<std::vector<Tensor>>> cache_;
};

class PrefetchDataset final : public Dataset {
 public:
  explicit PrefetchDataset(DatasetPtr input) : Dataset(input->element_spec()), input_(std::move(input)) {}
  const char* class_name() const override { return "_PrefetchDataset"; }
  int64_t cardinality() const override { return input_->cardinality(); }
  std::unique_ptr<DatasetIterator> make_iterator() const override { return input_->make_iterator(); }

 private:
  DatasetPtr input_;
};

}  // namespace

DatasetPtr cache_dataset(DatasetPtr input) { return std::make_shared<CacheDataset>(std::move(input)); }

DatasetPtr prefetch_dataset(DatasetPtr input, int64_t buffer_size) {
  if (buffer_size < 0 && buffer_size != -1) {
    throw InvalidArgumentError("buffer_size must be >= 0 or set buffer_size to be -1 (AUTOTUNE)");
  }
  return std::make_shared<PrefetchDataset>(std::move(input));
}

}  // namespace ag::data
