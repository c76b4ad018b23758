# A Python list mixing ints and scalar tensors converts to one tensor by
# packing them (tf.convert_to_tensor's auto-packing), wherever a tensor is
# taken: tf.zeros/ones/fill/reshape shapes, eagerly and while tracing, where
# the static shape keeps the dims known then. auto_packing.expected is what
# TensorFlow prints.
import tensorflow as tf

n = tf.constant(3)
print(tf.zeros([1, n, 2]).shape)
print(tf.ones((n, 2), dtype=tf.int32))
print(tf.reshape(tf.range(6), [n, -1]))
print(tf.fill([2, n], 7))
print(tf.convert_to_tensor([n, 4]))
print(tf.convert_to_tensor([[n, 1], [2, n]]))
print(tf.convert_to_tensor([n, 1.5], dtype=tf.float32))
try:
  tf.convert_to_tensor([n, tf.constant(1.5), 2])
except TypeError as e:
  print('TypeError:', e)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def unknown_length(x):
  n = tf.shape(x)[0]
  z = tf.zeros([1, n, 2])
  print(z)
  o = tf.ones([n, 2], dtype=tf.int32)
  print(o)
  r = tf.reshape(x, [n, 1])
  print(r)
  return tf.reduce_sum(z) + tf.cast(tf.reduce_sum(o), tf.float32) + tf.reduce_sum(r)


print(unknown_length(tf.constant([1.0, 2.0, 3.0])))


@tf.function
def known_length(x):
  n = tf.shape(x)[0]
  z = tf.zeros([n, 2])
  print(z)
  return z


print(known_length(tf.constant([1.0, 2.0])))
