import tensorflow as tf
# Seed 000 (tf.function guide, Spanish), "Controlar el retroceso"
# (Controlling retracing): separate Function objects never share traces.


def f():
  print('Tracing!')
  tf.print('Executing')

tf.function(f)()
tf.function(f)()
