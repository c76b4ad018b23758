# A SavedModel whose functions hold string, gather, conv, layout, fill/range,
# concat, where, one_hot and top_k ops: saved with TF's op and argument names,
# loaded back, the loaded functions give what the originals gave. Expected
# output: TensorFlow's.
import os
import tempfile
import tensorflow as tf


class Ops(tf.Module):
  @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
  def words(self, s):
    parts = tf.strings.split(s)
    return parts.values, tf.strings.length(parts.values), parts.row_splits

  @tf.function(input_signature=[tf.TensorSpec([1, 4, 4, 1], tf.float32), tf.TensorSpec([3], tf.int32)])
  def image(self, x, idx):
    kernel = tf.constant([[[[1.0, 0.0]], [[0.5, 1.0]]], [[[-1.0, 2.0]], [[0.0, 1.0]]]])
    y = tf.nn.conv2d(x, kernel, strides=1, padding="VALID")
    y = tf.transpose(y, [0, 3, 1, 2])
    g = tf.gather(y, idx, axis=3)
    values, indices = tf.math.top_k(tf.reshape(g, [-1]), k=3)
    return values, indices

  @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
  def misc(self, v):
    n = tf.shape(v)[0]
    c = tf.concat([tf.range(n), tf.fill([n], 2)], axis=0)
    return c, tf.where(c > 1, c, -c), tf.where(v > 0), tf.one_hot(v, 3)


m = Ops()
text = tf.constant(["hello big world", "a bc"])
x = tf.reshape(tf.range(16, dtype=tf.float32), [1, 4, 4, 1])
idx = tf.constant([2, 0, 1])
v = tf.constant([0, 2, -1, 1])
before = [m.words(text), m.image(x, idx), m.misc(v)]

d = os.path.join(tempfile.mkdtemp(), "ops")
tf.saved_model.save(m, d)
loaded = tf.saved_model.load(d)
after = [loaded.words(text), loaded.image(x, idx), loaded.misc(v)]

for t in after[0]:
  print(t)
for t in after[1]:
  print(t)
for t in after[2]:
  print(t)
for b, a in zip(before, after):
  print(all(bool(tf.reduce_all(p == q)) for p, q in zip(b, a)))
