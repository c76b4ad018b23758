#include "runtime/batching/batch_tensors.h"

#include "runtime/core/error.h"

namespace ag::batching {

namespace {

int64_t row_elements(const Tensor& t) {
  int64_t n = 1;
  for (int i = 1; i < t.rank(); ++i) n *= t.shape().dim(i);
  return n;
}

}  // namespace

Tensor concat_rows(const std::vector<Tensor>& tensors) {
  if (tensors.empty()) throw InternalError("concat_rows of no tensors");
  const Tensor& first = tensors[0];
  int64_t rows = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    auto mismatch = [&](const char* what) {
      return InvalidArgumentError(std::string(what) + ": shape[0] = " + first.shape().debug_string() + " vs. shape[" +
                                  std::to_string(i) + "] = " + t.shape().debug_string());
    };
    if (t.rank() != first.rank()) throw mismatch("Ranks of all input tensors should match");
    for (int d = 1; d < t.rank(); ++d) {
      if (t.shape().dim(d) != first.shape().dim(d)) throw mismatch("Dimensions of inputs should match");
    }
    if (t.dtype() != first.dtype()) {
      throw InvalidArgumentError(std::string("Data types of all input tensors should match: ") +
                                 dtype_tf_string(first.dtype()) + " vs. " + dtype_tf_string(t.dtype()));
    }
    rows += t.shape().dim(0);
  }
  if (first.rank() == 0) throw InvalidArgumentError("Batching input tensors must have at least one dimension.");
  if (tensors.size() == 1) return first;
  Tensor out(first.dtype(), first.shape().with_dim(0, rows));
  const int64_t row = row_elements(first);
  int64_t at = 0;
  for (const Tensor& t : tensors) {
    copy_elements(out, at, t, 0, t.num_elements());
    at += t.shape().dim(0) * row;
  }
  return out;
}

Tensor slice_rows(const Tensor& t, int64_t begin, int64_t count) {
  if (begin == 0 && count == t.shape().dim(0)) return t;
  Tensor out(t.dtype(), t.shape().with_dim(0, count));
  const int64_t row = row_elements(t);
  copy_elements(out, 0, t, begin * row, count * row);
  return out;
}

}  // namespace ag::batching
