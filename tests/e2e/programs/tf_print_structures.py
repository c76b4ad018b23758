# tf.print of nested structures and plain Python values, as TF's print_v2
# builds its template: a str prints as it is, anything else as
# pprint.pformat of its structure (dicts sorted, long lists one item per
# line) with each tensor's value in its place; one scalar string tensor
# prints unquoted. tf_print_structures.expected is what TensorFlow prints.
import tensorflow as tf


@tf.function
def show(x):
  tf.print([x, (x + 1, 'a')], 5)
  tf.print('plain string')
  tf.print('x is', x, {'k': x, 'a': 1})
  tf.print(1.5, None, [1, 2], ())
  tf.print('braces {} stay', x)
  tf.print({'b': [x], 'a': 'text'})
  tf.print(tf.constant('a string tensor'))
  tf.print([x] * 14)
  return x


show(tf.constant(3))
tf.print({'b': 1, 'a': tf.constant([1, 2])}, sep=' | ')
tf.print('eager', (tf.constant(1.5),))
