# tf.random.truncated_normal, categorical and shuffle. truncated_normal's
# first group of 4 draws Box-Muller pairs from the same Philox words as
# tf.random.normal, so with tf.random.normal's docstring seeds (global 5,
# op 1) it gives the docstring's values (all four lie within 2).
import tensorflow as tf

tf.random.set_seed(5)
print(tf.random.normal([2, 2], 0, 1, tf.float32, seed=1))
tf.random.set_seed(5)
print(tf.random.truncated_normal([2, 2], seed=1))
tf.random.set_seed(5)
print(tf.random.truncated_normal([2, 2], mean=10.0, stddev=2.0, seed=1))

t = tf.random.truncated_normal([50, 20], seed=3, dtype=tf.float64)
print(t.dtype, bool(tf.reduce_all(tf.abs(t) < 2.0)))

tf.random.set_seed(1)
a = tf.random.shuffle(tf.range(10), seed=4)
tf.random.set_seed(1)
b = tf.random.shuffle(tf.range(10), seed=4)
print(bool(tf.reduce_all(a == b)), sorted(a.numpy().tolist()))
m = tf.reshape(tf.range(12), [4, 3])
sm = tf.random.shuffle(m, seed=2)
print(sm.shape, sorted(tf.reduce_sum(sm, axis=1).numpy().tolist()), bool(tf.reduce_all(sm[:, 1] - sm[:, 0] == 1)))
print(tf.random.shuffle(tf.constant([7])))

logits = tf.math.log([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
print(tf.random.categorical(logits, 4, seed=3))
c = tf.random.categorical(tf.zeros([2, 5]), 300, dtype=tf.int32, seed=1)
print(c.shape, c.dtype, int(tf.reduce_min(c)), int(tf.reduce_max(c)))


@tf.function
def draw():
    return tf.random.categorical([[0.0, -1e9]], 3, seed=8), tf.random.truncated_normal([3], seed=8)


d, tn = draw()
print(d, tn.shape)

try:
    tf.random.categorical([[1.0, 2.0]], 2, dtype=tf.float32)
except ValueError as e:
    print("ValueError:", e)
try:
    tf.random.categorical([1.0, 2.0], 2)
except tf.errors.InvalidArgumentError as e:
    print("InvalidArgumentError")
