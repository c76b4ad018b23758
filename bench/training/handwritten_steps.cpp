// Issue 13's baseline: the two training steps of bench/training/train_steps.py
// written by hand with Eigen, the way a careful C++ programmer would, with no
// agc runtime, so that agc's generated step (bench_train_steps) can be
// compared with the best straightforward C++:
//   - MLP 784-512-512-10 on a batch of 128: relu, relu, linear, mean sparse
//     softmax cross-entropy; the exact backward (softmax minus one-hot, relu
//     masks, bias column sums); Keras's Adam (lr 1e-3, epsilon 1e-7);
//   - dynamic_rnn (T=100, B=32, 256 units): h = tanh(x[t] wx + h wh + bh),
//     loss = sum over t of mean(h^2); backpropagation through time; Adam.
// Everything is Eigen::Map over row-major buffers allocated once; matrix
// products go through Eigen; the elementwise steps are fused into the
// products' epilogues; the parameters of a model sit in one flat buffer, so
// Adam is one pass over it. The RNN is arranged as a person would, not as
// the traced graph runs it: x wx for all T steps is one product before the
// loop, and the backward loop keeps only the sequential dz_t wh^T: the weight
// gradients are two products over all steps after it.
// Threads (--threads 2, the default with OpenMP: twice as fast here when the
// machine is idle; docs/performance.md): big products run on Eigen's
// OpenMP-parallel GEMM (Eigen::setNbThreads), Adam's loop on OpenMP, and the
// RNN's per-step recurrences in column bands, one per thread (Rnn's
// forward_backward says why).
//
//   bench_handwritten_steps [--steps N] [--threads 1|2] [--only mlp|rnn] [--check]
// prints the best and median wall time per step in bench_train_steps's format
// (best of N MLP steps, of max(N/3, 5) RNN steps, after one untimed step).
// --only times just that step (for `perf record`).
// --check instead compares, in double precision on tiny sizes, the forward
// loss with a naive loop, every gradient with central finite differences of
// that naive loss, and the first Adam step with its closed form; it exits 1
// on a mismatch (the meson test bench-handwritten-gradients runs it).
#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

using Index = Eigen::Index;
template <class T>
using RowMat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using Mat = Eigen::Map<RowMat<T>>;
template <class T>
using ConstMat = Eigen::Map<const RowMat<T>>;
template <class T>
using Row = Eigen::Map<Eigen::Matrix<T, 1, Eigen::Dynamic>>;
template <class T>
using Array = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;

/// The threads of the enclosing OpenMP parallel region, and this one's index.
int thread_count() {
#ifdef _OPENMP
  return omp_get_num_threads();
#else
  return 1;
#endif
}
int thread_index() {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}

/// The default when --threads is not given: whichever measured faster here
/// on an idle machine (docs/performance.md, issue 13). 2 needs OpenMP.
#ifdef _OPENMP
constexpr int kDefaultThreads = 2;
#else
constexpr int kDefaultThreads = 1;
#endif

/// A model's parameters, their gradients and Adam's two slots, each one flat
/// buffer holding the tensors back to back, so that the update is one loop.
template <class T>
struct Params {
  std::vector<T> value, grad, m, v;
  std::vector<Index> offsets;  // where each tensor starts
  int64_t iterations = 0;      // Keras's optimizer.iterations

  /// Appends a tensor of `size` elements; returns its index.
  size_t add(Index size) {
    offsets.push_back(static_cast<Index>(value.size()));
    value.resize(value.size() + static_cast<size_t>(size), T(0));
    grad.resize(value.size(), T(0));
    m.resize(value.size(), T(0));
    v.resize(value.size(), T(0));
    return offsets.size() - 1;
  }
  T* at(std::vector<T>& buf, size_t tensor) { return buf.data() + offsets[tensor]; }
  Index size(size_t tensor) const {
    return (tensor + 1 < offsets.size() ? offsets[tensor + 1] : static_cast<Index>(value.size())) - offsets[tensor];
  }
};

