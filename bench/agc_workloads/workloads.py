# The runtime issue's benchmark workloads written as TF2 Python. bench/meson.build
# converts this file with `agc emit-cpp --lib` at build time, and
# bench/agc_workloads/agc_workloads_bench.cpp times each function through the generated
# header against the same workload written directly against the C++ API.
import tensorflow as tf


@tf.function
def fizzbuzz():
  fizz = tf.constant(0)
  buzz = tf.constant(0)
  fizzbuzz = tf.constant(0)
  other = tf.constant(0)
  for i in tf.range(1, 100001):
    if i % 15 == 0:
      fizzbuzz += 1
    elif i % 3 == 0:
      fizz += 1
    elif i % 5 == 0:
      buzz += 1
    else:
      other += 1
  return fizz, buzz, fizzbuzz, other


@tf.function
def tanh_loop(x, limit):
  while tf.reduce_sum(x) > limit:
    x = tf.tanh(x)
  return x


@tf.function
def dynamic_rnn(x, w, u, b):
  h = tf.zeros([32, 256])
  out = tf.TensorArray(tf.float32, size=tf.shape(x)[0])
  for t in tf.range(tf.shape(x)[0]):
    h = tf.tanh(x[t] @ w + h @ u + b)
    out = out.write(t, h)
  return out.stack()


@tf.function
def matmul(a, b):
  return tf.matmul(a, b)


# For information: the per-call cost of a cache hit (bench_function_call's add).
@tf.function
def add(x, y):
  return x + y


def functions():
  """The tf.function objects above, for the harness to compare their traced graphs."""
  return [fizzbuzz, tanh_loop, dynamic_rnn, matmul, add]
