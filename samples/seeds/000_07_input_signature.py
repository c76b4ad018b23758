import tensorflow as tf
# Seed 000 (tf.function guide, Spanish), "Controlar el retroceso"
# (Controlling retracing): an input_signature limits tracing, and inputs that
# do not match it are a ValueError.


@tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
def next_collatz(x):
  print("Tracing with", x)
  return tf.where(x % 2 == 0, x // 2, 3 * x + 1)

print(next_collatz(tf.constant([1, 2])))
# We specified a 1-D tensor in the input signature, so this should fail.
try:
  next_collatz(tf.constant([[1, 2], [3, 4]]))
  print('Expected ValueError to be raised but no error was raised!')
except ValueError as e:
  print("Caught expected exception \n  <class 'ValueError'>:")
  print(f'{type(e).__name__}: {e}')

# We specified an int32 dtype in the input signature, so this should fail.
try:
  next_collatz(tf.constant([1.0, 2.0]))
  print('Expected ValueError to be raised but no error was raised!')
except ValueError as e:
  print("Caught expected exception \n  <class 'ValueError'>:")
  print(f'{type(e).__name__}: {e}')
