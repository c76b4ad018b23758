# A linear regression trained with a custom loop, in the style of TensorFlow's
# "Basic training loops" guide: a tf.Module with two variables, a loss, a
# tf.function training step that takes the gradient with a GradientTape and
# applies it by hand, then a checkpoint saved, restored into a fresh model,
# and training resumed from it.
#
# The data is deterministic (the guide draws it from tf.random.normal), so the
# printed values are the same under TensorFlow; reference/linear_regression.py
# recomputes them in float32 with PyTorch.
import tensorflow as tf

TRUE_W = 3.0
TRUE_B = 2.0
NUM_EXAMPLES = 201

x = tf.range(NUM_EXAMPLES, dtype=tf.float32) / 50.0 - 2.0
noise = 0.5 * tf.sin(7.0 * x)
y = x * TRUE_W + TRUE_B + noise


class MyModel(tf.Module):
  def __init__(self, name=None):
    self.w = tf.Variable(5.0)
    self.b = tf.Variable(0.0)

  def __call__(self, x):
    return self.w * x + self.b


def loss(target_y, predicted_y):
  return tf.reduce_mean(tf.square(target_y - predicted_y))


@tf.function
def train_step(model, x, y, learning_rate):
  with tf.GradientTape() as t:
    current_loss = loss(y, model(x))
  dw, db = t.gradient(current_loss, [model.w, model.b])
  model.w.assign_sub(learning_rate * dw)
  model.b.assign_sub(learning_rate * db)
  return current_loss


def training_loop(model, x, y, epochs):
  for epoch in epochs:
    current_loss = train_step(model, x, y, 0.1)
    if epoch % 5 == 0:
      print(f"Epoch {epoch:2d}: W={float(model.w):1.2f} b={float(model.b):1.2f}, loss={float(current_loss):2.5f}")


model = MyModel()
print(f"Starting: W={float(model.w):1.2f} b={float(model.b):1.2f}, loss={float(loss(y, model(x))):2.5f}")
training_loop(model, x, y, range(10))

# Save, restore into a model that has not trained, and go on training it.
checkpoint = tf.train.Checkpoint(model=model)
path = checkpoint.save("/tmp/agc-sample-linear-regression/ckpt")
print(path)

restored = MyModel()
status = tf.train.Checkpoint(model=restored).restore(path)
status.assert_consumed()
print(float(restored.w) == float(model.w), float(restored.b) == float(model.b))
training_loop(restored, x, y, range(10, 30))
print(f"Trained: W={float(restored.w):1.4f} b={float(restored.b):1.4f}")
print(train_step.experimental_get_tracing_count())
