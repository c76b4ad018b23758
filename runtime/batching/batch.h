// A batch of the shared batch scheduler: the pieces of requests that will run
// as one function call, in arrival order (TF's Batch<BatchTask>).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "runtime/batching/batch_call.h"
#include "runtime/core/tensor.h"

namespace ag::batching {

/// A request, or one piece of a split request (B24): its rows of every input.
struct BatchPiece {
  std::shared_ptr<BatchCall> call;
  size_t index = 0;  // which piece of the call
  std::vector<Tensor> inputs;
  std::vector<Tensor> captured;
  int64_t size = 0;  // rows
};

struct Batch {
  std::vector<BatchPiece> pieces;
  int64_t size = 0;  // rows, before padding
  bool empty() const { return pieces.empty(); }
};

}  // namespace ag::batching
