import tensorflow as tf
# Seed 000 (tf.function guide, Spanish), "Controlar el retroceso"
# (Controlling retracing): a None dimension in a TensorSpec lets one trace
# serve inputs of any length.


@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
def g(x):
  print('Tracing with', x)
  return x

# No retrace!
print(g(tf.constant([1, 2, 3])))
print(g(tf.constant([1, 2, 3, 4, 5])))
