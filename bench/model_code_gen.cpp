#include "bench/model_code_gen.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace agc::bench {
namespace {

using Vars = std::vector<std::pair<std::string_view, std::string>>;

/// `tmpl` with every `${name}` replaced by its value in `vars` (Python never
/// uses `$`, so templates need no escaping of `{}`).
std::string fill(std::string_view tmpl, const Vars& vars) {
  std::string out;
  out.reserve(tmpl.size() + 64);
  size_t i = 0;
  while (i < tmpl.size()) {
    size_t at = tmpl.find("${", i);
    if (at == std::string_view::npos) {
      out.append(tmpl.substr(i));
      break;
    }
    out.append(tmpl.substr(i, at - i));
    size_t close = tmpl.find('}', at);
    if (close == std::string_view::npos) throw std::logic_error("unterminated placeholder in template");
    std::string_view name = tmpl.substr(at + 2, close - at - 2);
    auto it = std::find_if(vars.begin(), vars.end(), [&](const auto& v) { return v.first == name; });
    if (it == vars.end()) throw std::logic_error(fmt::format("template placeholder '{}' has no value", name));
    out.append(it->second);
    i = close + 1;
  }
  return out;
}

constexpr std::array<std::string_view, 12> kVerbs = {"compute", "update",    "scale",  "accumulate",
                                                     "project", "normalize", "reduce", "encode",
                                                     "decode",  "score",     "refine", "mix"};
constexpr std::array<std::string_view, 12> kNouns = {"logits", "features", "hidden", "weights",    "tokens", "batch",
                                                     "states", "scores",   "keys",   "embeddings", "frames", "queries"};
constexpr std::array<std::string_view, 8> kTensors = {"x", "inputs", "features", "h", "values", "signal", "emb", "z"};
constexpr std::array<std::string_view, 6> kAccs = {"acc", "total", "running", "carry", "out", "agg"};
constexpr std::array<std::string_view, 6> kCounts = {"n", "steps", "num_iters", "length", "depth", "horizon"};
constexpr std::array<std::string_view, 8> kClassNouns = {"Block",   "Encoder", "Decoder", "Head",
                                                         "Adapter", "Mixer",   "Gate",    "Residual"};
constexpr std::array<std::string_view, 6> kConsts = {"0.5", "1.5", "0.9", "2.0", "0.1", "1e-3"};
constexpr std::array<std::string_view, 4> kActivations = {"relu", "gelu", "tanh", "swish"};

/// Statements updating `${acc}` / `${x}` inside a loop body (8 spaces deep).
constexpr std::array<std::string_view, 8> kLoopUpdates = {
    "        ${acc} = ${acc} + ${x} * tf.cast(i, ${x}.dtype)\n",
    "        ${acc} = tf.math.maximum(${acc}, ${x} - ${c})\n",
    "        ${x} = tf.nn.relu(${x}) * ${c}\n",
    "        ${acc} += tf.reduce_mean(${x}, axis=-1, keepdims=True)\n",
    "        ${x} = tf.clip_by_value(${x}, clip_value_min=-${c}, clip_value_max=${c})\n",
    "        ${acc} = tf.where(${x} > 0.0, ${acc} + ${x}, ${acc} * ${c})\n",
    "        ${x} = ${x} / (1.0 + tf.abs(${acc}))\n",
    "        ${acc} -= ${c} * tf.square(${x})\n",
};

/// Expressions for an if/elif branch body (12 spaces deep), one per branch.
constexpr std::array<std::string_view, 6> kBranchBodies = {
    "            ${acc} += tf.reduce_sum(${x})\n",
    "            ${acc} -= tf.reduce_mean(${x}, axis=0)[0]\n",
    "            ${acc} = ${acc} * ${c}\n            ${x} = tf.roll(${x}, shift=1, axis=0)\n",
    "            ${acc} = tf.maximum(${acc}, tf.reduce_max(${x}))\n",
    "            ${x} = tf.nn.softmax(${x}, axis=-1)\n            ${acc} += ${x}[0]\n",
    "            ${acc} = tf.math.log1p(tf.abs(${acc}))\n",
};

class Generator {
 public:
  explicit Generator(uint64_t seed) : state_(seed) {}

  /// A module of at least `target_lines` lines.
  std::string module(size_t target_lines) {
    add(R"("""Generated TF2 model code for agc's transpile-throughput benchmark."""
import sys

import numpy as np
import tensorflow as tf

HIDDEN_UNITS = 128
DROPOUT_RATE = 0.1
ACTIVATIONS = {'relu': tf.nn.relu, 'gelu': tf.nn.gelu, 'tanh': tf.tanh}
)");
    using Template = void (Generator::*)(size_t);
    static constexpr std::array<Template, 12> kTemplates = {
        &Generator::while_loop,    &Generator::for_if_chain, &Generator::break_continue, &Generator::early_return,
        &Generator::nested_defs,   &Generator::list_appends, &Generator::tensor_array,   &Generator::keras_layer,
        &Generator::comprehension, &Generator::train_step,   &Generator::conditionals,   &Generator::nested_loops,
    };
    for (size_t i = 0; lines_ < target_lines; ++i) {
      add("\n\n");
      (this->*kTemplates[i % kTemplates.size()])(i);
      ++functions_;
    }
    return std::move(out_);
  }
  size_t definitions() const { return functions_; }

