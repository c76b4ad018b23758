# tf.random.gamma / poisson and stateless_gamma / stateless_poisson: the
# sample lines are TF's numbers as tests/e2e/reference/tf_gamma_poisson.py
# computes them from TF's kernels (Philox, 256 blocks reserved per output,
# Marsaglia-Tsang in double, Knuth below rate 10 and Hormann's PTRS above);
# then shapes, dtypes, broadcasting, the gradient in alpha and TF's errors.
import tensorflow as tf


def flat(t):
    return tf.reshape(t, [-1]).numpy().tolist()


tf.random.set_seed(1234)
g = tf.random.gamma([3], [0.5, 1.0, 2.5], seed=7)
print(g.shape, g.dtype)
print(flat(g))
print(flat(tf.random.gamma([3], [0.5, 1.0, 2.5], seed=7)))  # the kernel's stream moves on

d = tf.random.gamma([2, 2], 3.0, beta=[1.0, 2.0], dtype=tf.float64, seed=11)
print(d.shape, d.dtype)
print(flat(d))

p = tf.random.poisson([4], [0.5, 3.0, 12.2, 150.0], seed=5)
print(p.shape, p.dtype)
print(flat(p))
print(tf.random.poisson([5], 7.5, dtype=tf.int32, seed=3))
q = tf.random.poisson([2], [[30.0], [2.0]], dtype=tf.int64, seed=9)
print(q.shape, q.dtype, flat(q))

tf.random.set_seed(None)
print(flat(tf.random.gamma([4], 4.0, seed=21)))  # (87654321, 21) without a global seed
tf.random.set_seed(1234)

s = tf.random.stateless_gamma([4, 2], seed=[12, 34], alpha=[0.5, 1.5])
print(s.shape, s.dtype)
print(flat(s))
sp = tf.random.stateless_poisson([3, 2], seed=[12, 34], lam=[5.0, 15.0])
print(sp.shape, sp.dtype, flat(sp))
print(bool(tf.reduce_all(tf.random.stateless_poisson([3, 2], seed=[12, 34], lam=[5.0, 15.0]) == sp)))
sb = tf.random.stateless_gamma([30, 3, 2], seed=[12, 34], alpha=tf.constant([[1.0], [3.0], [5.0]]),
                               beta=tf.constant([[3.0, 4.0]]))
print(sb.shape)


@tf.function
def traced():
    return tf.random.gamma([3], [0.5, 1.0, 2.5], seed=7)


print(flat(traced()))  # a new kernel: the first call's numbers

alpha = tf.constant([2.0, 0.7])
with tf.GradientTape() as tape:
    tape.watch(alpha)
    loss = tf.reduce_sum(tf.random.gamma([6], alpha, seed=13))
print([round(v, 3) for v in tape.gradient(loss, alpha).numpy().tolist()])

# stateless_gamma's docstring: unbiased stochastic derivatives in alpha and beta.
alpha = tf.constant([[1.], [3.], [5.]])
beta = tf.constant([[3., 4.]])
with tf.GradientTape() as tape:
    tape.watch([alpha, beta])
    loss = tf.reduce_mean(tf.square(tf.random.stateless_gamma([30, 3, 2], seed=[12, 34], alpha=alpha, beta=beta)))
dloss_dalpha, dloss_dbeta = tape.gradient(loss, [alpha, beta])
print(alpha.shape == dloss_dalpha.shape, beta.shape == dloss_dbeta.shape)

big = tf.random.gamma([20000], [0.3, 1.0, 7.0], seed=1)
print([round(v, 1) for v in tf.reduce_mean(big, axis=0).numpy().tolist()])
pb = tf.random.poisson([20000], [2.0, 40.0], seed=2)
print([round(v, 1) for v in tf.reduce_mean(pb, axis=0).numpy().tolist()])
print(tf.random.gamma([0], [1.0, 2.0]).shape, tf.random.poisson([3], []).shape)

try:
    tf.random.gamma([2], [1.0, 2.0], beta=[1.0, 2.0, 3.0])
except tf.errors.InvalidArgumentError as e:
    print("InvalidArgumentError")
try:
    tf.random.gamma([2], 2, dtype=tf.int32)
except ValueError as e:
    print("ValueError:", e)
try:
    tf.random.poisson([-1], [1.0])
except tf.errors.InvalidArgumentError as e:
    print("InvalidArgumentError")
try:
    tf.random.stateless_poisson([3, 2], seed=[1, 2], lam=[1.0, 2.0, 3.0])
except tf.errors.InvalidArgumentError as e:
    print("InvalidArgumentError")
try:
    tf.random.stateless_gamma([2], seed=[1, 2, 3], alpha=1.0)
except tf.errors.InvalidArgumentError as e:
    print("InvalidArgumentError")
try:
    tf.random.poisson([2])
except TypeError as e:
    print("TypeError:", e)
