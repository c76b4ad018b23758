# tf.autograph.trace prints its arguments when the graph is built (it is
# Python's print, as TF's is), so a second call with the same signature
# prints nothing.
import tensorflow as tf


@tf.function
def f(x):
    tf.autograph.trace("tracing f with", x.shape, x.dtype)
    for i in tf.range(3):
        x = x + i
    return x


print(f(tf.constant(1)))
print(f(tf.constant(2)))
print(f(tf.constant([1, 2])))
