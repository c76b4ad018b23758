import tensorflow as tf
# Seed 000 (tf.function guide, Spanish), "Efectos secundarios de Python"
# (Python side effects): Python print runs only while tracing, tf.print on
# every call.


@tf.function
def f(x):
  print("Traced with", x)
  tf.print("Executed with", x)

f(1)
f(1)
f(2)
