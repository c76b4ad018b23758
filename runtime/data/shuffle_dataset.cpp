// Dataset.shuffle in TF's order (kernels/data/shuffle_dataset_op.cc and
// random_seed_ops.cc, ShuffleDatasetV3), so a seeded shuffle gives TF's
// sequence:
//  - the dataset owns a seed generator made from (seed, seed2); (0, 0) means
//    two nondeterministic seeds. With reshuffle_each_iteration it is a Philox
//    stream drawing two 32-bit words per new iterator (RandomSeedGenerator);
//    without, every iterator gets (seed, seed2) (FixedSeedGenerator);
//  - an iterator draws its words from Philox(its seeds), one 32-bit word a
//    sample (SingleSampleAdapter);
//  - it keeps a ring buffer of buffer_size elements, filled from the input
//    until full or the input ends; each element out is buffer[start + r %
//    count] (r the next word, count the elements buffered), swapped with
//    buffer[start], after which start moves on.
#include <algorithm>
#include <mutex>
#include <random>

#include "runtime/data/datasets.h"
#include "runtime/ops/kernels/philox.h"

namespace ag::data {
namespace {

/// One 32-bit word at a time from Philox blocks (TF's SingleSampleAdapter).
class SingleSample {
 public:
  SingleSample(uint64_t seed, uint64_t seed2) : gen_(seed, seed2) {}
  uint32_t operator()() {
    if (used_ == 4) {
      block_ = gen_.next();
      used_ = 0;
    }
    return block_[used_++];
  }

 private:
  kernels::Philox4x32 gen_;
  kernels::Philox4x32::Block block_{};
  int used_ = 4;
};

uint64_t nondeterministic_seed() {
  std::random_device rd;
  return (uint64_t{rd()} << 32) | rd();
}

class ShuffleDataset final : public Dataset {
 public:
  ShuffleDataset(DatasetPtr input, int64_t buffer_size, int64_t seed, int64_t seed2, bool reshuffle)
      : Dataset(input->element_spec()),
        input_(std::move(input)),
        buffer_size_(buffer_size),
        reshuffle_(reshuffle),
        seed_((seed | seed2) == 0 ? static_cast<int64_t>(nondeterministic_seed()) : seed),
        seed2_((seed | seed2) == 0 ? static_cast<int64_t>(nondeterministic_seed()) : seed2),
        generator_(static_cast<uint64_t>(seed_), static_cast<uint64_t>(seed2_)) {}
  const char* class_name() const override { return "_ShuffleDataset"; }
  int64_t cardinality() const override { return input_->cardinality(); }

  std::unique_ptr<DatasetIterator> make_iterator() const override {
    auto [s1, s2] = iterator_seeds();
    SingleSample random(static_cast<uint64_t>(s1), static_cast<uint64_t>(s2));
    if (input_->random_access()) return std::make_unique<IndexIterator>(*this, random);
    return std::make_unique<ElementIterator>(*this, random);
  }

 private:
  /// TF's shuffle buffer: a ring of buffer_size slots, filled from the
  /// input until full or the input ends; each draw takes slot start + r %
  /// count (r the next 32-bit word), swaps slot start into its place, and
  /// moves start on. Item is an element, or its index when the input has
  /// random access (the same draws, the same order, and no element is made
  /// before it is taken).
  template <class Item>
  class Buffer {
   public:
    Buffer(const ShuffleDataset& ds, SingleSample random)
        : size_(ds.buffer_size_), random_(random), slots_(static_cast<size_t>(capacity(ds))) {}
    /// Fills from `pull` (false when the input has ended), then takes one item.
    template <class Pull>
    bool take(Pull&& pull, Item& out) {
      while (!ended_ && count_ < size_) {
        if (!pull(slots_[static_cast<size_t>(end_ % size_)])) {
          ended_ = true;
          break;
        }
        ++end_;
        ++count_;
      }
      if (count_ == 0) return false;
      const int64_t offset = random_() % count_;
      const size_t index = static_cast<size_t>((start_ + offset) % size_);
      const size_t first = static_cast<size_t>(start_ % size_);
      out = std::move(slots_[index]);
      std::swap(slots_[index], slots_[first]);
      ++start_;
      --count_;
      return true;
    }

   private:
    /// An input of n elements never fills more than n slots (ring indices stay below n).
    static int64_t capacity(const ShuffleDataset& ds) {
      int64_t n = ds.input_->cardinality();
      return n >= 0 ? std::max<int64_t>(1, std::min(n, ds.buffer_size_)) : ds.buffer_size_;
    }

    int64_t size_;
    SingleSample random_;
    std::vector<Item> slots_;
    int64_t start_ = 0, end_ = 0, count_ = 0;
    bool ended_ = false;
  };

  class ElementIterator final : public DatasetIterator {
   public:
    ElementIterator(const ShuffleDataset& ds, SingleSample random)
        : input_(ds.input_->make_iterator()), buffer_(ds, random) {}
    bool next(std::vector<Tensor>& out) override {
      return buffer_.take([&](std::vector<Tensor>& slot) { return input_->next(slot); }, out);
    }

   private:
    std::unique_ptr<DatasetIterator> input_;
    Buffer<std::vector<Tensor>> buffer_;
  };

  class IndexIterator final : public DatasetIterator {
   public:
    IndexIterator(const ShuffleDataset& ds, SingleSample random)
        : ds_(ds), n_(ds.input_->cardinality()), buffer_(ds, random) {}
    bool next(std::vector<Tensor>& out) override {
      int64_t i;
      if (!take(i)) return false;
      ds_.input_->get(i, out);
      return true;
    }
    int64_t next_rows(int64_t max, std::vector<Tensor>& out) override {
      rows_.clear();
      int64_t i;
      while (static_cast<int64_t>(rows_.size()) < max && take(i)) rows_.push_back(i);
      if (rows_.empty()) return 0;
      ds_.input_->gather(rows_, out);
      return static_cast<int64_t>(rows_.size());
    }

   private:
    bool take(int64_t& i) {
      return buffer_.take([&](int64_t& slot) { return next_ < n_ ? (slot = next_++, true) : false; }, i);
    }

    const ShuffleDataset& ds_;
    int64_t n_;
    int64_t next_ = 0;
    Buffer<int64_t> buffer_;
    std::vector<int64_t> rows_;
  };

  /// The seed generator's next pair (GenerateSeeds).
  std::pair<int64_t, int64_t> iterator_seeds() const {
    if (!reshuffle_) return {seed_, seed2_};
    std::lock_guard<std::mutex> lock(mu_);
    int64_t a = generator_();
    int64_t b = generator_();
    return {a, b};
  }

  DatasetPtr input_;
  int64_t buffer_size_;
  bool reshuffle_;
  int64_t seed_, seed2_;
  mutable std::mutex mu_;
  mutable SingleSample generator_;
};

}  // namespace

DatasetPtr shuffle_dataset(DatasetPtr input, int64_t buffer_size, int64_t seed, int64_t seed2, bool reshuffle) {
  if (buffer_size <= 0) throw InvalidArgumentError("buffer_size must be greater than zero.");
  return std::make_shared<ShuffleDataset>(std::move(input), buffer_size, seed, seed2, reshuffle);
}

}  // namespace ag::data
