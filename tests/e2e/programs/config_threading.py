# tf.config.threading: the intra-op setting limits the kernels' threads (1:
# every kernel on the calling thread), takes effect at once, and gives the
# same results; the inter-op one is recorded. Both getters return what was
# set, 0 (the system's choice) before.
import tensorflow as tf

print(tf.config.threading.get_intra_op_parallelism_threads(),
      tf.config.threading.get_inter_op_parallelism_threads())
a = tf.reshape(tf.range(160000, dtype=tf.float32) % 7.0 - 3.0, [400, 400])
x = tf.reshape(tf.range(2 * 20 * 20 * 8, dtype=tf.float32) % 5.0, [2, 20, 20, 8])
w = tf.reshape(tf.range(3 * 3 * 8 * 16, dtype=tf.float32) % 3.0 - 1.0, [3, 3, 8, 16])


@tf.function
def step(a, x, w):
    with tf.GradientTape() as tape:
        tape.watch(w)
        y = tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(x, w, 1, "SAME")), 2, 2, "VALID")
        loss = tf.reduce_sum(y * y)
    return tf.matmul(a, a), y, tape.gradient(loss, w)


two = step(a, x, w)
tf.config.threading.set_intra_op_parallelism_threads(1)
tf.config.threading.set_inter_op_parallelism_threads(4)
print(tf.config.threading.get_intra_op_parallelism_threads(),
      tf.config.threading.get_inter_op_parallelism_threads())
one = step(a, x, w)
for t1, t2 in zip(one, two):
    print(t1.shape, float(tf.reduce_max(tf.abs(t1 - t2))))
print(float(tf.reduce_sum(one[2])))
tf.config.threading.set_intra_op_parallelism_threads(0)
print(tf.config.threading.get_intra_op_parallelism_threads())
