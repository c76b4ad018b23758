# Seed 004 (the JIT-translation article, Chinese), section 1: the same
# computation written for TF1's graph mode (a graph, a placeholder, a
# session fed with feed_dict) and for TF2's eager mode.
import tensorflow.compat.v1 as tf
g = tf.Graph()
with g.as_default():
    a = tf.constant([[2., 0.], [0., 2.]])
    x = tf.placeholder(dtype=tf.float32, shape=(2, 2))
    b = tf.constant(1.)
    y = tf.matmul(a, x) + b
    init_op = tf.global_variables_initializer()
with tf.Session(graph=g) as sess:
    sess.run(init_op)
    print(sess.run(y, feed_dict={x: [[1, 2], [3, 4]]}))

import tensorflow as tf
def f(x):
    a = tf.constant([[2., 0.], [0., 2.]])
    b = tf.constant(1.)
    y = tf.matmul(a, x) + b
    return y
print(f([[1, 2], [3, 4]]))