 private:
  uint64_t next() {  // splitmix64
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return static_cast<size_t>(next() % n); }
  template <size_t N>
  std::string pick(const std::array<std::string_view, N>& a) {
    return std::string(a[below(N)]);
  }
  std::string fn_name(size_t i) {
    std::string verb = pick(kVerbs);  // sequenced: argument evaluation order is unspecified
    std::string noun = pick(kNouns);
    return fmt::format("{}_{}_{}", verb, noun, i);
  }
  /// The names most templates share: function, tensor, accumulator, count, constant.
  Vars common(size_t i) {
    return {{"fn", fn_name(i)},   {"x", pick(kTensors)}, {"acc", pick(kAccs)},
            {"n", pick(kCounts)}, {"c", pick(kConsts)},  {"i", std::to_string(i)}};
  }
  void add(std::string_view text) {
    out_.append(text);
    lines_ += static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  }

  // while over a tensor condition; 1-4 updates in the body.
  void while_loop(size_t i) {
    Vars v = common(i);
    std::string body;
    for (size_t k = 0, m = 1 + below(4); k < m; ++k) body += fill(kLoopUpdates[below(kLoopUpdates.size())], v);
    v.emplace_back("body", body);
    v.emplace_back("cond", below(2) ? "i < ${n}" : "i < ${n} and tf.reduce_sum(${acc}) < 1e3");
    v.back().second = fill(v.back().second, v);
    add(fill(R"(@tf.function
def ${fn}(${x}, ${n}):
    i = tf.constant(0)
    ${acc} = tf.zeros_like(${x})
    while ${cond}:
${body}        i += 1
    return ${acc}
)",
             v));
  }