/// Keras 2.11+'s Adam update (keras/optimizers/adam.py), lr 1e-3, beta_1 0.9,
/// beta_2 0.999, epsilon 1e-7, applied to every parameter: with t the step
/// number from 1, alpha = lr sqrt(1 - beta_2^t) / (1 - beta_1^t);
/// m += (g - m)(1 - beta_1); v += (g^2 - v)(1 - beta_2);
/// w -= alpha m / (sqrt(v) + epsilon). Computed in T as Keras computes in the
/// variable's dtype. Chunks of the flat buffers are split over the threads; in
/// a chunk the three statements run while its four arrays are in L1/L2, so
/// memory is read and written once.
template <class T>
void adam_update(Params<T>& p, int threads, T lr = T(1e-3)) {
  const T beta_1 = T(0.9), beta_2 = T(0.999), epsilon = T(1e-7);
  const T step = static_cast<T>(++p.iterations);
  const T alpha = lr * std::sqrt(T(1) - std::pow(beta_2, step)) / (T(1) - std::pow(beta_1, step));
  const Index n = static_cast<Index>(p.value.size());
  constexpr Index kChunk = 2048;
  const Index chunks = (n + kChunk - 1) / kChunk;
  (void)threads;
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1)
  for (Index c = 0; c < chunks; ++c) {
    const Index begin = c * kChunk, len = std::min(kChunk, n - begin);
    Array<T> w(p.value.data() + begin, len), g(p.grad.data() + begin, len), m(p.m.data() + begin, len),
        v(p.v.data() + begin, len);
    m += (g - m) * (T(1) - beta_1);
    v += (g.square() - v) * (T(1) - beta_2);
    w -= alpha * m / (v.sqrt() + epsilon);
  }
}

/// N(0, 1) * scale, as tf.random.normal(stddev=scale).
template <class T>
void fill_normal(T* out, Index n, std::mt19937& gen, double scale = 1.0) {
  std::normal_distribution<double> normal(0.0, scale);
  for (Index i = 0; i < n; ++i) out[i] = static_cast<T>(normal(gen));
}

// ---- The MLP step.

struct MlpDims {
  Index batch, in, hidden1, hidden2, classes;
};

template <class T>
struct Mlp {
  MlpDims d;
  Params<T> params;
  size_t w1, b1, w2, b2, w3, b3;
  std::vector<T> h1, h2, logits, d2, d1;  // activations and backpropagated errors

  Mlp(MlpDims dims, std::mt19937& gen, double weight_scale = 0.05) : d(dims) {
    w1 = params.add(d.in * d.hidden1);
    b1 = params.add(d.hidden1);
    w2 = params.add(d.hidden1 * d.hidden2);
    b2 = params.add(d.hidden2);
    w3 = params.add(d.hidden2 * d.classes);
    b3 = params.add(d.classes);
    // tf.random.normal(stddev=0.05) weights, zero biases (train_steps.py).
    for (size_t w : {w1, w2, w3}) fill_normal(params.at(params.value, w), params.size(w), gen, weight_scale);
    h1.resize(static_cast<size_t>(d.batch * d.hidden1));
    d1.resize(h1.size());
    h2.resize(static_cast<size_t>(d.batch * d.hidden2));
    d2.resize(h2.size());
    logits.resize(static_cast<size_t>(d.batch * d.classes));
  }

  ConstMat<T> weight(size_t i, Index rows, Index cols) { return ConstMat<T>(params.at(params.value, i), rows, cols); }
  Row<T> bias(std::vector<T>& buf, size_t i, Index n) { return Row<T>(params.at(buf, i), n); }

