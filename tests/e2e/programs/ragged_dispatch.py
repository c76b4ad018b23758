# TF's ragged dispatch: reductions by row and column (an empty row reduces to
# the op's identity), concat along rows and in rows, unary ops and cast on the
# flat values, rt[i, j] and rt[:, j] / rt[:, a:b] indexing, bounding_shape.
import tensorflow as tf
rt = tf.ragged.constant([[1, 2, 3], [], [4, 5]])
print(rt[0, 1], rt[2, -1])
print(rt.bounding_shape())
print(rt.value_rowids())
print(tf.reduce_sum(rt, axis=1))
print(tf.reduce_sum(rt, axis=0))
print(tf.reduce_mean(tf.cast(rt, tf.float32), axis=1))
print(tf.reduce_max(rt, axis=1))
print(tf.reduce_sum(rt))
print(tf.concat([rt, rt], axis=0))
print(tf.concat([rt, rt * 10], axis=1))
print(rt[:, 1:])
print(rt[1:, :1])
print(tf.abs(-rt))
print(rt.with_values(rt.values * 2))
try:
    print(rt[:, 0])
except tf.errors.InvalidArgumentError as e:
    print("InvalidArgumentError:", e)
r2 = tf.ragged.constant([[1, 2], [3]])
print(r2[:, 0])
@tf.function
def f(x):
    return tf.reduce_sum(x, axis=1), x[:, 0]
print(f(r2))
print(rt.merge_dims(0, 1))
for row in tf.data.Dataset.from_tensor_slices(rt):
    print(row)
