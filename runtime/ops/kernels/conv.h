// 2-D convolution (NHWC input, HWIO filter) as im2col + kernels::gemm, in
// chunks of output pixels so the patch matrix stays cache-sized, and its two
// gradients the same way (the filter's: patchesᵀ · dy; the input's: dy · wᵀ
// scattered back, col2im); and the windowed output-size rule TF's conv and
// pooling ops share.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/core/error.h"
#include "runtime/ops/kernels/gemm.h"

namespace ag::kernels {

enum class Padding { Valid, Same, Explicit };

/// One spatial dim's output size and leading padding, as TF's
/// GetWindowedOutputSizeVerbose computes them (explicit pads given).
struct WindowDim {
  int64_t out = 0;
  int64_t pad_before = 0;
};

inline WindowDim window_dim(int64_t in, int64_t k, int64_t stride, int64_t dilation, Padding p, int64_t pad_before = 0,
                            int64_t pad_after = 0) {
  int64_t eff = (k - 1) * dilation + 1;
  WindowDim d;
  switch (p) {
    case Padding::Valid: d.out = (in - eff + stride) / stride; break;
    case Padding::Explicit:
      d.out = (in + pad_before + pad_after - eff + stride) / stride;
      d.pad_before = pad_before;
      break;
    case Padding::Same: {
      d.out = (in + stride - 1) / stride;
      int64_t needed = std::max<int64_t>(0, (d.out - 1) * stride + eff - in);
      d.pad_before = needed / 2;
      break;
    }
  }
  if (d.out < 0) {
    throw InvalidArgumentError("Computed output size would be negative: " + std::to_string(d.out) +
                               " [input_size: " + std::to_string(in) + ", effective_filter_size: " +
                               std::to_string(eff) + ", stride: " + std::to_string(stride) + "]");
  }
  return d;
}

/// Everything a Conv2D run needs; `groups` = in_depth / filter depth.
struct ConvGeom {
  int64_t batch, in_rows, in_cols, in_depth;
  int64_t k_rows, k_cols, filter_depth, out_depth;
  int64_t out_rows, out_cols;
  int64_t stride_rows, stride_cols, dil_rows, dil_cols;
  int64_t pad_top, pad_left;
  int64_t groups() const { return in_depth / filter_depth; }
};

/// Pixels per chunk of the patch matrices (about 256 KiB).
template <class T>
int64_t backprop_chunk(int64_t patch) {
  return std::max<int64_t>(16, std::min<int64_t>(1024, (int64_t{1} << 18) / static_cast<int64_t>(sizeof(T)) /
                                                           std::max<int64_t>(patch, 1)));
}

/// The rows [p0, p1) of group `grp`'s patch matrix of `in` (im2col), into
/// `cols` (row stride: the patch size); zeros where a tap is padding. With
/// one group and no column dilation a filter row's taps are one contiguous
/// run of the input (k_cols · depth elements), copied at once.
template <class T>
void im2col_rows(const T* in, const ConvGeom& g, int64_t grp, int64_t p0, int64_t p1, T* cols) {
  const int64_t cg = g.filter_depth;
  const int64_t patch = g.k_rows * g.k_cols * cg;
  const bool runs = g.groups() == 1 && g.dil_cols == 1;
  for (int64_t p = p0; p < p1; ++p) {
    const int64_t ow = p % g.out_cols, oh = (p / g.out_cols) % g.out_rows, n = p / (g.out_cols * g.out_rows);
    T* row = cols + (p - p0) * patch;
    const int64_t ih0 = oh * g.stride_rows - g.pad_top, iw0 = ow * g.stride_cols - g.pad_left;
    for (int64_t kh = 0; kh < g.k_rows; ++kh) {
      const int64_t ih = ih0 + kh * g.dil_rows;
      const T* in_row = in + (n * g.in_rows + ih) * g.in_cols * g.in_depth;
      if (ih < 0 || ih >= g.in_rows) {
        std::fill(row, row + g.k_cols * cg, T(0));
        row += g.k_cols * cg;
      } else if (runs) {
        // Taps [lo, hi) read the input; padding wider than the filter can
        // put a whole window left of it (lo = k_cols) or right (hi <= lo).
        const int64_t lo = std::min(g.k_cols, std::max<int64_t>(0, -iw0)), hi = std::min(g.k_cols, g.in_cols - iw0);
        std::fill(row, row + lo * cg, T(0));
        if (hi > lo) std::memcpy(row + lo * cg, in_row + (iw0 + lo) * cg, static_cast<size_t>((hi - lo) * cg) * sizeof(T));
        std::fill(row + std::max(hi, lo) * cg, row + g.k_cols * cg, T(0));
        row += g.k_cols * cg;
      } else {
        for (int64_t kw = 0; kw < g.k_cols; ++kw, row += cg) {
          const int64_t iw = iw0 + kw * g.dil_cols;
          if (iw < 0 || iw >= g.in_cols) {
            std::fill(row, row + cg, T(0));
          } else {
            std::memcpy(row, in_row + iw * g.in_depth + grp * cg, static_cast<size_t>(cg) * sizeof(T));
          }
        }
      }
    }
  }
}

/// Output pixels per part of the parallel loops: enough parts that a thread
/// the OS deschedules holds up little.
inline int conv_parts(int64_t pixels, double flops) {
  return threads_for(flops) > 1 ? static_cast<int>(std::min<int64_t>(pixels, 16)) : 1;
}

/// out[N, OH, OW, OC] = conv(in[N, H, W, C], filter[KH, KW, C/groups, OC]).
template <class T>
void conv2d_nhwc(const T* in, const T* filter, T* out, const ConvGeom& g) {
  const int64_t pixels = g.batch * g.out_rows * g.out_cols;
  if (pixels == 0 || g.out_depth == 0) return;
  const int64_t groups = g.groups();
  const int64_t cg = g.filter_depth;          // input channels per group
  const int64_t og = g.out_depth / groups;    // output channels per group
  const int64_t patch = g.k_rows * g.k_cols * cg;
  const double flops = static_cast<double>(pixels) * static_cast<double>(patch) * static_cast<double>(g.out_depth);
  // 1x1, stride 1, no padding on any side (explicit padding after the input
  // makes the output larger than it): the input already is the patch matrix.
  const bool pointwise = g.k_rows == 1 && g.k_cols == 1 && g.stride_rows == 1 && g.stride_cols == 1 &&
                         g.pad_top == 0 && g.pad_left == 0 && g.out_rows == g.in_rows && g.out_cols == g.in_cols &&
                         groups == 1;
  if (pointwise) {
    gemm(in, filter, out, pixels, g.out_depth, g.in_depth, g.in_depth, g.out_depth, g.out_depth, false, false,
         threads_for(flops));
    return;
  }
  // Chunks of about 256 KiB of patches; each thread im2cols and multiplies its own.
  const int64_t rows_per_chunk = backprop_chunk<T>(patch);
  const int64_t chunks = (pixels + rows_per_chunk - 1) / rows_per_chunk;
  parallel_for(chunks, threads_for(flops) > 1 ? static_cast<int>(std::min<int64_t>(chunks, 64)) : 1,
               [&](int64_t c0, int64_t c1) {
    std::vector<T> cols(static_cast<size_t>(rows_per_chunk * patch));
    for (int64_t chunk = c0; chunk < c1; ++chunk) {
      const int64_t p0 = chunk * rows_per_chunk, p1 = std::min(pixels, p0 + rows_per_chunk);
      for (int64_t grp = 0; grp < groups; ++grp) {
        im2col_rows(in, g, grp, p0, p1, cols.data());
        gemm(cols.data(), filter + grp * og, out + p0 * g.out_depth + grp * og, p1 - p0, og, patch, patch,
             g.out_depth, g.out_depth, false, false, 1);
      }
    }
  });
}

/// dw[KH, KW, C/groups, OC] = Σ over pixels of patch(in)ᵀ · dy (float,
/// double). The two threads each sum half the pixels into a filter-sized
/// buffer of their own, added at the end.
template <class T>
void conv2d_backprop_filter_nhwc(const T* in, const T* dy, T* dw, const ConvGeom& g) {
  const int64_t groups = g.groups(), og = g.out_depth / groups;
  const int64_t patch = g.k_rows * g.k_cols * g.filter_depth;
  const int64_t size = patch * g.out_depth;
  std::fill(dw, dw + size, T(0));
  const int64_t pixels = g.batch * g.out_rows * g.out_cols;
  if (pixels == 0 || g.out_depth == 0) return;
  const double flops = static_cast<double>(pixels) * static_cast<double>(patch) * static_cast<double>(g.out_depth);
  const int parts = threads_for(flops) > 1 ? 2 : 1;
  std::vector<T> second(parts > 1 ? static_cast<size_t>(size) : 0, T(0));
  parallel_for(pixels, parts, [&](int64_t q0, int64_t q1) {
    T* acc = q0 == 0 ? dw : second.data();
    const int64_t rows = backprop_chunk<T>(patch);
    std::vector<T> cols(static_cast<size_t>(rows * patch));
    for (int64_t p0 = q0; p0 < q1; p0 += rows) {
      const int64_t p1 = std::min(q1, p0 + rows);
      for (int64_t grp = 0; grp < groups; ++grp) {
        im2col_rows(in, g, grp, p0, p1, cols.data());
        gemm_add(cols.data(), dy + p0 * g.out_depth + grp * og, acc + grp * og, patch, og, p1 - p0, patch,
                 g.out_depth, g.out_depth, true, false, 1);
      }
    }
  });
  for (int64_t i = 0; i < static_cast<int64_t>(second.size()); ++i) dw[i] += second[static_cast<size_t>(i)];
}

/// dx[N, H, W, C] = col2im(dy · wᵀ): each pixel's patch gradient added back
/// at the taps it read (float, double). Images apart in parallel: a pixel's
/// taps stay inside its own image.
template <class T>
void conv2d_backprop_input_nhwc(const T* filter, const T* dy, T* dx, const ConvGeom& g) {
  const int64_t groups = g.groups(), og = g.out_depth / groups, cg = g.filter_depth;
  const int64_t patch = g.k_rows * g.k_cols * cg;
  std::fill(dx, dx + g.batch * g.in_rows * g.in_cols * g.in_depth, T(0));
  const int64_t image = g.out_rows * g.out_cols;
  const int64_t pixels = g.batch * image;
  if (pixels == 0 || g.out_depth == 0) return;
  const double flops = static_cast<double>(pixels) * static_cast<double>(patch) * static_cast<double>(g.out_depth);
  const int64_t rows = backprop_chunk<T>(patch);
  parallel_for(g.batch, static_cast<int>(std::min<int64_t>(g.batch, conv_parts(g.batch, flops))),
               [&](int64_t b0, int64_t b1) {
    std::vector<T> cols(static_cast<size_t>(rows * patch));
    for (int64_t p0 = b0 * image; p0 < b1 * image; p0 += rows) {
      const int64_t p1 = std::min(b1 * image, p0 + rows);
      for (int64_t grp = 0; grp < groups; ++grp) {
        gemm(dy + p0 * g.out_depth + grp * og, filter + grp * og, cols.data(), p1 - p0, patch, og, g.out_depth,
             g.out_depth, patch, false, true, 1);
        for (int64_t p = p0; p < p1; ++p) {
          const int64_t ow = p % g.out_cols, oh = (p / g.out_cols) % g.out_rows, n = p / image;
          const T* row = cols.data() + (p - p0) * patch;
          const int64_t ih0 = oh * g.stride_rows - g.pad_top, iw0 = ow * g.stride_cols - g.pad_left;
          for (int64_t kh = 0; kh < g.k_rows; ++kh) {
            const int64_t ih = ih0 + kh * g.dil_rows;
            for (int64_t kw = 0; kw < g.k_cols; ++kw, row += cg) {
              const int64_t iw = iw0 + kw * g.dil_cols;
              if (ih < 0 || ih >= g.in_rows || iw < 0 || iw >= g.in_cols) continue;
              T* dst = dx + ((n * g.in_rows + ih) * g.in_cols + iw) * g.in_depth + grp * cg;
              for (int64_t c = 0; c < cg; ++c) dst[c] += row[c];
            }
          }
        }
      }
    }
  });
}

}  // namespace ag::kernels
