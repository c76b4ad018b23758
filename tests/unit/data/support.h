// Helpers the data tests share (one definition: the tests build as one unity TU).
#pragma once

#include <vector>

#include "runtime/data/dataset.h"

namespace ag::data::test {

/// Every element's first component, its int64 values in order.
inline std::vector<int64_t> ints(const DatasetPtr& ds) {
  std::vector<int64_t> out;
  auto it = ds->make_iterator();
  std::vector<Tensor> e;
  while (it->next(e)) {
    for (int64_t i = 0; i < e[0].num_elements(); ++i) out.push_back(e[0].data<int64_t>()[i]);
  }
  return out;
}

}  // namespace ag::data::test
