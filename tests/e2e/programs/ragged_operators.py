# A RaggedTensor's arithmetic operators (TF's ragged elementwise dispatch:
# the op on the flat values, the row splits kept), eagerly and on a
# RaggedTensor argument of a tf.function; mismatched row splits are TF's
# InvalidArgumentError.
import tensorflow as tf

rt = tf.ragged.constant([[1, 2], [3]])
print(rt + 1)
print(2 * rt)
print(rt * rt)
print(rt - 10)
print(10 - rt)
print(-rt)
print(rt / 2)
print(rt // 2, rt % 2, rt ** 2)
print(tf.ragged.constant([[1.5], [2.0, 3.0]]) * 2.0)
print((tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1) * 2).to_list())


@tf.function
def f(x):
    return x * 2 + x


print(f(rt))
print(f(tf.ragged.constant([[1.0], [], [2.0, 3.0, 4.0]])))

try:
    rt + tf.ragged.constant([[1], [2, 3]])
except tf.errors.InvalidArgumentError as e:
    print("InvalidArgumentError:", str(e).split("\n")[0])

print(rt * tf.constant(3), tf.constant(3) * rt)
w = tf.Variable(2.0)


@tf.function
def weighted(x):
    return tf.reduce_sum((x * w).values)


with tf.GradientTape() as tape:
    y = weighted(tf.ragged.constant([[1.0, 2.0], [3.0]]))
print(y, tape.gradient(y, w))