  /// Forward and backward: returns the loss, leaves d loss / d param in
  /// params.grad. x is [batch, in], labels [batch] in [0, classes).
  T forward_backward(const T* x_data, const int32_t* labels) {
    ConstMat<T> x(x_data, d.batch, d.in);
    Mat<T> H1(h1.data(), d.batch, d.hidden1), H2(h2.data(), d.batch, d.hidden2),
        L(logits.data(), d.batch, d.classes), D1(d1.data(), d.batch, d.hidden1), D2(d2.data(), d.batch, d.hidden2);
    auto W1 = weight(w1, d.in, d.hidden1), W2 = weight(w2, d.hidden1, d.hidden2), W3 = weight(w3, d.hidden2, d.classes);
    // Forward: the product, then bias and relu in one pass over it.
    H1.noalias() = x * W1;
    H1 = (H1.rowwise() + bias(params.value, b1, d.hidden1)).cwiseMax(T(0));
    H2.noalias() = H1 * W2;
    H2 = (H2.rowwise() + bias(params.value, b2, d.hidden2)).cwiseMax(T(0));
    L.noalias() = H2 * W3;
    L.rowwise() += bias(params.value, b3, d.classes);
    // Mean sparse softmax cross-entropy, and its gradient in place of the
    // logits: (softmax - one_hot(label)) / batch.
    T loss = 0;
    for (Index i = 0; i < d.batch; ++i) {
      auto row = L.row(i);
      const T max = row.maxCoeff();
      row = (row.array() - max).exp().matrix();
      const T sum = row.sum();
      loss += std::log(sum) - std::log(row(labels[i]));
      row *= T(1) / (sum * static_cast<T>(d.batch));
      row(labels[i]) -= T(1) / static_cast<T>(d.batch);
    }
    // Backward. relu'(z) is 1 where the relu's output is positive.
    Mat<T>(params.at(params.grad, w3), d.hidden2, d.classes).noalias() = H2.transpose() * L;
    bias(params.grad, b3, d.classes) = L.colwise().sum();
    D2.noalias() = L * W3.transpose();
    D2 = (H2.array() > T(0)).select(D2, T(0));
    Mat<T>(params.at(params.grad, w2), d.hidden1, d.hidden2).noalias() = H1.transpose() * D2;
    bias(params.grad, b2, d.hidden2) = D2.colwise().sum();
    D1.noalias() = D2 * W2.transpose();
    D1 = (H1.array() > T(0)).select(D1, T(0));
    Mat<T>(params.at(params.grad, w1), d.in, d.hidden1).noalias() = x.transpose() * D1;
    bias(params.grad, b1, d.hidden1) = D1.colwise().sum();
    return loss / static_cast<T>(d.batch);
  }

  T step(const T* x, const int32_t* labels, int threads) {
    const T loss = forward_backward(x, labels);
    adam_update(params, threads);
    return loss;
  }

  /// The same loss with plain loops over the parameters as they are now: the
  /// reference --check differentiates numerically.
  double naive_loss(const T* x, const int32_t* labels) {
    auto layer = [&](const std::vector<double>& in, Index n_in, size_t w, size_t b, Index n_out, bool relu) {
      std::vector<double> out(static_cast<size_t>(d.batch * n_out));
      const T *wp = params.at(params.value, w), *bp = params.at(params.value, b);
      for (Index i = 0; i < d.batch; ++i) {
        for (Index j = 0; j < n_out; ++j) {
          double z = static_cast<double>(bp[j]);
          for (Index k = 0; k < n_in; ++k) z += in[static_cast<size_t>(i * n_in + k)] * static_cast<double>(wp[k * n_out + j]);
          out[static_cast<size_t>(i * n_out + j)] = relu ? std::max(z, 0.0) : z;
        }
      }
      return out;
    };
    std::vector<double> in(x, x + d.batch * d.in);
    auto a1 = layer(in, d.in, w1, b1, d.hidden1, true);
    auto a2 = layer(a1, d.hidden1, w2, b2, d.hidden2, true);
    auto z = layer(a2, d.hidden2, w3, b3, d.classes, false);
    double loss = 0;
    for (Index i = 0; i < d.batch; ++i) {
      double sum = 0;
      for (Index j = 0; j < d.classes; ++j) sum += std::exp(z[static_cast<size_t>(i * d.classes + j)]);
      loss += std::log(sum) - z[static_cast<size_t>(i * d.classes + labels[i])];
    }
    return loss / static_cast<double>(d.batch);
  }
};

// ---- The dynamic_rnn BPTT step.

struct RnnDims {
  Index steps, batch, units;
};

template <class T>
struct Rnn {
  RnnDims d;
  Params<T> params;
  size_t wx, wh, bh;
  std::vector<T> hs, dz, carry;  // every h_t, every dloss/dz_t, dz_{t+1} wh^T

  Rnn(RnnDims dims, std::mt19937& gen, double weight_scale = 0.05) : d(dims) {
    wx = params.add(d.units * d.units);
    wh = params.add(d.units * d.units);
    bh = params.add(d.units);
    for (size_t w : {wx, wh}) fill_normal(params.at(params.value, w), params.size(w), gen, weight_scale);
    hs.resize(static_cast<size_t>(d.steps * d.batch * d.units));
    dz.resize(hs.size());
    carry.resize(static_cast<size_t>(d.batch * d.units));
  }

  /// Step t of `buf` (hs or dz) as a [batch, units] matrix.
  Mat<T> at_step(std::vector<T>& buf, Index t) { return Mat<T>(buf.data() + t * d.batch * d.units, d.batch, d.units); }

