"""The numbers tests/e2e/programs/keras_attention.py prints, recomputed
independently of agc in float32 with NumPy.

The seeded Keras initializers draw with tf.random.stateless_uniform on the seed
[seed, 0]; that is TF's Philox4x32-10 (tf_shuffle.py) keyed as TF's
GenerateKey does (core/kernels/stateless_random_ops.cc: the seed words run
through one Philox round from a fixed key, giving the key and the counter's
upper half), one 32-bit word per float: its low 23 bits as a mantissa in
[1, 2), minus 1, scaled to [minval, maxval) in float32. The Philox setup is
checked against the TF guide's stateless_normal for seed [1, 2] (Box-Muller).
The layers' math is Keras 2.15's written out: MultiHeadAttention's
projections, 1/sqrt(key_dim) on the query, -1e9 added to masked scores,
softmax, the combination and the output projection; LayerNormalization
(epsilon 1e-3); the masked mean; Dense. Run with any Python 3 that has NumPy:
    /usr/bin/python3 tests/e2e/reference/keras_attention.py
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tf_shuffle import M32, philox_4x32_10  # noqa: E402

f32 = np.float32


def key_counter(seed):
    s0, s1 = [int(s) & 0xFFFFFFFFFFFFFFFF for s in seed]
    mix = philox_4x32_10([s0 & M32, s0 >> 32, s1 & M32, s1 >> 32], [0x3EC8F720, 0x02461E29])
    return [mix[0], mix[1]], [0, 0, mix[2], mix[3]]


def words(seed, n):
    key, counter = key_counter(seed)
    out = []
    while len(out) < n:
        out += philox_4x32_10(counter, key)
        c = (counter[0] | counter[1] << 32 | counter[2] << 64 | counter[3] << 96) + 1
        counter = [(c >> s) & M32 for s in (0, 32, 64, 96)]
    return out[:n]


def unit_floats(w):
    return np.array([(x & 0x7FFFFF) | 0x3F800000 for x in w], np.uint32).view(np.float32) - f32(1.0)


def stateless_uniform(shape, seed, minval, maxval):
    n = int(np.prod(shape))
    lo, hi = f32(minval), f32(maxval)
    return (unit_floats(words(seed, n)) * (hi - lo) + lo).astype(f32).reshape(shape)


def check_philox():
    u = unit_floats(words([1, 2], 6))
    normals = []
    for i in range(0, 6, 2):
        r = np.sqrt(f32(-2.0) * np.log(max(u[i], f32(1e-7))))
        a = f32(2 * math.pi) * u[i + 1]
        normals += [np.sin(a) * r, np.cos(a) * r]
    guide = [0.54411, 0.20738, 0.07356, 0.04643, -1.30159, -0.95386]
    assert [round(float(x), 5) for x in normals] == guide, normals


def fans(shape):
    if len(shape) == 1:
        return shape[0], shape[0]
    if len(shape) == 2:
        return shape[0], shape[1]
    receptive = int(np.prod(shape[:-2]))
    return shape[-2] * receptive, shape[-1] * receptive


def glorot_uniform(shape, seed):
    fan_in, fan_out = fans(shape)
    limit = math.sqrt(3.0 / max(1.0, (fan_in + fan_out) / 2.0))
    return stateless_uniform(shape, [seed, 0], -limit, limit)


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return (e / e.sum(axis=-1, keepdims=True)).astype(f32)


def rounded(a, digits=4):
    a = np.asarray(a, f32)
    rows = a.reshape(-1, a.shape[-1])
    for v in rows.flat:
        # A value this close to a rounding boundary could print differently from TF's.
        scaled = float(v) * 10 ** digits
        assert abs(scaled - math.floor(scaled) - 0.5) > 1e-3, v
    return [[round(float(v), digits) for v in row] for row in rows]


check_philox()

# ---- The functional model.
tokens = np.array([[3, 7, 1, 0, 0], [5, 2, 9, 4, 6]])
mask = tokens != 0
emb = stateless_uniform([12, 8], [1, 0], -1.0, 1.0)
w_qkv = glorot_uniform([8, 2, 4], 2)  # the same draw for query, key and value
w_out = glorot_uniform([2, 4, 8], 2)
b_qkv = np.full([2, 4], 0.1, f32)
b_out = np.full([8], 0.1, f32)
w_head = glorot_uniform([8, 3], 3)


def mha(e, attention_mask=None, causal=False):
    q = np.einsum("abc,cde->abde", e, w_qkv).astype(f32) + b_qkv
    k = np.einsum("abc,cde->abde", e, w_qkv).astype(f32) + b_qkv
    v = np.einsum("abc,cde->abde", e, w_qkv).astype(f32) + b_qkv
    q = (q * f32(1.0 / math.sqrt(4.0))).astype(f32)
    scores = np.einsum("aecd,abcd->acbe", k, q).astype(f32)
    m = mask[:, :, None] & mask[:, None, :]
    if causal:
        m = m & np.tril(np.ones([5, 5], bool))[None]
    if attention_mask is not None:
        m = attention_mask & m
    scores = (scores + (f32(1.0) - m[:, None].astype(f32)) * f32(-1e9)).astype(f32)
    probs = softmax(scores)
    out = np.einsum("acbe,aecd->abcd", probs, v).astype(f32)
    return (np.einsum("abcd,cde->abe", out, w_out).astype(f32) + b_out), probs


e = emb[tokens]
attended, scores = mha(e)
h = e + attended
mean = h.mean(axis=-1, keepdims=True, dtype=np.float64)
var = ((h - mean) ** 2).mean(axis=-1, keepdims=True)
normed = ((h - mean) / np.sqrt(var + 1e-3)).astype(f32)
pooled = (normed * mask[:, :, None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
print(rounded(pooled.astype(f32) @ w_head))
print(rounded(scores[0, 0]))
print(rounded(mha(e, causal=True)[1][1, 1]))
only_first_two = np.zeros([2, 5, 5], bool)
only_first_two[:, :, :2] = True
print(rounded(mha(e, attention_mask=only_first_two)[1][1, 0]))

# ---- Attention and AdditiveAttention.
q = np.array([[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]], f32)
v = np.array([[[1.0, 2.0], [3.0, 4.0]]], f32)


def luong(query, value, key=None, value_mask=None, causal=False):
    key = value if key is None else key
    scores = query @ key.transpose(0, 2, 1)
    keep = np.ones(scores.shape, bool)
    if value_mask is not None:
        keep &= value_mask[:, None, :]
    if causal:
        keep &= np.tril(np.ones(scores.shape[-2:], bool))[None]
    weights = softmax(scores - f32(1e9) * (~keep).astype(f32))
    return weights @ value, weights


print(rounded(luong(q, v)[0]))
out, weights = luong(q, v, value_mask=np.array([[True, False]]))
print(rounded(out * np.array([[[1.0], [1.0], [0.0]]], f32)), rounded(weights))
print(rounded(luong(q, q, causal=True)[0]))
k = q[:, :2]
concat_scores = np.tanh(q[:, :, None, :] + k[:, None, :, :]).sum(axis=-1)  # scale and weight both 1
print(rounded(softmax(concat_scores) @ v))
scale = np.array([0.5, -1.0], f32)
print(rounded(softmax((scale * np.tanh(q[:, :, None, :] + v[:, None, :, :])).sum(axis=-1)) @ v))
print(rounded(softmax(np.tanh(q[:, :, None, :] + v[:, None, :, :]).sum(axis=-1)) @ v))
