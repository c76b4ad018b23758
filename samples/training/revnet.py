# The RevNet article's reversible block (seed 002), trained for a few steps
# with its memory-saving backward pass: the forward pass keeps no
# activations, and backward_grads rebuilds the block's input from its output
# while it computes the gradients, with tape.gradient(...,
# output_gradients=...) on F and G. Every step checks the rebuilt input and
# the reversible gradients against an ordinary tape over the whole block.
#
# Adapted so that it runs (GRADIENTS.md test 31): TF 2 names, channels_last,
# backward_grads called with the (y1, y2) / (dy1, dy2) pairs its signature
# expects, F and G small ReLU-conv functions (the article omits them), and
# list(...) around trainable_variables, a tuple on a tf.Module.
# Data and weights are deterministic formulas, so TensorFlow prints the same;
# reference/revnet.py recomputes the numbers in float32 with PyTorch.
import tensorflow as tf

N, H, W, C, CLASSES = 8, 6, 6, 4, 2


def initial(shape, phase, scale):
  n = 1
  for d in shape:
    n *= d
  return tf.reshape(tf.sin(tf.range(n, dtype=tf.float32) * 0.917 + phase), shape) * scale


class ConvFn(tf.Module):
  """F or G: ReLU, then a 3x3 convolution that keeps the shape."""

  def __init__(self, channels, phase):
    self.kernel = tf.Variable(initial([3, 3, channels, channels], phase, 0.3))

  def __call__(self, x):
    return tf.nn.conv2d(tf.nn.relu(x), self.kernel, strides=1, padding="SAME")


class Residual(tf.Module):
  def __init__(self, channels):
    self.axis = 3
    self.f = ConvFn(channels // 2, 0.3)
    self.g = ConvFn(channels // 2, 1.1)

  def __call__(self, x):
    x1, x2 = tf.split(x, num_or_size_splits=2, axis=self.axis)
    f_x2 = self.f(x2)
    y1 = f_x2 + x1
    g_y1 = self.g(y1)
    y2 = g_y1 + x2
    return tf.concat([y1, y2], axis=self.axis)

  def backward_grads(self, y, dy):
    dy1, dy2 = dy
    y1, y2 = y

    with tf.GradientTape() as gtape:
      gtape.watch(y1)
      gy1 = self.g(y1)
    grads_combined = gtape.gradient(
        gy1, [y1] + list(self.g.trainable_variables), output_gradients=dy2)
    dg = grads_combined[1:]
    dx1 = dy1 + grads_combined[0]
    x2 = y2 - gy1

    with tf.GradientTape() as ftape:
      ftape.watch(x2)
      fx2 = self.f(x2)
    grads_combined = ftape.gradient(
        fx2, [x2] + list(self.f.trainable_variables), output_gradients=dx1)
    df = grads_combined[1:]
    dx2 = dy2 + grads_combined[0]
    x1 = y1 - fx2

    x = x1, x2
    dx = dx1, dx2
    grads = df + dg

    return x, dx, grads


block = Residual(C)
head = tf.Variable(initial([C, CLASSES], 0.5, 0.5))
variables = list(block.f.trainable_variables) + list(block.g.trainable_variables) + [head]
optimizer = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)

labels = tf.range(N) % CLASSES
# Images of class 1 are brighter than those of class 0.
offsets = tf.reshape(tf.cast(labels, tf.float32) - 0.5, [N, 1, 1, 1])
images = initial([N, H, W, C], 0.0, 1.0) + offsets


def loss_of(y):
  logits = tf.reduce_mean(y, axis=[1, 2]) @ head
  return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))


@tf.function
def train_step(x):
  y = block(x)  # no tape: nothing of the block's forward pass is kept
  with tf.GradientTape() as tape:
    tape.watch(y)
    loss = loss_of(y)
  dy, dhead = tape.gradient(loss, [y, head])
  y1, y2 = tf.split(y, num_or_size_splits=2, axis=3)
  dy1, dy2 = tf.split(dy, num_or_size_splits=2, axis=3)
  x_rebuilt, _, block_grads = block.backward_grads((y1, y2), (dy1, dy2))
  grads = block_grads + [dhead]
  optimizer.apply_gradients(zip(grads, variables))
  return loss, tf.concat(x_rebuilt, axis=3), grads


def ordinary_grads(x):
  with tf.GradientTape() as tape:
    loss = loss_of(block(x))
  return tape.gradient(loss, variables)


for step in range(10):
  expected = ordinary_grads(images)
  loss, rebuilt, grads = train_step(images)
  rebuilt_ok = float(tf.reduce_max(tf.abs(rebuilt - images))) < 1e-6
  grads_ok = all(float(tf.reduce_max(tf.abs(g - e))) < 1e-6 for g, e in zip(grads, expected))
  if step % 3 == 0:
    print(f"step {step}: loss {float(loss):.4f}, input rebuilt {rebuilt_ok}, gradients equal {grads_ok}")
print(f"after 10 steps: loss {float(loss_of(block(images))):.4f}, iterations {int(optimizer.iterations)}")