  // for over tf.range with an if/elif.../else chain of 2-5 branches.
  void for_if_chain(size_t i) {
    Vars v = common(i);
    size_t branches = 2 + below(4);
    v.emplace_back("m", std::to_string(branches + 1));
    std::string chain;
    for (size_t k = 0; k < branches; ++k) {
      chain += fill(fmt::format("        {} step % ${{m}} == {}:\n", k == 0 ? "if" : "elif", k), v);
      chain += fill(kBranchBodies[below(kBranchBodies.size())], v);
    }
    chain += fill("        else:\n            ${acc} = ${acc} * ${c}\n", v);
    v.emplace_back("chain", chain);
    add(fill(R"(@tf.function
def ${fn}(${x}, ${n}):
    ${acc} = tf.constant(0.0)
    for step in tf.range(${n}):
${chain}    return ${acc}
)",
             v));
  }

  void break_continue(size_t i) {
    Vars v = common(i);
    add(fill(R"(@tf.function
def ${fn}(${x}, limit=${c}):
    ${acc} = tf.constant(0.0)
    count = tf.constant(0)
    for v in ${x}:
        if v < 0.0:
            continue
        if ${acc} > limit:
            break
        ${acc} += v
        count += 1
    return ${acc}, count
)",
             v));
  }

  void early_return(size_t i) {
    Vars v = common(i);
    if (below(2)) {
      add(fill(R"(@tf.function
def ${fn}(${x}, target):
    for i in tf.range(tf.shape(${x})[0]):
        if ${x}[i] == target:
            return i
    return tf.constant(-1)
)",
               v));
    } else {
      add(fill(R"(@tf.function
def ${fn}(${x}, tol=${c}):
    i = tf.constant(0)
    while i < tf.size(${x}):
        if tf.abs(${x}[i]) < tol:
            return ${x}[i]
        i += 1
    return tf.reduce_min(${x})
)",
               v));
    }
  }

  void nested_defs(size_t i) {
    Vars v = common(i);
    v.emplace_back("act", pick(kActivations));
    add(fill(R"(@tf.function
def ${fn}(${x}, scale=${c}):
    def apply(y, k=1):
        return tf.nn.${act}(y) * k + scale

    def bounded(y):
        y = apply(y, k=2)
        if tf.reduce_max(y) > 1.0:
            y = y / tf.reduce_max(y)
        return y

    h = bounded(${x})
    return apply(h, k=3)
)",
             v));
  }

  void list_appends(size_t i) {
    Vars v = common(i);
    v.emplace_back("k", std::to_string(2 + below(6)));
    add(fill(R"(@tf.function
def ${fn}(${x}, ${n}):
    outputs = []
    for t in tf.range(${n}):
        outputs.append(${x} * tf.cast(t, tf.float32))
    parts = []
    for j in range(${k}):
        parts.append(tf.roll(${x}, shift=j, axis=0))
    return tf.stack(outputs), tf.concat(parts, axis=-1)
)",
             v));
  }

  void tensor_array(size_t i) {
    Vars v = common(i);
    add(fill(R"(@tf.function
def ${fn}(${x}, ${n}):
    ta = tf.TensorArray(tf.float32, size=${n}, dynamic_size=False, clear_after_read=False)
    state = tf.zeros([tf.shape(${x})[-1]])
    for t in tf.range(${n}):
        state = tf.tanh(state * ${c} + ${x}[t])
        ta = ta.write(t, state)
    return ta.stack(), state
)",
             v));
  }

  // A Keras layer with 4 methods; call() runs a Python loop over 1-6 sublayers.
  void keras_layer(size_t i) {
    Vars v = common(i);
    v.emplace_back("cls", fmt::format("{}{}", pick(kClassNouns), i));
    v.emplace_back("k", std::to_string(1 + below(6)));
    v.emplace_back("units", std::to_string(32 << below(4)));
    v.emplace_back("act", pick(kActivations));
    add(fill(R"(class ${cls}(tf.keras.layers.Layer):
    """A ${k}-layer block."""

    def __init__(self, units=${units}, rate=DROPOUT_RATE, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.rate = rate
        self.dense = [tf.keras.layers.Dense(units, activation='${act}') for _ in range(${k})]
        self.norm = tf.keras.layers.LayerNormalization(epsilon=1e-6)

    def build(self, input_shape):
        self.scale = self.add_weight(name='scale', shape=(self.units,), initializer='ones', trainable=True)
        super().build(input_shape)

    @tf.function
    def call(self, inputs, training=False):
        h = inputs
        for layer in self.dense:
            h = layer(h)
            if training:
                h = tf.nn.dropout(h, rate=self.rate)
        return self.norm(h) * self.scale

    def get_config(self):
        config = super().get_config()
        config.update({'units': self.units, 'rate': self.rate})
        return config
)",
             v));
  }

  void comprehension(size_t i) {
    Vars v = common(i);
    add(fill(R"(def ${fn}(${x}, threshold=${c}):
    kept = [t * t for t in ${x} if t > threshold]
    index = {str(t): j for j, t in enumerate(sorted(set(kept)))}
    key = lambda item: (item[1], item[0])
    ranked = sorted(index.items(), key=key, reverse=True)
    summary = f"{len(kept)} of {len(${x})} above {threshold:.2f}: {ranked[:3]!r}"
    tf.print(summary, output_stream=sys.stderr)
    return kept, ranked
)",
             v));
  }

  void train_step(size_t i) {
    Vars v = common(i);
    v.emplace_back("clip", std::to_string(1 + below(5)) + ".0");
    add(fill(R"(@tf.function
def ${fn}(model, optimizer, ${x}, labels):
    with tf.GradientTape() as tape:
        logits = model(${x}, training=True)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
        loss += ${c} * tf.add_n([tf.nn.l2_loss(w) for w in model.trainable_variables])
    grads = tape.gradient(loss, model.trainable_variables)
    grads, _ = tf.clip_by_global_norm(grads, clip_norm=${clip})
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    if tf.math.is_nan(loss):
        tf.print(f'step ${i}: loss is NaN', output_stream=sys.stderr)
        return tf.zeros_like(loss)
    return loss
)",
             v));
  }

  void conditionals(size_t i) {
    Vars v = common(i);
    v.emplace_back("k", std::to_string(1 + below(8)));
    add(fill(R"(@tf.function
def ${fn}(${x}, mask=None, axis=-1):
    head, tail = ${x}[:, :${k}], ${x}[:, ${k}:]
    scale = 1.0 if mask is None else tf.cast(mask, ${x}.dtype)
    if tf.reduce_any(head > 0) and not tf.reduce_all(tail < 0):
        ${acc} = tf.concat([head * scale, tail], axis=axis)
    elif mask is not None or ${x}.shape[0] == 1:
        ${acc} = tail[..., ::-1]
    else:
        ${acc} = ${x}[1:-1, ::2]
    return ${acc}
)",
             v));
  }

  void nested_loops(size_t i) {
    Vars v = common(i);
    v.emplace_back("k", std::to_string(4 + below(12)));
    add(fill(R"(@tf.function
def ${fn}(${x}, ${n}, tol=1e-4):
    total_steps = tf.constant(0)
    err = tf.constant(1.0)
    for outer in tf.range(${n}):
        inner = tf.constant(0)
        while err > tol:
            ${x} = 0.5 * (${x} + tf.math.divide_no_nan(1.0, ${x}))
            err = tf.reduce_max(tf.abs(${x} * ${x} - 1.0))
            inner += 1
            if inner >= ${k}:
                break
        total_steps += inner
        if err <= tol:
            break
    return ${x}, total_steps
)",
             v));
  }

  uint64_t state_;
  std::string out_;
  size_t lines_ = 0;
  size_t functions_ = 0;
};

}  // namespace

GeneratedCode generate_model_code(size_t target_lines, uint64_t seed) {
  Generator gen(seed);
  GeneratedCode out;
  out.text = gen.module(target_lines);
  out.definitions = gen.definitions();
  return out;
}

}  // namespace agc::bench
