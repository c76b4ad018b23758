#include "runtime/data/dataset.h"

#include "runtime/data/tensor_rows.h"

namespace ag::data {
namespace {

class DatasetSource final : public IterableSource {
 public:
  explicit DatasetSource(DatasetPtr ds) : ds_(std::move(ds)) {}
  std::vector<TensorSpec> element_specs() const override { return ds_->element_spec().flat_specs(); }
  std::unique_ptr<ElementSource> start() const override {
    class Pass final : public ElementSource {
     public:
      explicit Pass(DatasetPtr ds) : ds_(std::move(ds)), it_(ds_->make_iterator()) {}
      bool next(std::vector<Tensor>& out) override { return it_->next(out); }

     private:
      DatasetPtr ds_;
      std::unique_ptr<DatasetIterator> it_;
    };
    return std::make_unique<Pass>(ds_);
  }

 private:
  DatasetPtr ds_;
};

}  // namespace

std::shared_ptr<const IterableSource> iterable(DatasetPtr ds) { return std::make_shared<DatasetSource>(std::move(ds)); }

void stack_elements(const std::vector<std::vector<Tensor>>& elements, std::vector<Tensor>& out) {
  const size_t n = elements.front().size();
  out.resize(n);
  std::vector<Tensor> rows(elements.size());
  for (size_t c = 0; c < n; ++c) {
    for (size_t j = 0; j < elements.size(); ++j) {
      const Tensor& t = elements[j][c];
      if (t.shape() != elements[0][c].shape()) {
        throw InvalidArgumentError("Cannot batch tensors with different shapes in component " + std::to_string(c) +
                                   ". First element had shape " + elements[0][c].shape().debug_string() +
                                   " and element " + std::to_string(j) + " had shape " + t.shape().debug_string() +
                                   ".");
      }
      rows[j] = t;
    }
    out[c] = stack(rows);
  }
}

int64_t DatasetIterator::next_rows(int64_t max, std::vector<Tensor>& out) {
  std::vector<std::vector<Tensor>> elements;
  std::vector<Tensor> e;
  while (static_cast<int64_t>(elements.size()) < max && next(e)) elements.push_back(std::move(e));
  if (elements.empty()) return 0;
  stack_elements(elements, out);
  return static_cast<int64_t>(elements.size());
}

void Dataset::get(int64_t, std::vector<Tensor>&) const {
  throw InternalError(std::string(class_name()) + " has no random access");
}

void Dataset::gather(std::span<const int64_t> rows, std::vector<Tensor>& out) const {
  std::vector<std::vector<Tensor>> elements(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) get(rows[i], elements[i]);
  stack_elements(elements, out);
}

std::string dataset_repr(const Dataset& ds) {
  return std::string("<") + ds.class_name() + " element_spec=" + ds.element_spec().repr() + ">";
}

}  // namespace ag::data
