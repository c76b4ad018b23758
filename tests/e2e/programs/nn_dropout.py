# tf.nn.dropout: the docstring's outputs (global seed 0, op seed 1), the
# rate-0 fast path, noise_shape, a tensor rate, the gradient (the scale where
# kept, 0 where dropped), dropout inside tf.function, and TF's errors.
import tensorflow as tf

tf.random.set_seed(0)
x = tf.ones([3, 5])
print(tf.nn.dropout(x, rate=0.5, seed=1).numpy())
tf.random.set_seed(0)
x = tf.ones([3, 5])
print(tf.nn.dropout(x, rate=0.8, seed=1).numpy())
print(tf.nn.dropout(x, rate=0.0) == x)
tf.random.set_seed(0)
x = tf.ones([3, 10])
print(tf.nn.dropout(x, rate=2 / 3, noise_shape=[1, 10], seed=1).numpy())

# A tensor rate takes the same draws.
tf.random.set_seed(0)
print(tf.nn.dropout(tf.ones([3, 5]), rate=tf.constant(0.5), seed=1).numpy())

# The gradient: the first four draws of (0, 1) keep, drop, drop, keep.
v = tf.constant([1.0, 2.0, 3.0, 4.0])
tf.random.set_seed(0)
with tf.GradientTape() as tape:
    tape.watch(v)
    y = tf.nn.dropout(v, rate=0.5, seed=1)
    loss = tf.reduce_sum(y * y)
print(y.numpy(), tape.gradient(loss, v).numpy())


@tf.function
def f(z):
    return tf.nn.dropout(z, 0.5, seed=1)


tf.random.set_seed(0)
print(f(tf.ones([3, 5])).numpy())

for bad in (1, -0.1, 1.5):
    try:
        tf.nn.dropout(tf.ones([2]), rate=bad)
    except ValueError as e:
        print("ValueError:", e)
try:
    tf.nn.dropout(tf.constant([1, 2]), rate=0.5)
except ValueError as e:
    print("ValueError:", e)
