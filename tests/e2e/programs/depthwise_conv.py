# tf.nn.depthwise_conv2d: each input channel convolved with its own
# channel_multiplier filters (output channel c * M + m), SAME and VALID,
# strides; its gradients with respect to the input and the filter.
import tensorflow as tf

x = tf.reshape(tf.range(2 * 4 * 4 * 2, dtype=tf.float32) % 7 - 3, [2, 4, 4, 2])
k = tf.reshape(tf.range(3 * 3 * 2 * 2, dtype=tf.float32) % 5 - 2, [3, 3, 2, 2])

y = tf.nn.depthwise_conv2d(x, k, strides=[1, 1, 1, 1], padding="SAME")
print(y.shape)
print(y[0, :, :, 0].numpy())
print(y[1, 1, :, 3].numpy())

v = tf.nn.depthwise_conv2d(x, k[:, :, :, :1], strides=[1, 2, 2, 1], padding="VALID")
print(v.shape, tf.reshape(v, [-1]).numpy())


@tf.function
def grads(x, k):
  with tf.GradientTape() as tape:
    tape.watch([x, k])
    y = tf.nn.depthwise_conv2d(x, k, strides=[1, 2, 2, 1], padding="SAME")
    loss = tf.reduce_sum(y * y)
  return tape.gradient(loss, [x, k])


dx, dk = grads(x, k)
print(dx[0, :, :, 1].numpy())
print(dk[:, :, 0, 1].numpy())
