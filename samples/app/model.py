# A model a C++ app embeds: agc emit-cpp --lib turns this file into model.h
# and model.cpp (see meson.build), and main.cpp calls its functions, and the
# tf.function method of its module-level object, with data of its own.
import tensorflow as tf


class Classifier(tf.Module):
  """A linear classifier of 2 features into 3 classes."""

  def __init__(self):
    super().__init__()
    self.w = tf.Variable([[1.0, 0.0, -1.0], [0.5, 1.0, 2.0]])
    self.b = tf.Variable([0.0, 1.0, 1.0])

  @tf.function(input_signature=[tf.TensorSpec(shape=[None, 2], dtype=tf.float32)])
  def predict(self, x):
    return tf.nn.softmax(tf.matmul(x, self.w) + self.b)


classifier = Classifier()


@tf.function
def dense_relu(x, w, b):
  return tf.nn.relu(tf.matmul(x, w) + b)


@tf.function(input_signature=[tf.TensorSpec(shape=[], dtype=tf.int32)])
def collatz_steps(n):
  steps = tf.constant(0)
  while n > 1:
    if n % 2 == 0:
      n = n // 2
    else:
      n = 3 * n + 1
    steps += 1
  return steps


if __name__ == "__main__":
  # `agc run samples/app/model.py` runs this; the app, which imports the
  # module as a library, does not.
  print(classifier.predict(tf.constant([[1.0, -2.0]])))
  print(collatz_steps(27))