  /// Forward through all steps, then backpropagation through time on
  /// `threads` threads: returns the loss, leaves the gradients in
  /// params.grad. xs is [steps, batch, units].
  T forward_backward(const T* xs, int threads) {
    const Index rows = d.steps * d.batch;
    ConstMat<T> X(xs, rows, d.units);
    ConstMat<T> Wx(params.at(params.value, wx), d.units, d.units), Wh(params.at(params.value, wh), d.units, d.units);
    Row<T> b(params.at(params.value, bh), d.units);
    // Every step's x_t wx at once, where h_t goes: each is turned into h_t in
    // place (h_{t-1} wh accumulated onto it, then bias and tanh).
    Mat<T>(hs.data(), rows, d.units).noalias() = X * Wx;
    const T mean_scale = T(1) / static_cast<T>(d.batch * d.units);
    // The recurrences' products, 2e6 multiply-adds each, are too small for
    // Eigen's parallel GEMM (a fork, a join and shared packing each: the
    // whole step took 16.8 ms on 2 threads that way, 25 ms on one). Instead
    // one parallel region per loop: each thread owns a band of columns of h_t
    // (and of dz_t), computes it with a single-threaded product and its
    // epilogue while in cache, and the threads meet once a step, when the
    // next step needs all of h_t (dz_t). The step then took 14.0 ms.
    T loss = 0;
#pragma omp parallel num_threads(threads) if (threads > 1) reduction(+ : loss)
    {
      const auto [c0, width] = column_band();
      auto bias = b.segment(c0, width);
      for (Index t = 0; t < d.steps; ++t) {
        auto h = at_step(hs, t).middleCols(c0, width);
        if (t > 0) h.noalias() += at_step(hs, t - 1) * Wh.middleCols(c0, width);  // h_{-1} = 0
        h = (h.rowwise() + bias).array().tanh().matrix();
        loss += h.squaredNorm() * mean_scale;
#pragma omp barrier
      }
    }
    // Backward: dloss/dh_t = 2 h_t / (batch units) + dz_{t+1} wh^T, and
    // dz_t = dloss/dh_t (1 - h_t^2) (tanh's derivative from its output). A
    // thread's band of dz_t needs only its band of the carry dz_{t+1} wh^T,
    // which it computed itself; the carry needs all of dz_t.
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
      const auto [c0, width] = column_band();
      auto C = Mat<T>(carry.data(), d.batch, d.units).middleCols(c0, width);
      for (Index t = d.steps - 1; t >= 0; --t) {
        auto h = at_step(hs, t).middleCols(c0, width).array();
        auto z = at_step(dz, t).middleCols(c0, width);
        if (t == d.steps - 1) {
          z = (T(2) * mean_scale * h * (T(1) - h.square())).matrix();
        } else {
          z = ((C.array() + T(2) * mean_scale * h) * (T(1) - h.square())).matrix();
        }
#pragma omp barrier
        if (t > 0) C.noalias() = at_step(dz, t) * Wh.middleRows(c0, width).transpose();
      }
    }
    // The weight gradients, each one product over all steps (Eigen's parallel
    // GEMM): dwx = X^T dz, dwh = h_{t-1}^T dz_t summed over t >= 1, dbh = the
    // column sums of dz.
    ConstMat<T> DZ(dz.data(), rows, d.units);
    Mat<T>(params.at(params.grad, wx), d.units, d.units).noalias() = X.transpose() * DZ;
    Mat<T> dWh(params.at(params.grad, wh), d.units, d.units);
    if (d.steps > 1) {
      const Index prev_rows = (d.steps - 1) * d.batch;
      dWh.noalias() = ConstMat<T>(hs.data(), prev_rows, d.units).transpose() * DZ.bottomRows(prev_rows);
    } else {
      dWh.setZero();
    }
    Row<T>(params.at(params.grad, bh), d.units) = DZ.colwise().sum();
    return loss;
  }

  /// This thread's columns [first, first + width) of a [batch, units] step:
  /// the units split evenly over the threads of the enclosing parallel
  /// region, at multiples of 8 (an AVX register of floats).
  std::pair<Index, Index> column_band() const {
    const Index n = thread_count(), i = thread_index();
    const Index first = (d.units * i / n) & ~Index{7};
    const Index last = i + 1 == n ? d.units : (d.units * (i + 1) / n) & ~Index{7};
    return {first, last - first};
  }

  T step(const T* xs, int threads) {
    const T loss = forward_backward(xs, threads);
    adam_update(params, threads);
    return loss;
  }

  /// The same loss with plain loops: the reference --check differentiates.
  double naive_loss(const T* xs) {
    const Index n = d.batch * d.units;
    const T *Wx = params.at(params.value, wx), *Wh = params.at(params.value, wh), *b = params.at(params.value, bh);
    std::vector<double> h(static_cast<size_t>(n), 0.0), next(h.size());
    double loss = 0;
    for (Index t = 0; t < d.steps; ++t) {
      const T* x = xs + t * n;
      double sum_sq = 0;
      for (Index i = 0; i < d.batch; ++i) {
        for (Index j = 0; j < d.units; ++j) {
          double z = static_cast<double>(b[j]);
          for (Index k = 0; k < d.units; ++k) {
            z += static_cast<double>(x[i * d.units + k]) * static_cast<double>(Wx[k * d.units + j]) +
                 h[static_cast<size_t>(i * d.units + k)] * static_cast<double>(Wh[k * d.units + j]);
          }
          next[static_cast<size_t>(i * d.units + j)] = std::tanh(z);
          sum_sq += std::tanh(z) * std::tanh(z);
        }
      }
      h.swap(next);
      loss += sum_sq / static_cast<double>(n);
    }
    return loss;
  }
};

