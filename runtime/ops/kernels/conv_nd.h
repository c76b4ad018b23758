// A convolution over three spatial dims (Conv3D's NDHWC input, DHWIO
// filter; a 2-D one has a unit first dim), as patch rows any GEMM
// multiplies: im2col of a range of output positions, the forward product
// in chunks of them, and col2im adding patch rows back where they were
// read (the input's gradient). Conv2D keeps its own tuned 2-D path (conv.h).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "runtime/ops/kernels/gemm.h"

namespace ag::kernels {

struct ConvNdGeom {
  int64_t batch = 0, channels = 0, filter_channels = 0, out_channels = 0;
  std::array<int64_t, 3> in{}, k{}, out{}, stride{}, dil{}, pad{};  // pad: before each dim
  int64_t groups() const { return channels / filter_channels; }
  int64_t positions() const { return batch * out[0] * out[1] * out[2]; }
  int64_t patch() const { return k[0] * k[1] * k[2] * filter_channels; }
};

/// Calls tap(row offset in the patch, input offset or -1 for padding) for
/// every tap of output position p's window, group `grp`'s channels.
template <class Tap>
void for_each_tap(const ConvNdGeom& g, int64_t grp, int64_t p, Tap&& tap) {
  int64_t o[3];
  int64_t rest = p;
  for (int d = 2; d >= 0; --d) {
    o[d] = rest % g.out[static_cast<size_t>(d)];
    rest /= g.out[static_cast<size_t>(d)];
  }
  const int64_t n = rest;
  int64_t at = 0;
  for (int64_t a = 0; a < g.k[0]; ++a) {
    const int64_t i0 = o[0] * g.stride[0] - g.pad[0] + a * g.dil[0];
    for (int64_t b = 0; b < g.k[1]; ++b) {
      const int64_t i1 = o[1] * g.stride[1] - g.pad[1] + b * g.dil[1];
      for (int64_t c = 0; c < g.k[2]; ++c, at += g.filter_channels) {
        const int64_t i2 = o[2] * g.stride[2] - g.pad[2] + c * g.dil[2];
        const bool inside = i0 >= 0 && i0 < g.in[0] && i1 >= 0 && i1 < g.in[1] && i2 >= 0 && i2 < g.in[2];
        tap(at, inside ? (((n * g.in[0] + i0) * g.in[1] + i1) * g.in[2] + i2) * g.channels + grp * g.filter_channels
                       : int64_t{-1});
      }
    }
  }
}

/// Rows [p0, p1) of group `grp`'s patch matrix of `in` into `cols` (row
/// stride: the patch size); zeros where a tap is padding.
template <class T>
void im2col_nd_rows(const T* in, const ConvNdGeom& g, int64_t grp, int64_t p0, int64_t p1, T* cols) {
  const int64_t patch = g.patch();
  for (int64_t p = p0; p < p1; ++p) {
    T* row = cols + (p - p0) * patch;
    for_each_tap(g, grp, p, [&](int64_t at, int64_t from) {
      if (from < 0) {
        std::fill(row + at, row + at + g.filter_channels, T(0));
      } else {
        std::memcpy(row + at, in + from, static_cast<size_t>(g.filter_channels) * sizeof(T));
      }
    });
  }
}

/// Adds rows [p0, p1) of group `grp`'s patch matrix `cols` back into `dx`
/// at the taps they were read from (padding taps are dropped).
template <class T>
void col2im_nd_rows(const T* cols, const ConvNdGeom& g, int64_t grp, int64_t p0, int64_t p1, T* dx) {
  const int64_t patch = g.patch();
  for (int64_t p = p0; p < p1; ++p) {
    const T* row = cols + (p - p0) * patch;
    for_each_tap(g, grp, p, [&](int64_t at, int64_t to) {
      if (to < 0) return;
      for (int64_t c = 0; c < g.filter_channels; ++c) dx[to + c] += row[at + c];
    });
  }
}

/// The float GEMM as conv_nd_forward's product: two threads for a big chunk.
struct FloatGemm {
  template <class T>
  void operator()(const T* a, const T* b, T* c, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb,
                  int64_t ldc) const {
    const double flops = static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
    gemm(a, b, c, m, n, k, lda, ldb, ldc, false, false, threads_for(flops));
  }
};

/// Output positions per chunk: about 256 KiB of patch rows.
inline int64_t conv_nd_chunk_rows(const ConvNdGeom& g, size_t element_size) {
  return std::max<int64_t>(16, std::min<int64_t>(4096, (int64_t{1} << 18) / static_cast<int64_t>(element_size) /
                                                          std::max<int64_t>(g.patch(), 1)));
}

/// out = conv(in, filter), overwritten: each chunk of positions' patch rows
/// times each group's filter columns through gemm(a, b, c, m, n, k, lda,
/// ldb, ldc), row-major, C overwritten (float sums, or int8 into int32).
template <class T, class Acc, class Gemm>
void conv_nd_forward(const T* in, const T* filter, Acc* out, const ConvNdGeom& g, Gemm&& gemm) {
  const int64_t positions = g.positions(), patch = g.patch(), og = g.out_channels / g.groups();
  if (positions == 0 || g.out_channels == 0) return;
  const int64_t rows = conv_nd_chunk_rows(g, sizeof(T));
  std::vector<T> cols(static_cast<size_t>(rows * patch));
  for (int64_t p0 = 0; p0 < positions; p0 += rows) {
    const int64_t p1 = std::min(positions, p0 + rows);
    for (int64_t grp = 0; grp < g.groups(); ++grp) {
      im2col_nd_rows(in, g, grp, p0, p1, cols.data());
      gemm(cols.data(), filter + grp * og, out + p0 * g.out_channels + grp * og, p1 - p0, og, patch, patch,
           g.out_channels, g.out_channels);
    }
  }
}

}  // namespace ag::kernels
