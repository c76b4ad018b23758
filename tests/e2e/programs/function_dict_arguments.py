# A dict argument's trace does not depend on its key order: TF's trace type
# compares mappings, and nest flattens a dict in sorted key order.
import tensorflow as tf


@tf.function
def f(d):
  print("Tracing", list(d.keys()))
  return d['a'] * 2 + d['b']


print(f({'a': tf.constant(1.0), 'b': tf.constant(2.0)}))
print(f({'b': tf.constant(3.0), 'a': tf.constant(4.0)}))
print(f({'a': 1, 'b': 2}))
print(f({'b': 2, 'a': 1}))
print(f({'b': 2, 'a': 5}))
print(f.experimental_get_tracing_count())

# The signature names each spec after its path in the argument.
cf = f.get_concrete_function({'y': tf.TensorSpec([None], tf.float32), 'b': tf.TensorSpec([], tf.float32),
                              'a': [tf.TensorSpec([2], tf.int32)]})
print(cf.structured_input_signature)


@tf.function
def g(d):
  return d['a'] + d['b']


cf = g.get_concrete_function({'b': tf.TensorSpec([], tf.float32), 'a': tf.TensorSpec([], tf.float32)})
print(cf({'a': tf.constant(1.0), 'b': tf.constant(5.0)}))
print(cf({'b': tf.constant(5.0), 'a': tf.constant(1.0)}))

try:
  f({1: tf.constant(1.0), 'a': tf.constant(2.0)})
except TypeError as e:
  print("TypeError:", e)
