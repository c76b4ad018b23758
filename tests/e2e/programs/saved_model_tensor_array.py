# A tf.function accumulating rows in a TensorArray (TensorListReserve,
# SetItem, Stack inside a While) and one unstacking, reading and concatenating
# one (FromTensor, GetItem, ConcatV2): saved with TF's TensorList op forms,
# the element shapes as constant inputs, loaded back and run.
import os
import tempfile

import tensorflow as tf


class Accumulate(tf.Module):
  @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
  def cumulative(self, x):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
    total = tf.zeros([3])
    for i in tf.range(tf.shape(x)[0]):
      total += x[i]
      ta = ta.write(i, total)
    return ta.stack()

  @tf.function(input_signature=[tf.TensorSpec([4, 2], tf.float32)])
  def pieces(self, x):
    ta = tf.TensorArray(tf.float32, size=4).unstack(x)
    return ta.read(2), ta.concat()


m = Accumulate()
x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [1.0, 1.0, 1.0]])
print(m.cumulative(x))
d = os.path.join(tempfile.mkdtemp(), "tensor_array")
tf.saved_model.save(m, d)
loaded = tf.saved_model.load(d)
print(loaded.cumulative(x))
print(loaded.cumulative(tf.constant([[2.0, 0.0, -1.0]])))
row, flat = loaded.pieces(tf.reshape(tf.range(8, dtype=tf.float32), [4, 2]))
print(row)
print(flat)
