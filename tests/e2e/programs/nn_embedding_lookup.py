# tf.nn.embedding_lookup: a gather of rows of one table (a tensor or a
# variable, with gradients), a list of shards split with the "div" strategy
# (the docstring's 5x2 example, and 13 ids over 5 shards), max_norm
# clipping each row's l2 norm, and TF's errors. Expected: TensorFlow's,
# from the docstring's example and its documented semantics.
import tensorflow as tf

params = tf.constant([[1, 2], [3, 4], [5, 6], [7, 8], [9, 10]])
print(tf.nn.embedding_lookup(params, [0, 3, 4]))
shards = [tf.constant([[1, 2], [3, 4]]), tf.constant([[5, 6], [7, 8]]), tf.constant([[9, 10]])]
print(tf.nn.embedding_lookup(shards, [0, 3, 4]))
print(tf.nn.embedding_lookup(params, [[4, 0], [1, 1]]).shape)

# 13 ids over 5 shards: [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10], [11, 12]]
rows = [tf.reshape(tf.range(a, b), [-1, 1]) for a, b in [(0, 3), (3, 6), (6, 9), (9, 11), (11, 13)]]
print(tf.reshape(tf.nn.embedding_lookup(rows, tf.range(13)), [-1]))
print(tf.reshape(tf.nn.embedding_lookup(rows, tf.constant([12, 2, 9, 5], tf.int64)), [-1]))

table = tf.Variable([[3.0, 4.0], [0.3, 0.4], [0.0, 0.0]])
print(tf.nn.embedding_lookup(table, [0, 1, 2], max_norm=1.0))
with tf.GradientTape() as tape:
  loss = tf.reduce_sum(tf.nn.embedding_lookup(table, [1, 1, 0]) * [[1.0, 2.0]])
print(tf.convert_to_tensor(tape.gradient(loss, table)))


@tf.function
def lookup(ids):
  return tf.nn.embedding_lookup(table, ids)


print(lookup(tf.constant([2, 0])))

try:
  tf.nn.embedding_lookup([], [0])
except ValueError as e:
  print("ValueError:", e)
try:
  tf.nn.embedding_lookup(None, [0])
except ValueError as e:
  print("ValueError:", e)
