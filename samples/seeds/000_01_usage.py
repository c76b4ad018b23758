import tensorflow as tf
# Seed 000 (tf.function guide, Spanish), "Lo esencial" > "Uso" (Basics > Usage):
# a Function runs like a TensorFlow op, and Functions can call Functions.
# The notebook displays each cell's last value; the sample prints its repr().


@tf.function
def add(a, b):
  return a + b

print(repr(add(tf.ones([2, 2]), tf.ones([2, 2]))))  #  [[2., 2.], [2., 2.]]


@tf.function
def dense_layer(x, w, b):
  return add(tf.matmul(x, w), b)

print(repr(dense_layer(tf.ones([3, 2]), tf.ones([2, 2]), tf.ones([2]))))
