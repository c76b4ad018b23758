# Loop variables of staged loops are nested structures (tf.nest): dicts,
# tuples and lists of tensors, also created only inside the loop; a
# structure that changes between iterations is AutoGraph's TypeError with
# tf.nest's description. loop_structures.expected is what TensorFlow prints.
import tensorflow as tf


@tf.function
def dict_state(n):
  state = {'a': tf.constant(0), 'b': tf.constant(1.0)}
  for i in tf.range(n):
    state = {'a': state['a'] + i, 'b': state['b'] * 2.0}
  return state


print(dict_state(tf.constant(4)))


@tf.function
def nested_state(n):
  s = (tf.constant(0), [tf.constant(1), {'z': tf.constant(2.0)}])
  i = tf.constant(0)
  while i < n:
    s = (s[0] + 1, [s[1][0] * 2, {'z': s[1][1]['z'] + 0.5}])
    i += 1
  return s


print(nested_state(tf.constant(3)))


@tf.function
def created_in_loop(n):
  for i in tf.range(n):
    d = {'sq': i * i, 'i': i}
  return d


print(created_in_loop(tf.constant(5)))


@tf.function
def changes_keys(n):
  d = {'a': tf.constant(0)}
  for i in tf.range(n):
    d = {'a': d['a'] + i, 'b': i}
  return d


try:
  changes_keys(tf.constant(3))
except TypeError as e:
  # TF wraps the error as "in user code:" and indents its lines; the lines
  # naming tensors ("First structure: ...") are left out.
  for line in str(e).split('\n'):
    line = line.strip()
    if line.startswith('TypeError: '):
      line = line[len('TypeError: '):]
    if line.startswith(("'d'", 'More specifically', 'Entire', '{')):
      print(line)