// ---- --check: gradients against central finite differences, in double.

/// Compares every element of params.grad with (loss(w + e) - loss(w - e)) / 2e
/// of `loss` (a naive forward), and the forward's own loss with loss().
/// Prints the worst errors; returns whether all are within tolerance.
template <class Model, class Loss>
bool check_gradients(const char* name, Model& model, double forward_loss, Loss&& loss) {
  const double want_loss = loss();
  bool ok = std::fabs(forward_loss - want_loss) <= 1e-10 * std::max(1.0, std::fabs(want_loss));
  std::printf("%s: loss %.12g, naive loop %.12g%s\n", name, forward_loss, want_loss, ok ? "" : "  MISMATCH");
  auto& p = model.params;
  const double e = 1e-5;
  double worst = 0;
  for (size_t tensor = 0; tensor < p.offsets.size(); ++tensor) {
    const Index begin = p.offsets[tensor], end = begin + p.size(tensor);
    double tensor_worst = 0;
    for (Index i = begin; i < end; ++i) {
      const double saved = p.value[static_cast<size_t>(i)];
      p.value[static_cast<size_t>(i)] = saved + e;
      const double up = loss();
      p.value[static_cast<size_t>(i)] = saved - e;
      const double down = loss();
      p.value[static_cast<size_t>(i)] = saved;
      const double numeric = (up - down) / (2 * e);
      const double err = std::fabs(p.grad[static_cast<size_t>(i)] - numeric) / std::max(1.0, std::fabs(numeric));
      tensor_worst = std::max(tensor_worst, err);
    }
    std::printf("  parameter %zu (%lld values): max gradient error %.3g\n", tensor,
                static_cast<long long>(end - begin), tensor_worst);
    worst = std::max(worst, tensor_worst);
  }
  // Central differences in double: truncation ~e^2, rounding ~1e-16/e.
  return ok && worst <= 1e-7;
}

/// The first Adam step's closed form: with m = (1 - b1) g, v = (1 - b2) g^2
/// and alpha = lr sqrt(1 - b2) / (1 - b1), w moves by
/// -lr g / (|g| + epsilon / sqrt(1 - b2)).
template <class Model>
bool check_first_adam_step(const char* name, Model& model) {
  auto& p = model.params;
  const auto before = p.value;
  adam_update(p, 1);
  double worst = 0;
  for (size_t i = 0; i < before.size(); ++i) {
    const double g = p.grad[i];
    const double want = before[i] - 1e-3 * g / (std::fabs(g) + 1e-7 / std::sqrt(1 - 0.999));
    worst = std::max(worst, std::fabs(p.value[i] - want));
  }
  std::printf("%s: first Adam step, max error against the closed form %.3g\n", name, worst);
  return worst <= 1e-14;
}

