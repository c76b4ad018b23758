# A TF1 training program as TF1 tutorials write it: eager execution
# disabled, placeholders, tf.gradients, GradientDescentOptimizer.minimize
# with a global step, then Adam and its slots; values match TF1's kernel
# formulas computed independently in float32.
import numpy as np
import tensorflow.compat.v1 as tf
tf.disable_eager_execution()

X = np.array([[0., 1.], [1., 0.], [1., 1.], [2., 1.]], dtype=np.float32)
Y = np.array([[1.], [2.], [3.], [4.]], dtype=np.float32)

x = tf.placeholder(tf.float32, [None, 2])
y = tf.placeholder(tf.float32, [None, 1])
W = tf.Variable(tf.zeros([2, 1]), name="W")
b = tf.Variable(tf.zeros([1]), name="b")
pred = tf.matmul(x, W) + b
loss = tf.reduce_mean(tf.square(pred - y))
print(loss)
print(tf.executing_eagerly())
grads = tf.gradients(loss, [W, b])
print([g.shape for g in grads])
step = tf.Variable(0, dtype=tf.int64, trainable=False, name="global_step")
train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
print(train_op)
init = tf.global_variables_initializer()
with tf.Session() as sess:
    sess.run(init)
    print(sess.run(grads, feed_dict={x: X, y: Y}))
    for i in range(100):
        _, l = sess.run([train_op, loss], feed_dict={x: X, y: Y})
        if i % 25 == 0:
            print(i, l)
    print(sess.run([W, b, step]))

tf.reset_default_graph()
a = tf.Variable(3.0)
c = tf.Variable(-2.0)
f = (a - 1.0) ** 2 + (c + 0.5) ** 2
opt = tf.train.AdamOptimizer(0.1)
t = opt.minimize(f)
m = tf.train.MomentumOptimizer(0.05, 0.9)
print([v.name for v in tf.global_variables()])
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for i in range(3):
        sess.run(t)
        print(sess.run([a, c, f]))
    print(sess.run(opt.get_slot(a, "m")))
