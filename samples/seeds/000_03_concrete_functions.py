import tensorflow as tf
# Seed 000 (tf.function guide, Spanish), "Obtener funciones concretas"
# (Obtaining concrete functions): get_concrete_function, calling a
# ConcreteFunction, printing it, its structured signature and outputs, and the
# error for an input of another dtype. In the guide `double` had been traced
# for strings by the cells before; the first call here does that.


@tf.function
def double(a):
  print("Tracing with", a)
  return a + a

print(double(tf.constant("a")))

print("Obtaining concrete trace")
double_strings = double.get_concrete_function(tf.constant("a"))
print("Executing traced function")
print(double_strings(tf.constant("a")))
print(double_strings(a=tf.constant("b")))

print(double_strings)

print(double_strings.structured_input_signature)
print(double_strings.structured_outputs)

try:
  double_strings(tf.constant(1))
  print('Expected InvalidArgumentError to be raised but no error was raised!')
except tf.errors.InvalidArgumentError as e:
  print("Caught expected exception \n  <class 'tensorflow.python.framework.errors_impl.InvalidArgumentError'>:")
  # TF numbers the functions it traces in a process (__inference_double_168
  # in the guide's notebook); the number is no part of the behaviour.
  msg = str(e)
  uid = msg.split('__inference_double_')[1].split(' ')[0]
  msg = msg.replace('__inference_double_' + uid, '__inference_double_N')
  print(f'{type(e).__name__}: {msg}')
