# bench/borrowed_inputs/borrowed_inputs_bench.cpp calls these through the
# header `agc emit-cpp --lib` writes: with the app's buffer borrowed (the
# typed overload) and with a tensor copied from it first (what an app did
# before typed overloads), for inputs from one MNIST image to 64 MB.
import tensorflow as tf


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def total(x):
    return tf.reduce_sum(x)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def scale(x):
    return x * 2.0
