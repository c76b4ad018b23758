# A model a C++ app embeds: agc emit-cpp turns this file into model.h and
# model.cpp (see meson.build), and main.cpp calls its functions with tensors
# of its own.
import tensorflow as tf


@tf.function
def dense_relu(x, w, b):
  return tf.nn.relu(tf.matmul(x, w) + b)


@tf.function
def collatz_steps(n):
  steps = tf.constant(0)
  while n > 1:
    if n % 2 == 0:
      n = n // 2
    else:
      n = 3 * n + 1
    steps += 1
  return steps
