// NumPy broadcasting for elementwise kernels: the static rule (unknown dims as
// TF's BroadcastBinaryOpShapeFn treats them), the runtime rule, and a strided
// plan over collapsed dims that kernels walk in contiguous inner runs.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "runtime/core/error.h"
#include "runtime/core/shape.h"

namespace ag::kernels {

/// The broadcast of `a` and `b`, which may have unknown dims or rank; false
/// when two known dims differ and neither is 1. An unknown dim against a
/// known one >1 takes the known one (TF assumes the program is correct).
inline bool broadcast_static(const Shape& a, const Shape& b, Shape& out) {
  if (!a.rank_known() || !b.rank_known()) {
    out = Shape::unknown_rank();
    return true;
  }
  int ra = a.rank(), rb = b.rank(), r = ra > rb ? ra : rb;
  out = Shape::unknown_dims(r);
  for (int i = 0; i < r; ++i) {
    int64_t da = i < r - ra ? 1 : a.dim(i - (r - ra));
    int64_t db = i < r - rb ? 1 : b.dim(i - (r - rb));
    int64_t d;
    if (da < 0 || db < 0) {
      int64_t known = da < 0 ? db : da;
      d = known > 1 ? known : (known == 1 ? (da < 0 ? da : db) : kUnknownDim);
    } else if (da == 1) {
      d = db;
    } else if (db == 1 || da == db) {
      d = da;
    } else {
      return false;
    }
    out.set_dim(i, d);
  }
  return true;
}

/// "Incompatible shapes: [2] vs. [3]", TF's BCast error.
inline std::string incompatible_shapes(const Shape& a, const Shape& b) {
  return "Incompatible shapes: " + a.debug_string() + " vs. " + b.debug_string();
}

/// Why `a` and `b` do not broadcast, in the words of whoever checks: TF's
/// shape function while a graph is built (its Merge of the first pair of
/// known dims that differ, neither 1: "Dimensions must be equal, but are 3
/// and 4"), the kernel's BCast otherwise (incompatible_shapes).
inline std::string broadcast_error(const Shape& a, const Shape& b, bool tracing) {
  if (tracing && a.rank_known() && b.rank_known()) {
    int ra = a.rank(), rb = b.rank(), r = ra > rb ? ra : rb;
    for (int i = 0; i < r; ++i) {
      int64_t da = i < r - ra ? 1 : a.dim(i - (r - ra));
      int64_t db = i < r - rb ? 1 : b.dim(i - (r - rb));
      if (da > 1 && db > 1 && da != db) {
        return "Dimensions must be equal, but are " + std::to_string(da) + " and " + std::to_string(db);
      }
    }
  }
  return incompatible_shapes(a, b);
}

/// The broadcast of two fully defined shapes; InvalidArgumentError if none.
inline Shape broadcast_or_throw(const Shape& a, const Shape& b) {
  Shape out;
  if (!broadcast_static(a, b, out)) throw InvalidArgumentError(incompatible_shapes(a, b));
  return out;
}

/// How N inputs map onto a (fully defined, non-empty) output: dims merged where
/// every input broadcasts alike, size-1 dims dropped. strides[k][d] is input k's
/// element stride along merged dim d (0 where it broadcasts); the innermost
/// stride is 0 or 1, so kernels run contiguous inner loops.
template <int N>
struct BroadcastPlan {
  int rank = 0;
  std::array<int64_t, kMaxRank> dims{};
  std::array<std::array<int64_t, kMaxRank>, N> strides{};

  BroadcastPlan() = default;
  BroadcastPlan(const Shape& out, const std::array<const Shape*, N>& ins) {
    int r = out.rank();
    std::array<bool, kMaxRank> prev_b{};
    bool have_prev = false;
    // Per merged dim: its size and, per input, whether it broadcasts there.
    std::array<std::array<bool, kMaxRank>, N> bc{};
    for (int i = 0; i < r; ++i) {
      int64_t d = out.dim(i);
      if (d == 1) continue;
      std::array<bool, kMaxRank> cur{};
      for (int k = 0; k < N; ++k) {
        const Shape& s = *ins[static_cast<size_t>(k)];
        int off = r - s.rank();
        cur[static_cast<size_t>(k)] = i < off || s.dim(i - off) == 1;
      }
      bool same = have_prev;
      for (int k = 0; k < N && same; ++k) same = cur[static_cast<size_t>(k)] == prev_b[static_cast<size_t>(k)];
      if (same) {
        dims[static_cast<size_t>(rank - 1)] *= d;
      } else {
        dims[static_cast<size_t>(rank)] = d;
        for (int k = 0; k < N; ++k) bc[static_cast<size_t>(k)][static_cast<size_t>(rank)] = cur[static_cast<size_t>(k)];
        ++rank;
      }
      prev_b = cur;
      have_prev = true;
    }
    if (rank == 0) {  // every dim is 1: one element
      rank = 1;
      dims[0] = 1;
      for (int k = 0; k < N; ++k) bc[static_cast<size_t>(k)][0] = true;
    }
    for (int k = 0; k < N; ++k) {
      int64_t s = 1;
      for (int d = rank - 1; d >= 0; --d) {
        bool b = bc[static_cast<size_t>(k)][static_cast<size_t>(d)];
        strides[static_cast<size_t>(k)][static_cast<size_t>(d)] = b ? 0 : s;
        if (!b) s *= dims[static_cast<size_t>(d)];
      }
    }
  }

  /// Calls run(offsets, inner_strides, len) for each contiguous inner run, in
  /// output order; offsets are element offsets into each input.
  template <class Run>
  void for_each_run(Run&& run) const {
    const int inner = rank - 1;
    const int64_t len = dims[static_cast<size_t>(inner)];
    std::array<int64_t, N> is{}, off{};
    for (int k = 0; k < N; ++k) is[static_cast<size_t>(k)] = strides[static_cast<size_t>(k)][static_cast<size_t>(inner)];
    std::array<int64_t, kMaxRank> idx{};
    int64_t outer = 1;
    for (int d = 0; d < inner; ++d) outer *= dims[static_cast<size_t>(d)];
    for (int64_t o = 0; o < outer; ++o) {
      run(off, is, len);
      // Advance the outer odometer.
      for (int d = inner - 1; d >= 0; --d) {
        size_t ud = static_cast<size_t>(d);
        if (++idx[ud] < dims[ud]) {
          for (int k = 0; k < N; ++k) off[static_cast<size_t>(k)] += strides[static_cast<size_t>(k)][ud];
          break;
        }
        idx[ud] = 0;
        for (int k = 0; k < N; ++k) off[static_cast<size_t>(k)] -= strides[static_cast<size_t>(k)][ud] * (dims[ud] - 1);
      }
    }
  }
};

}  // namespace ag::kernels
