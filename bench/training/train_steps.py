# Issue 13's training benchmarks as TF2 Python: one training step (forward,
# tape gradient, Adam update) of an MLP 784-512-512-10 on a batch of 128, and
# of dynamic_rnn (T=100, B=32, 256 units) with backpropagation through the
# While loop. bench/meson.build converts this file with `agc emit-cpp --lib`;
# bench/training/train_steps_bench.cpp times the steps through the generated
# header; bench/training/torch_train_steps.py does the same steps in PyTorch.
import tensorflow as tf

tf.random.set_seed(7)
w1 = tf.Variable(tf.random.normal([784, 512], stddev=0.05))
b1 = tf.Variable(tf.zeros([512]))
w2 = tf.Variable(tf.random.normal([512, 512], stddev=0.05))
b2 = tf.Variable(tf.zeros([512]))
w3 = tf.Variable(tf.random.normal([512, 10], stddev=0.05))
b3 = tf.Variable(tf.zeros([10]))
mlp_vars = [w1, b1, w2, b2, w3, b3]
mlp_opt = tf.keras.optimizers.Adam(1e-3)


@tf.function
def mlp_step(x, labels):
  with tf.GradientTape() as tape:
    h1 = tf.nn.relu(x @ w1 + b1)
    h2 = tf.nn.relu(h1 @ w2 + b2)
    logits = h2 @ w3 + b3
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
  grads = tape.gradient(loss, mlp_vars)
  mlp_opt.apply_gradients(zip(grads, mlp_vars))
  return loss


wx = tf.Variable(tf.random.normal([256, 256], stddev=0.05))
wh = tf.Variable(tf.random.normal([256, 256], stddev=0.05))
bh = tf.Variable(tf.zeros([256]))
rnn_vars = [wx, wh, bh]
rnn_opt = tf.keras.optimizers.Adam(1e-3)


@tf.function
def rnn_step(xs):
  with tf.GradientTape() as tape:
    h = tf.zeros([32, 256])
    loss = tf.constant(0.0)
    for t in tf.range(tf.shape(xs)[0]):
      h = tf.tanh(xs[t] @ wx + h @ wh + bh)
      loss += tf.reduce_mean(tf.square(h))
  grads = tape.gradient(loss, rnn_vars)
  rnn_opt.apply_gradients(zip(grads, rnn_vars))
  return loss


def rnn_graph(xs):
  """rnn_step's graph as traced, for the bench's report of what its While saves."""
  return rnn_step.get_concrete_function(xs).graph
