# A shape rule that fails while a tf.function is traced is TensorFlow's
# trace-time ValueError, worded as its shape inference words it: the shape
# function's message, the node as its NodeDef reads, the input shapes and
# the input values it read (a static out-of-range index x[5]).
# Eagerly the kernel's check fails instead (InvalidArgumentError).
# shape_errors.expected is what TensorFlow prints.
import tensorflow as tf


def last_line(e):
  # TF wraps an error raised while tracing as "in user code:" and the frames
  # that raised it (TF's own files among them); its last line is the error.
  msg = str(e)
  if msg.startswith('in user code:'):
    return msg.strip().split('\n')[-1].strip()
  return f'{type(e).__name__}: {msg}'


@tf.function
def product(x, y):
  return tf.matmul(x, y)


for a, b in [([4, 3], [4, 2]), ([4], [4, 2])]:
  try:
    product(tf.ones(a), tf.ones(b))
  except ValueError as e:
    print(last_line(e))


@tf.function(input_signature=[tf.TensorSpec([None, 3]), tf.TensorSpec([4, 2])])
def partly_known(x, y):
  with tf.name_scope('block'):
    return tf.matmul(x, y)


try:
  partly_known(tf.ones([2, 3]), tf.ones([4, 2]))
except ValueError as e:
  print(last_line(e))


@tf.function
def sixth(x):
  return x[5]


try:
  sixth(tf.constant([1, 2, 3]))
except ValueError as e:
  print(last_line(e))
try:
  tf.constant([1, 2, 3])[5]
except tf.errors.InvalidArgumentError:
  print('eagerly: InvalidArgumentError')


@tf.function
def add(x, y):
  return x + y


try:
  add(tf.ones([2, 3]), tf.ones([2, 4]))
except ValueError as e:
  print(last_line(e))

print(add(tf.ones([2, 3]), tf.ones([1, 3])))

try:
  tf.matmul(tf.ones([4, 3]), tf.ones([4, 2]))
except tf.errors.InvalidArgumentError:
  print('eagerly: InvalidArgumentError')
