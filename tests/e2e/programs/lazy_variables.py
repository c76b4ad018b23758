# A tf.Variable created on a tf.function's first call from what is known
# when it is traced (an argument's static shape, constants, ops on them):
# TF lifts the initializer out of the function and runs it once.
# lazy_variables.expected is what TensorFlow prints.
import tensorflow as tf


class Scale(tf.Module):

  def __init__(self):
    super().__init__()
    self.v = None

  @tf.function
  def __call__(self, x):
    if self.v is None:
      self.v = tf.Variable(tf.zeros(x.shape) + 2.0)
    return self.v * x


s = Scale()
print(s(tf.constant([1.0, 2.0, 3.0])))
print(s(tf.constant([4.0, 5.0, 6.0])))
print(s.v)


class Dense(tf.Module):

  def __init__(self, units):
    super().__init__()
    self.units = units
    self.w = None

  @tf.function
  def __call__(self, x):
    if self.w is None:
      self.w = tf.Variable(tf.random.normal([x.shape[-1], self.units]))
    return tf.matmul(x, self.w)


d = Dense(3)
y = d(tf.ones([2, 4]))
print(y.shape, d.w.shape)
print(bool(tf.reduce_all(y == d(tf.ones([2, 4])))))
