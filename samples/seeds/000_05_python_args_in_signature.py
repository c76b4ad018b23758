import tensorflow as tf
# Seed 000 (tf.function guide, Spanish), "Obtener funciones concretas"
# (Obtaining concrete functions): Python arguments stay in a concrete
# function's signature, bound to the value they were traced with.


@tf.function
def pow(a, b):
  return a ** b

square = pow.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
print(square)

assert square(tf.constant(10.0)) == 100

try:
  square(tf.constant(10.0), b=3)
  print('Expected TypeError to be raised but no error was raised!')
except TypeError as e:
  print("Caught expected exception \n  <class 'TypeError'>:")
  print(f'{type(e).__name__}: {e}')
