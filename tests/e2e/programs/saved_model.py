import os
import tempfile
import tensorflow as tf


class Model(tf.Module):
  def __init__(self):
    self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    self.b = tf.Variable([0.5, -0.5], name="bias")

  @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
  def __call__(self, x):
    return tf.matmul(x, self.w) + self.b

  @tf.function
  def scale(self, x, factor):
    if tf.reduce_sum(x) > 0:
      y = x * factor
    else:
      y = -x
    return y


m = Model()
print(m(tf.constant([[1.0, 1.0]])))
print(m.scale(tf.constant([1.0, 2.0]), 2.0))
d = os.path.join(tempfile.mkdtemp(), "model")
tf.saved_model.save(m, d)
print(os.path.exists(os.path.join(d, "saved_model.pb")), sorted(os.listdir(os.path.join(d, "variables"))))
loaded = tf.saved_model.load(d)
print(loaded(tf.constant([[1.0, 1.0]])))
print(loaded.scale(tf.constant([1.0, 2.0]), 2.0))
print(loaded.scale(tf.constant([-1.0, -2.0]), 2.0))
print(list(loaded.signatures.keys()))
print(loaded.signatures["serving_default"](x=tf.constant([[2.0, 0.0]])))
print(loaded.w)
print(loaded.b.name)
try:
  loaded.scale(tf.constant([1.0, 2.0]), 3.0)
except ValueError as e:
  print(e)


# A directory that is not a SavedModel.
try:
  tf.saved_model.load(os.path.join(d, "nope"))
except OSError as e:
  print(type(e).__name__, str(e).replace(d, "D"))
