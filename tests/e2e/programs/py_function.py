# tf.py_function: eager and traced (the function runs on every call of the
# graph), one dtype or a list of them, outputs of unknown shape, a result
# count that does not match Tout. Expected: TF 2.x's output.
import tensorflow as tf
# (The guide's side-effect example is seed sample 000_19.)

def np_double(x):
  return x.numpy() * 2

@tf.function
def g(x):
  y = tf.py_function(np_double, [x], tf.float32)
  print(y.shape)
  return y + 1
print(g(tf.constant([1.0, 2.0])))
print(g(tf.constant([3.0, 4.0])))
print(tf.py_function(lambda a, b: (a + b, a * b), [2, 3], [tf.int32, tf.int32]))

@tf.function
def h(x):
  a, b = tf.py_function(lambda v: (v, v * 2.0), [x], (tf.float32, tf.float32))
  return a + b
print(h(tf.constant(1.5)))

@tf.function
def bad(x):
  return tf.py_function(lambda v: (v, v), [x], [tf.float32])
try:
  bad(tf.constant(1.0))
except tf.errors.InvalidArgumentError as e:
  print("InvalidArgumentError")
