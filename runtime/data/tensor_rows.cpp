#include "runtime/data/tensor_rows.h"

#include <cstring>
#include <string>

namespace ag::data {

void copy_elements(Tensor& dst, int64_t dst_at, const Tensor& src, int64_t src_at, int64_t count) {
  if (count == 0) return;
  if (src.dtype() == DType::String) {
    const std::string* s = src.data<std::string>() + src_at;
    std::string* d = dst.data<std::string>() + dst_at;
    for (int64_t i = 0; i < count; ++i) d[i] = s[i];
    return;
  }
  if (has_object_elements(src.dtype())) throw UnimplementedError("datasets of variant tensors are not supported");
  const size_t size = dtype_size(src.dtype());
  std::memcpy(static_cast<char*>(dst.raw_data()) + static_cast<size_t>(dst_at) * size,
              static_cast<const char*>(src.raw_data()) + static_cast<size_t>(src_at) * size,
              static_cast<size_t>(count) * size);
}

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
