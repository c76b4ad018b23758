#include "runtime/data/tensor_rows.h"

namespace ag::data {

Tensor row(const Tensor& t, int64_t i) {
  Shape shape(t.shape().dims().subspan(1));
  Tensor out(t.dtype(), shape);
  const int64_t n = out.num_elements();
  copy_elements(out, 0, t, i * n, n);
  return out;
}

Tensor stack(std::span<const Tensor> rows) {
  const Tensor& first = rows.front();
  Shape shape{static_cast<int64_t>(rows.size())};
  for (int64_t d : first.shape().dims()) shape.push_back(d);
  Tensor out(first.dtype(), shape);
  const int64_t n = first.num_elements();
  for (size_t i = 0; i < rows.size(); ++i) copy_elements(out, static_cast<int64_t>(i) * n, rows[i], 0, n);
  return out;
}

}  // namespace ag::data
