# A tf.function called while another is traced is traced once per signature
# (its Python side effects happen once) and called from the caller's graph:
# a PartitionedCall node, StatefulPartitionedCall when the function holds a
# stateful op. Gradients flow through the call, in a trace and eagerly.
# nested_functions.expected is what TensorFlow prints.
import tensorflow as tf


@tf.function
def inner(x):
  print('tracing inner', x)
  return x * 2.0


@tf.function
def outer(x):
  y = inner(x)
  print(y)
  z = inner(y)
  print(z)
  return z + inner(tf.constant([1.0, 2.0]))


print(outer(tf.constant(3.0)))
print(outer(tf.constant(4.0)))
print(inner.experimental_get_tracing_count())

v = tf.Variable(1.0)


@tf.function
def bump(x):
  v.assign_add(x)
  return v.read_value()


@tf.function
def bump_twice(x):
  a = bump(x)
  print(a)
  return bump(a)


print(bump_twice(tf.constant(2.0)))
print(v)


@tf.function
def square(x):
  return x * x


@tf.function
def slope_of_square(x):
  with tf.GradientTape() as tape:
    tape.watch(x)
    y = square(x)
  return tape.gradient(y, x)


print(slope_of_square(tf.constant(3.0)))

w = tf.Variable(2.0)


@tf.function
def model(x):
  return square(x * w)


with tf.GradientTape() as tape:
  loss = model(tf.constant(3.0))
print(loss)
print(tape.gradient(loss, w))
