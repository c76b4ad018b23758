// tf.random.*: TF's seed rules (random_seed.get_seed) over the Philox ops.
//   global seed set, op seed given  -> (global, op)
//   global seed set, no op seed     -> (global, an op seed of the context)
//   no global seed, op seed given   -> (87654321, op)  (TF's DEFAULT_GRAPH_SEED)
//   neither                         -> nondeterministic
// both taken modulo 2**31 - 1, and (0, 0) made (0, 2**31 - 1). The op seed
// of the context is TF's: eagerly, context.internal_operation_seed(), the
// next random.Random(global_seed).randint(0, 2**31 - 1); while tracing, the
// graph's count of such ops, 0, 1, 2, ... (so two tf.functions with the same
// random ops draw the same values, as in TF). The "global" seed of a graph
// is the one it was traced under (a branch's is its parent's); a TF1 graph
// has only the seed set_seed gave it while it was the default graph.
// A seeded op called again eagerly continues its stream (run_op keeps seeded
// random kernels, as TF's eager kernel cache does), so with a seed the
// sequence of results is reproducible across runs, and each call differs.
#include <atomic>
#include <mutex>
#include <optional>

#include "runtime/api/random_seed.h"
#include "runtime/core/cpython_random.h"
#include "runtime/api/tf_api.h"
#include "runtime/ops/eager.h"
#include "runtime/value/convert.h"
#include "runtime/value/dtype_value.h"

namespace ag::tf {
namespace {

constexpr int64_t kDefaultGraphSeed = 87654321;
constexpr int64_t kMaxInt32 = (int64_t{1} << 31) - 1;

std::mutex g_seed_mu;
std::optional<int64_t> g_global_seed;
/// The eager context's op-seed stream: random.Random(global seed).
CPythonRandom g_context_rng;

/// random_seed._truncate_seed: Python's seed % (2**31 - 1).
int64_t truncate_seed(int64_t s) {
  int64_t r = s % kMaxInt32;
  return r < 0 ? r + kMaxInt32 : r;
}

/// The graph-level seed of `g` (taken when first asked; see the top).
std::optional<int64_t> graph_seed(Graph& g) {
  Graph::RandomSeeds& s = g.random_seeds();
  if (!s.known) {
    s.known = true;
    if (!g.v1()) s.seed = g.parent() ? graph_seed(*g.parent()) : g_global_seed;
  }
  return s.seed;
}

TensorHandle shape_tensor(const Value& shape) {
  if (shape.is_tensor()) return shape.as_tensor();
  return to_tensor(shape, DType::Int32);
}

}  // namespace

std::pair<int64_t, int64_t> get_seed(const Value& op_seed) {
  std::lock_guard<std::mutex> lock(g_seed_mu);
  std::optional<int64_t> op;
  if (!op_seed.is_none()) op = op_seed.as_int();
  Graph* g = current_graph();
  std::optional<int64_t> global = g ? graph_seed(*g) : g_global_seed;
  std::pair<int64_t, int64_t> seeds{0, 0};
  if (global) {
    if (!op) op = g ? g->random_seeds().next_op_seed++ : g_context_rng.below(kMaxInt32 + 1);
    seeds = {truncate_seed(*global), truncate_seed(*op)};
  } else if (op) {
    seeds = {kDefaultGraphSeed, truncate_seed(*op)};
  }
  // TF avoids (0, 0), which would mean "nondeterministic".
  if (seeds == std::pair<int64_t, int64_t>{0, 0} && (global || op)) seeds = {0, kMaxInt32};
  return seeds;
}

void set_seed(const Value& seed) {
  std::lock_guard<std::mutex> lock(g_seed_mu);
  std::optional<int64_t> s = seed.is_none() ? std::nullopt : std::optional<int64_t>(seed.as_int());
  // TF1 graph mode: the default graph's seed (ops.get_default_graph().seed).
  if (Graph* g = current_graph(); g && g->v1()) {
    g->random_seeds().known = true;
    g->random_seeds().seed = s;
    return;
  }
  g_global_seed = s;
  if (s) g_context_rng.seed(*s);
  clear_eager_kernel_cache();  // TF clears its eager caches: sequences start over
}

Value random_uniform(const Value& shape, const Value& minval, const Value& maxval, DType dtype, const Value& seed) {
  auto [s1, s2] = get_seed(seed);
  Attrs attrs{{"seed", s1}, {"seed2", s2}};
  TensorHandle sh = shape_tensor(shape);
  if (is_integer(dtype)) {
    if (maxval.is_none()) throw ValueError("Must specify maxval for integer dtype " + dtype_repr(dtype));
    TensorHandle lo = to_tensor(minval, dtype), hi = to_tensor(maxval, dtype);
    std::vector<TensorHandle> in{sh, lo, hi};
    return Value(apply_op1(op::RandomUniformInt, in, attrs, "random_uniform"));
  }
  if (!is_floating(dtype)) {
    throw TypeError("Invalid dtype " + dtype_repr(dtype) + " for tf.random.uniform; expected a float or integer type");
  }
  attrs.set("dtype", dtype);
  std::vector<TensorHandle> in{sh};
  Value rnd(apply_op1(op::RandomUniform, in, attrs, "RandomUniform"));
  Value lo = Value(to_tensor(minval, dtype));
  Value hi = Value(to_tensor(maxval.is_none() ? Value(1) : maxval, dtype));
  // TF: minval + rnd * (maxval - minval), or rnd when they are 0 and 1.
  if (minval.is_number() && minval.as_float() == 0.0 && (maxval.is_none() || (maxval.is_number() && maxval.as_float() == 1.0))) {
    return rnd;
  }
  return add(multiply(rnd, subtract(hi, lo)), lo);
}

Value random_normal(const Value& shape, const Value& mean, const Value& stddev, DType dtype, const Value& seed) {
  if (!is_floating(dtype)) {
    throw TypeError("Invalid dtype " + dtype_repr(dtype) + " for tf.random.normal; expected a floating point type");
  }
  auto [s1, s2] = get_seed(seed);
  Attrs attrs{{"seed", s1}, {"seed2", s2}, {"dtype", dtype}};
  std::vector<TensorHandle> in{shape_tensor(shape)};
  Value rnd(apply_op1(op::RandomStandardNormal, in, attrs, "RandomStandardNormal"));
  return add(multiply(rnd, Value(to_tensor(stddev, dtype))), Value(to_tensor(mean, dtype)));
}

}  // namespace ag::tf

