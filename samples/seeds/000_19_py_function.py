import tensorflow as tf
# Seed 000 (tf.function guide, Spanish), "Efectos secundarios de Python"
# (Python side effects): tf.py_function is the escape hatch that runs Python
# on every call of a Function, not once per trace.

external_list = []

def side_effect(x):
  print('Python side effect')
  external_list.append(x)

@tf.function
def f(x):
  tf.py_function(side_effect, inp=[x], Tout=[])

f(1)
f(1)
f(1)
# The list append happens all three times!
assert len(external_list) == 3
# The list contains tf.constant(1), not 1, because py_function casts everything to tensors.
assert external_list[0].numpy() == 1
