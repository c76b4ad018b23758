# Iterating a tf.data.Dataset inside a tf.function (issue 14): AutoGraph makes
# `for x in ds` a dataset loop, traced once (a Python print in the body runs
# once) and run over every element on each call; break stops it early,
# tf.print runs per element, and each call makes a new iterator (a shuffle
# reshuffles). Expected output: TensorFlow 2.11-2.13's; the shuffled
# orders come from tests/e2e/reference/tf_shuffle.py (TF's algorithm).
import tensorflow as tf

ds = tf.data.Dataset.range(5)


@tf.function
def total():
    s = tf.constant(0, tf.int64)
    for x in ds:
        print('tracing the loop body')
        s += x
    return s


print(total())
print(total())


@tf.function
def show():
    for x in ds.batch(2):
        tf.print(x)


show()


@tf.function
def first_over(limit):
    found = tf.constant(-1, tf.int64)
    for x in ds:
        if x > limit:
            found = x
            break
    return found


print(first_over(tf.constant(2, tf.int64)))
print(first_over(tf.constant(7, tf.int64)))

pairs = tf.data.Dataset.from_tensor_slices(([1, 2, 3], [0.5, 1.5, 2.5]))


@tf.function
def weighted():
    acc = 0.0
    for n, w in pairs:
        acc += tf.cast(n, tf.float32) * w
    return acc


print(weighted())

shuffled = tf.data.Dataset.range(5).shuffle(5, seed=11)


@tf.function
def order():
    out = tf.TensorArray(tf.int64, size=5)
    i = 0
    for x in shuffled:
        out = out.write(i, x)
        i += 1
    return out.stack()


print(order())
print(order())
print(list(shuffled.as_numpy_iterator()))
