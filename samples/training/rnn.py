# A small recurrent network trained with backpropagation through time: the
# cell is unrolled by AutoGraph's `for t in tf.range(...)` into a While loop
# whose outputs go to a TensorArray, the tape differentiates through the loop
# (its gradient is a While that runs the iterations in reverse), and Adam
# updates the weights. It learns to predict the next value of sine waves of
# different phases. The weights are then written with Checkpoint.write, read
# into a fresh model, and the two predict the same.
#
# Data and initial weights are deterministic formulas, so TensorFlow prints
# the same; reference/rnn.py recomputes the numbers in float32 with PyTorch.
import tensorflow as tf

T, BATCH, UNITS = 24, 16, 16

steps = tf.reshape(tf.range(T + 1, dtype=tf.float32), [T + 1, 1, 1])
phases = tf.reshape(tf.range(BATCH, dtype=tf.float32), [1, BATCH, 1]) * 0.4
waves = tf.sin(steps * 0.3 + phases)
inputs, targets = waves[:-1], waves[1:]


def initial(shape, phase):
  n = shape[0] * shape[1]
  return tf.reshape(tf.cos(tf.range(n, dtype=tf.float32) * 1.37 + phase), shape) * 0.3


class RNN(tf.Module):
  def __init__(self, units):
    self.units = units
    self.wx = tf.Variable(initial([1, units], 0.2))
    self.wh = tf.Variable(initial([units, units], 0.5))
    self.b = tf.Variable(tf.zeros([units]))
    self.wy = tf.Variable(initial([units, 1], 0.9))
    self.by = tf.Variable(tf.zeros([1]))

  def __call__(self, xs):
    h = tf.zeros([xs.shape[1], self.units])
    outputs = tf.TensorArray(tf.float32, size=tf.shape(xs)[0])
    for t in tf.range(tf.shape(xs)[0]):
      h = tf.tanh(xs[t] @ self.wx + h @ self.wh + self.b)
      outputs = outputs.write(t, h @ self.wy + self.by)
    return outputs.stack()


model = RNN(UNITS)
optimizer = tf.keras.optimizers.Adam(learning_rate=0.01)


@tf.function
def train_step(xs, ys):
  with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model(xs) - ys))
  grads = tape.gradient(loss, model.trainable_variables)
  optimizer.apply_gradients(zip(grads, model.trainable_variables))
  return loss


for step in range(301):
  loss = train_step(inputs, targets)
  if step % 50 == 0:
    print(f"step {step:3d}: loss {float(loss):.5f}")

print(train_step.experimental_get_tracing_count())

path = tf.train.Checkpoint(model=model).write("/tmp/agc-sample-rnn/weights")
print(path)
fresh = RNN(UNITS)
tf.train.Checkpoint(model=fresh).read(path).assert_consumed()
eager = fresh(inputs)
print(eager.shape, bool(tf.reduce_max(tf.abs(eager - model(inputs))) == 0.0))
print(f"last prediction {float(eager[-1, 0, 0]):.3f}, target {float(targets[-1, 0, 0]):.3f}")
