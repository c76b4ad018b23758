import tensorflow as tf
# Seed 000 (tf.function guide, Spanish), "Variables": a concrete function
# keeps only a weak reference to the variables it closes over, so calling it
# after the last reference is gone is a FailedPreconditionError. TF's message
# names its runtime's internals (root errors, resource container and op
# names), so the sample prints the error's type only (see README.md).


external_var = tf.Variable(3)
@tf.function
def f(x):
  return x * external_var

traced_f = f.get_concrete_function(4)
print("Calling concrete function...")
print(traced_f(4))

del external_var
print()
print("Calling concrete function after garbage collecting its closed Variable...")
try:
  traced_f(4)
  print('Expected FailedPreconditionError to be raised but no error was raised!')
except tf.errors.FailedPreconditionError as e:
  print("Caught expected exception \n  <class 'tensorflow.python.framework.errors_impl.FailedPreconditionError'>:")
  print(type(e).__name__)
