import tensorflow as tf
# Seed 000 (tf.function guide, Spanish), "Transformaciones de AutoGraph"
# (AutoGraph transformations): "Si tiene curiosidad, puede inspeccionar el
# código que genera el autógrafo" -- the converted code of the while loop, as
# tf.autograph.to_code returns it at run time. (The guide first runs f on a
# random input, whose printed values cannot be reproduced: 000_15 covers
# that run.)

@tf.function
def f(x):
  while tf.reduce_sum(x) > 1:
    tf.print(x)
    x = tf.tanh(x)
  return x

print(tf.autograph.to_code(f.python_function))
