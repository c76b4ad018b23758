# agc graph's e2e sample (tests/e2e/graph_test.sh): a tf.function with an
# `if` over a tensor and a `while` loop, and one that calls another.
import tensorflow as tf

print('module code runs first')


@tf.function
def step(x, n):
    if tf.reduce_sum(x) > 0:
        y = x * 2.0
    else:
        y = -x
    i = tf.constant(0)
    while i < n:
        y = y + 1.0
        i += 1
    return y


@tf.function
def scale(v):
    return v * 3.0


@tf.function
def outer(x):
    print('tracing outer')
    return scale(x) + 1.0


def plain(a, b):
    return tf.matmul(a, b)


count = 3
