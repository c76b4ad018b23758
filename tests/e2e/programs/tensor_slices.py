# Slices whose bounds are scalar tensors (TF's _slice_helper stacks them:
# StridedSlice takes tensors for begin, end and strides), in a tf.function
# and eagerly. tensor_slices.expected is what TensorFlow prints.
import tensorflow as tf


@tf.function
def slices(x, i, j):
  y = x[i:j]
  print(y)
  return y, x[:j], x[i:], x[i:j:2], x[i], x[tf.constant(2, tf.int64):]


print(slices(tf.range(10), tf.constant(2), tf.constant(7)))
print(tf.range(10)[tf.constant(3):tf.constant(6)])
try:
  tf.range(10)[tf.constant([1, 2]):]
except TypeError as e:
  print('TypeError:', e)
