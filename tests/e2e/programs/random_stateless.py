# tf.random.stateless_*: the guide's stateless_normal output for seed [1, 2]
# (to 5 decimals: the guide ran on a GPU, whose float sin/log differ from the
# CPU kernel's in the last place), and checks tying the other stateless ops to the same Philox words: uniform
# floats are a word's low 23 bits, normals Box-Muller of uniform pairs, the
# truncated normal's first group the in-range normals, integers in range.
import math
import tensorflow as tf

def rounded(t):
    return [[round(float(v), 5) for v in row] for row in t.numpy()]


print(rounded(tf.random.stateless_normal(shape=[2, 3], seed=[1, 2])))
print(rounded(tf.random.stateless_normal(shape=[2, 3], seed=[1, 2])))

# Full-range int32 words and the floats made from them.
w = tf.random.stateless_uniform([4], seed=[1, 2], minval=None, maxval=None, dtype=tf.int32).numpy()
u = tf.random.stateless_uniform([4], seed=[1, 2]).numpy()
print([float((int(x) & 0x7fffff) / 2.0 ** 23) == float(y) for x, y in zip(w, u)])

# Box-Muller of the first two uniforms gives the first two normals.
n = tf.random.stateless_normal([4], seed=[1, 2]).numpy()
r = math.sqrt(-2.0 * math.log(max(float(u[0]), 1e-7)))
a = 2.0 * math.pi * float(u[1])
print(abs(r * math.sin(a) - float(n[0])) < 1e-5, abs(r * math.cos(a) - float(n[1])) < 1e-5)

# The truncated normal's first group of 4 is the first 4 normals within 2.
print(rounded(tf.reshape(tf.random.stateless_truncated_normal([4], seed=[1, 2]), [1, 4])))
t = tf.random.stateless_truncated_normal([3, 100], seed=[3, 4], mean=1.0, stddev=0.5)
print(t.shape, bool(tf.reduce_all(tf.abs(t - 1.0) < 1.0)))

x = tf.random.stateless_uniform([1000], seed=[5, 6], minval=-3, maxval=4, dtype=tf.int64)
print(x.dtype, int(tf.reduce_min(x)), int(tf.reduce_max(x)))
y = tf.random.stateless_uniform([2, 2], seed=tf.constant([5, 6], tf.int64), minval=1.0, maxval=2.0, dtype=tf.float64)
print(y.dtype, bool(tf.reduce_all(y >= 1.0)), bool(tf.reduce_all(y < 2.0)))
print(bool(tf.reduce_all(tf.random.stateless_uniform([5], seed=[9, 9]) == tf.random.stateless_uniform([5], seed=[9, 9]))))

s = tf.random.experimental.stateless_split([1, 2], num=3)
print(s.shape, s.dtype)
f = tf.random.experimental.stateless_fold_in([1, 2], 7)
print(f.shape, f.dtype, int(f[1]))

logits = tf.math.log([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
c = tf.random.stateless_categorical(logits, 5, seed=[1, 2])
print(c)
c32 = tf.random.stateless_categorical(tf.zeros([1, 4]), 1000, seed=[7, 8], dtype=tf.int32)
print(c32.shape, c32.dtype, int(tf.reduce_min(c32)), int(tf.reduce_max(c32)))


@tf.function
def traced(seed):
    return tf.random.stateless_normal([2, 3], seed=seed)


print(rounded(traced(tf.constant([1, 2]))))

try:
    tf.random.stateless_uniform([2], seed=[1, 2], dtype=tf.int32)
except ValueError as e:
    print("ValueError:", e)
try:
    tf.random.stateless_uniform([2], seed=[1, 2], dtype=tf.bool)
except ValueError as e:
    print("ValueError:", e)
try:
    tf.random.stateless_categorical([[1.0, 2.0]], 3, seed=[1, 2], dtype=tf.float32)
except ValueError as e:
    print("ValueError:", e)
try:
    tf.random.stateless_normal([2], seed=[1, 2, 3])
except tf.errors.InvalidArgumentError as e:
    print("InvalidArgumentError")
