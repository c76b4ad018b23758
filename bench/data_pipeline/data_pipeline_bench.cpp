// Issue 14's tf.data benchmark: from_tensor_slices -> shuffle(10000, seed=1)
// -> map(x * 2 + 1) -> batch(256) over 1M records (4 float32 features, an
// int64 label), in elements per second:
//   (1) bench/data_pipeline/pipeline.py through agc: the generated
//       make_pipeline() builds the dataset, the generated consume() iterates
//       it in a Python for loop, counting batches;
//   (2) the same pipeline as a plain C++ loop over the same records: TF's
//       shuffle buffer over record indices with the same Philox draws (so the
//       same order), the map and the batch copy written inline.
// Before timing, both must give the same batches: the same count and the
// same checksum of their labels, sum over batches of sum(labels) * batch
// number (pipeline.py's checksum(), which sums each batch with eager ops). The sides alternate; per side the best wall time of the
// repeats; ratio = agc / plain C++. PyTorch's DataLoader over the same
// records is bench/data_pipeline/torch_dataloader.py. Figures are printed,
// never asserted.
//
//   bench_data_pipeline [--records N] [--repeats R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bench/bench_support.h"
#include "pipeline.h"
#include "runtime/ops/kernels/philox.h"

namespace {

using namespace ag;

/// TF's SingleSampleAdapter over Philox4x32.
struct Words {
  Words(uint64_t a, uint64_t b) : gen(a, b) {}
  uint32_t operator()() {
    if (used == 4) {
      block = gen.next();
      used = 0;
    }
    return block[used++];
  }
  kernels::Philox4x32 gen;
  kernels::Philox4x32::Block block{};
  int used = 4;
};

struct PlainResult {
  int64_t batches = 0;
  int64_t checksum = 0;
  float last = 0;  // a value of the last batch, so the batches are really made
};

/// The pipeline by hand. `generator` is the dataset's seed generator: each
/// pass takes two words from it for its own stream, as TF's reshuffling
/// shuffle does.
PlainResult plain_pass(const std::vector<float>& features, const std::vector<int64_t>& labels, Words& generator) {
  constexpr int64_t kBuffer = 10000, kBatch = 256;
  const int64_t n = static_cast<int64_t>(labels.size());
  const uint32_t s1 = generator(), s2 = generator();
  Words random(s1, s2);
  std::vector<int64_t> ring(static_cast<size_t>(std::min(kBuffer, n)));
  int64_t start = 0, end = 0, next = 0;
  std::vector<float> bx(kBatch * 4);
  std::vector<int64_t> by(kBatch);
  PlainResult r;
  int64_t in_batch = 0;
  for (;;) {
    while (end - start < kBuffer && next < n) ring[static_cast<size_t>(end++ % kBuffer)] = next++;
    const int64_t count = end - start;
    if (count == 0) break;
    const size_t pick = static_cast<size_t>((start + random() % count) % kBuffer);
    const int64_t i = ring[pick];
    std::swap(ring[pick], ring[static_cast<size_t>(start % kBuffer)]);
    ++start;
    for (int k = 0; k < 4; ++k) bx[static_cast<size_t>(in_batch * 4 + k)] = features[static_cast<size_t>(i * 4 + k)] * 2.0f + 1.0f;
    by[static_cast<size_t>(in_batch)] = labels[static_cast<size_t>(i)];
    if (++in_batch == kBatch) {
      int64_t s = 0;
      for (int64_t j = 0; j < in_batch; ++j) s += by[static_cast<size_t>(j)];
      r.checksum += s * ++r.batches;
      r.last = bx[0];
      in_batch = 0;
    }
  }
  if (in_batch > 0) {
    int64_t s = 0;
    for (int64_t j = 0; j < in_batch; ++j) s += by[static_cast<size_t>(j)];
    r.checksum += s * ++r.batches;
  }
  return r;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  int64_t records = 1000000;
  int repeats = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--records") == 0) records = std::atoll(argv[i + 1]);
    if (std::strcmp(argv[i], "--repeats") == 0) repeats = std::atoi(argv[i + 1]);
  }
  std::mt19937 rng(0);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  std::vector<float> features(static_cast<size_t>(records * 4));
  for (float& f : features) f = u(rng);
  std::vector<int64_t> labels(static_cast<size_t>(records));
  for (int64_t i = 0; i < records; ++i) labels[static_cast<size_t>(i)] = i;

  Tensor ft = Tensor::from_vector<float>({records, 4}, features);
  Tensor lt = Tensor::from_vector<int64_t>({records}, labels);
  Value ds = pipeline::make_pipeline(Value(ft), Value(lt));
  // TF's get_seed(1) with no global seed: (DEFAULT_GRAPH_SEED, 1).
  Words generator(87654321, 1);

  // Check: the same batches, the same labels (the shuffle's order is TF's on both sides).
  Value r = pipeline::checksum(ds);
  PlainResult p = plain_pass(features, labels, generator);
  const int64_t agc_batches = r.items()[0].as_int();
  const int64_t agc_sum = r.items()[1].as_tensor().value().scalar_value<int64_t>();
  std::printf("check: agc %lld batches, label sum %lld; plain C++ %lld batches, label sum %lld\n",
              static_cast<long long>(agc_batches), static_cast<long long>(agc_sum), static_cast<long long>(p.batches),
              static_cast<long long>(p.checksum));
  if (agc_batches != p.batches || agc_sum != p.checksum) {
    std::printf("MISMATCH: the two sides disagree\n");
    return 1;
  }

  double best_agc = 1e30, best_plain = 1e30;
  volatile int64_t sink = 0;
  for (int rep = 0; rep < repeats; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    Value out = pipeline::consume(ds);
    best_agc = std::min(best_agc, seconds_since(t0));
    sink = sink + out.as_int();
    t0 = std::chrono::steady_clock::now();
    PlainResult q = plain_pass(features, labels, generator);
    best_plain = std::min(best_plain, seconds_since(t0));
    sink = sink + q.batches + static_cast<int64_t>(q.last);
  }
  const double n = static_cast<double>(records);
  std::printf("records %lld, shuffle buffer 10000, batch 256, best of %d, load average %.1f\n",
              static_cast<long long>(records), repeats, bench::load_average());
  std::printf("agc (pipeline.py)  %12.0f elements/s  (%.1f ms)\n", n / best_agc, best_agc * 1e3);
  std::printf("plain C++ loop     %12.0f elements/s  (%.1f ms)\n", n / best_plain, best_plain * 1e3);
  std::printf("ratio agc / plain C++ time: %.2fx (target: within 2x)\n", best_agc / best_plain);
  return 0;
}