int check() {
  std::mt19937 gen(13);
  bool ok = true;
  {
    // Weights large enough that some relus are off; random biases, so that
    // their gradients are checked away from zero.
    Mlp<double> mlp({5, 7, 6, 5, 3}, gen, 0.5);
    for (size_t b : {mlp.b1, mlp.b2, mlp.b3}) fill_normal(mlp.params.at(mlp.params.value, b), mlp.params.size(b), gen, 0.3);
    std::vector<double> x(5 * 7);
    fill_normal(x.data(), static_cast<Index>(x.size()), gen);
    const int32_t labels[] = {0, 2, 1, 2, 0};
    const double loss = mlp.forward_backward(x.data(), labels);
    ok &= check_gradients("MLP 7-6-5-3, batch 5", mlp, loss, [&] { return mlp.naive_loss(x.data(), labels); });
    ok &= check_first_adam_step("MLP", mlp);
  }
  // 16 units: with 2 threads, each owns a band of 8 columns.
  for (int threads = 1; threads <= kDefaultThreads; ++threads) {
    std::mt19937 rnn_gen(17);
    Rnn<double> rnn({4, 3, 16}, rnn_gen, 0.3);
    fill_normal(rnn.params.at(rnn.params.value, rnn.bh), rnn.params.size(rnn.bh), rnn_gen, 0.3);
    std::vector<double> xs(4 * 3 * 16);
    fill_normal(xs.data(), static_cast<Index>(xs.size()), rnn_gen);
    const double loss = rnn.forward_backward(xs.data(), threads);
    const std::string name = "RNN T=4 B=3 H=16, " + std::to_string(threads) + " thread(s)";
    ok &= check_gradients(name.c_str(), rnn, loss, [&] { return rnn.naive_loss(xs.data()); });
    ok &= check_first_adam_step(name.c_str(), rnn);
  }
  std::printf("%s\n", ok ? "all gradients and Adam steps agree" : "MISMATCH");
  return ok ? 0 : 1;
}

// ---- Timing, as bench_train_steps times agc's steps.

template <class F>
std::pair<double, double> time_steps(int steps, F&& step) {
  using Clock = std::chrono::steady_clock;
  step();  // buffers touched, OpenMP's threads started
  std::vector<double> ms;
  for (int i = 0; i < steps; ++i) {
    auto t0 = Clock::now();
    step();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms.front(), ms[ms.size() / 2]};
}

/// Results fold into this so that the optimizer cannot drop the timed work.
volatile float g_sink = 0;

}  // namespace

int main(int argc, char** argv) {
  int steps = 30, threads = kDefaultThreads;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--check") == 0) return check();
    if (std::strcmp(argv[i], "--steps") == 0 && i + 1 < argc) steps = std::max(1, std::atoi(argv[++i]));
    else if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc) threads = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = argv[++i];
    else {
      std::fprintf(stderr, "usage: %s [--steps N] [--threads 1|2] [--only mlp|rnn] [--check]\n", argv[0]);
      return 2;
    }
  }
  if (!only.empty() && only != "mlp" && only != "rnn") {
    std::fprintf(stderr, "--only takes mlp or rnn\n");
    return 2;
  }
#ifndef _OPENMP
  if (threads != 1) {
    std::fprintf(stderr, "built without OpenMP: only --threads 1\n");
    return 2;
  }
#endif
  if (threads != 1 && threads != 2) {
    std::fprintf(stderr, "--threads takes 1 or 2\n");
    return 2;
  }
  Eigen::setNbThreads(threads);
  std::printf("hand-written Eigen %d.%d.%d, %d thread%s\n", EIGEN_WORLD_VERSION, EIGEN_MAJOR_VERSION,
              EIGEN_MINOR_VERSION, threads, threads == 1 ? "" : "s (OpenMP)");
  std::mt19937 gen(7);

  Mlp<float> mlp({128, 784, 512, 512, 10}, gen);
  std::vector<float> x(128 * 784);
  fill_normal(x.data(), static_cast<Index>(x.size()), gen);
  std::vector<int32_t> labels(128);
  std::uniform_int_distribution<int32_t> label(0, 9);
  for (int32_t& l : labels) l = label(gen);
  if (only != "rnn") {
    auto [mlp_best, mlp_median] =
        time_steps(steps, [&] { g_sink = g_sink + mlp.step(x.data(), labels.data(), threads); });
    std::printf("MLP 784-512-512-10, batch 128, Adam step: best %.2f ms, median %.2f ms\n", mlp_best, mlp_median);
  }
  if (only == "mlp") return 0;

  Rnn<float> rnn({100, 32, 256}, gen);
  std::vector<float> xs(100 * 32 * 256);
  fill_normal(xs.data(), static_cast<Index>(xs.size()), gen);
  auto [rnn_best, rnn_median] = time_steps(std::max(steps / 3, 5), [&] { g_sink = g_sink + rnn.step(xs.data(), threads); });
  std::printf("dynamic_rnn T=100 B=32 H=256, BPTT + Adam step: best %.2f ms, median %.2f ms\n", rnn_best, rnn_median);
  return 0;
}
