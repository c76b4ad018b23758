# tf.nn.conv3d over an NDHWC volume (SAME with a stride, VALID), and its
# gradients with respect to the input and the filter.
import tensorflow as tf

x = tf.reshape(tf.range(2 * 3 * 4 * 4 * 2, dtype=tf.float32) % 7 - 3, [2, 3, 4, 4, 2])
k = tf.reshape(tf.range(2 * 2 * 2 * 2 * 3, dtype=tf.float32) % 5 - 2, [2, 2, 2, 2, 3])

y = tf.nn.conv3d(x, k, strides=[1, 1, 2, 2, 1], padding="SAME")
print(y.shape)
print(tf.reshape(y[0, :, :, :, 1], [-1]).numpy())
v = tf.nn.conv3d(x, k, strides=[1, 1, 1, 1, 1], padding="VALID")
print(v.shape, tf.reduce_sum(v).numpy())

with tf.GradientTape() as tape:
  tape.watch([x, k])
  loss = tf.reduce_sum(tf.nn.conv3d(x, k, strides=[1, 1, 2, 2, 1], padding="SAME") ** 2)
dx, dk = tape.gradient(loss, [x, k])
print(tf.reshape(dx[1, 2, :, :, 0], [-1]).numpy())
print(tf.reshape(dk[:, :, :, 1, 2], [-1]).numpy())