namespace ag::tf {
namespace {

/// num_samples as the op's int32 scalar.
TensorHandle random_int32_arg(const Value& v) { return v.is_tensor() ? v.as_tensor() : to_tensor(v, DType::Int32); }

/// tf.random.categorical's and stateless_categorical's dtype rule.
DType categorical_dtype(const Value& dtype) {
  DType t = dtype.is_none() ? DType::Int64 : require_dtype(dtype);
  if (t != DType::Int32 && t != DType::Int64) {
    throw ValueError("Argument `dtype` got invalid value <dtype: '" + dtype_repr(t) +
                     "'>. Accepted dtypes are (tf.int32, tf.int64).");
  }
  return t;
}

}  // namespace

Value truncated_normal(const Value& shape, const Value& mean, const Value& stddev, DType dtype, const Value& seed) {
  if (!is_floating(dtype)) {
    throw TypeError("Invalid dtype " + dtype_repr(dtype) + " for tf.random.truncated_normal; expected a floating point type");
  }
  auto [s1, s2] = get_seed(seed);
  Attrs attrs{{"seed", s1}, {"seed2", s2}, {"dtype", dtype}};
  std::vector<TensorHandle> in{shape_tensor(shape)};
  Value rnd(apply_op1(op::TruncatedNormal, in, attrs, "TruncatedNormal"));
  return add(multiply(rnd, Value(to_tensor(stddev, dtype))), Value(to_tensor(mean, dtype)));
}

Value categorical(const Value& logits, const Value& num_samples, const Value& dtype, const Value& seed) {
  TensorHandle l = logits.is_tensor() ? logits.as_tensor() : to_tensor(logits);
  DType out = categorical_dtype(dtype);
  auto [s1, s2] = get_seed(seed);
  Attrs attrs{{"seed", s1}, {"seed2", s2}, {"output_dtype", out}};
  std::vector<TensorHandle> in{l, random_int32_arg(num_samples)};
  return Value(apply_op1(op::Multinomial, in, attrs, "Multinomial"));
}

Value random_shuffle(const Value& value, const Value& seed) {
  auto [s1, s2] = get_seed(seed);
  Attrs attrs{{"seed", s1}, {"seed2", s2}};
  std::vector<TensorHandle> in{value.is_tensor() ? value.as_tensor() : to_tensor(value)};
  return Value(apply_op1(op::RandomShuffle, in, attrs, "RandomShuffle"));
}

Value stateless_categorical(const Value& logits, const Value& num_samples, const Value& seed, const Value& dtype) {
  TensorHandle l = logits.is_tensor() ? logits.as_tensor() : to_tensor(logits);
  DType out = categorical_dtype(dtype);
  std::vector<TensorHandle> in{l, random_int32_arg(num_samples), seed.is_tensor() ? seed.as_tensor() : to_tensor(seed)};
  return Value(apply_op1(op::StatelessMultinomial, in, Attrs{{"output_dtype", out}}, "StatelessMultinomial"));
}

}  // namespace ag::tf
