# len() of tensors. Inside a tf.function AutoGraph's len_ answers: the static
# length when dim 0 is known (a Python int), tf.shape(x)[0] when it is not,
# a trace-time ValueError for a scalar, and for an unknown rank a tf.cond
# that fails at run time on a scalar; a TensorArray's len is its size().
# Outside a function it is Python's len. tensor_len.expected is what
# TensorFlow prints.
import tensorflow as tf


def last_line(e):
  # TF wraps an error raised while tracing as "in user code:" and the frames
  # that raised it (TF's own files among them); its last line is the error.
  msg = str(e)
  if msg.startswith('in user code:'):
    return msg.strip().split('\n')[-1].strip()
  return f'{type(e).__name__}: {msg}'


@tf.function
def static_len(x):
  n = len(x)
  print(n)
  return x * n


print(static_len(tf.constant([1, 2, 3])))


@tf.function(input_signature=[tf.TensorSpec([None, 2], tf.int32)])
def dynamic_len(x):
  n = len(x)
  print(n)
  return n


print(dynamic_len(tf.constant([[1, 2], [3, 4], [5, 6]])))


@tf.function
def scalar_len(x):
  return len(x)


try:
  scalar_len(tf.constant(1))
except ValueError as e:
  print(last_line(e))


@tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
def unknown_rank_len(x):
  return len(x)


print(unknown_rank_len(tf.constant([1.0, 2.0, 3.0, 4.0])))
try:
  unknown_rank_len(tf.constant(1.0))
except tf.errors.InvalidArgumentError:
  print('InvalidArgumentError for a scalar of unknown rank')


@tf.function
def array_len():
  ta = tf.TensorArray(tf.float32, size=4)
  return len(ta)


print(array_len())

print(len(tf.constant([[1, 2], [3, 4]])))
try:
  len(tf.constant(1))
except TypeError as e:
  print('TypeError:', e)
