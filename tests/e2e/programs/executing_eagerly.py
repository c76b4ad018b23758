# tf.executing_eagerly: false while a tf.function traces, true otherwise
# (run_functions_eagerly(True) included); tf.config.functions_run_eagerly.
# Expected output: TensorFlow 2's.
import tensorflow as tf

print(tf.executing_eagerly())


@tf.function
def f(x):
  print("tracing:", tf.executing_eagerly())
  return x + 1


f(tf.constant(1))
f(tf.constant(2))
print(tf.config.functions_run_eagerly())
tf.config.run_functions_eagerly(True)
print(tf.config.functions_run_eagerly())
f(tf.constant(3))
tf.config.run_functions_eagerly(False)
print(tf.executing_eagerly())
