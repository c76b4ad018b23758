# An MLP classifier trained with a custom loop, in the style of TensorFlow's
# "Custom training: walkthrough" and "Writing a training loop from scratch":
# three interleaved spirals, a two-hidden-layer network as a tf.Module,
# minibatches, a tf.function step with a GradientTape and Adam, accuracy per
# epoch; a tf.train.CheckpointManager keeps the newest checkpoints, and a
# fresh model and optimizer restored from the latest one continue training
# exactly where the first left off.
#
# Data and initial weights are deterministic formulas (the tutorials draw
# them at random), so TensorFlow prints the same; reference/mlp_classifier.py
# recomputes the numbers in float32 with PyTorch.
import tensorflow as tf

NUM_CLASSES = 3
NUM_EXAMPLES = 300
BATCH = 60

t = tf.range(NUM_EXAMPLES, dtype=tf.float32)
labels = tf.range(NUM_EXAMPLES) % NUM_CLASSES
radius = tf.floor(t / NUM_CLASSES) / 100.0 + 0.1
angle = tf.cast(labels, tf.float32) * 2.0944 + radius * 4.0
features = tf.stack([radius * tf.cos(angle), radius * tf.sin(angle)], axis=1)


def initial(shape, phase):
  n = shape[0] * shape[1]
  values = tf.sin(tf.range(n, dtype=tf.float32) * 0.731 + phase)
  return tf.reshape(values, shape) * (1.0 / shape[0]) ** 0.5


class Dense(tf.Module):
  def __init__(self, units_in, units_out, phase, activation=None, name=None):
    super().__init__(name=name)
    self.w = tf.Variable(initial([units_in, units_out], phase), name="w")
    self.b = tf.Variable(tf.zeros([units_out]), name="b")
    self.activation = activation

  def __call__(self, x):
    y = x @ self.w + self.b
    return self.activation(y) if self.activation else y


class MLP(tf.Module):
  def __init__(self, name=None):
    super().__init__(name=name)
    self.hidden1 = Dense(2, 32, 0.1, tf.nn.relu)
    self.hidden2 = Dense(32, 32, 0.7, tf.nn.relu)
    self.out = Dense(32, NUM_CLASSES, 1.3)

  def __call__(self, x):
    return self.out(self.hidden2(self.hidden1(x)))


def accuracy(logits, y):
  predicted = tf.argmax(logits, axis=1, output_type=tf.int32)
  return tf.reduce_mean(tf.cast(tf.equal(predicted, y), tf.float32))


def make_step(model, optimizer):
  @tf.function
  def train_step(x, y):
    with tf.GradientTape() as tape:
      logits = model(x)
      loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss
  return train_step


def train(model, optimizer, epoch, first, last):
  step = make_step(model, optimizer)
  for e in range(first, last):
    losses = []
    for i in range(0, NUM_EXAMPLES, BATCH):
      losses.append(float(step(features[i:i + BATCH], labels[i:i + BATCH])))
    epoch.assign_add(1)
    if e % 25 == 24:
      acc = float(accuracy(model(features), labels))
      print(f"epoch {int(epoch):3d}: loss {sum(losses) / len(losses):.4f}, accuracy {acc:.3f}")
  return step


model = MLP()
optimizer = tf.keras.optimizers.Adam(learning_rate=0.01)
epoch = tf.Variable(0)
print(len(model.trainable_variables), [v.shape.as_list() for v in model.trainable_variables][:2])

checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, epoch=epoch)
manager = tf.train.CheckpointManager(checkpoint, "/tmp/agc-sample-mlp", max_to_keep=2)
for first in range(0, 150, 50):
  step = train(model, optimizer, epoch, first, first + 50)
  print("saved", manager.save())
print(manager.checkpoints)
print("steps", int(optimizer.iterations), "traces", step.experimental_get_tracing_count())

# A fresh model and optimizer: the variables restore now, Adam's slots as its
# first apply_gradients creates them.
model2 = MLP()
optimizer2 = tf.keras.optimizers.Adam(learning_rate=0.01)
epoch2 = tf.Variable(0)
status = tf.train.Checkpoint(model=model2, optimizer=optimizer2, epoch=epoch2).restore(manager.latest_checkpoint)
status.assert_existing_objects_matched()
print("restored epoch", int(epoch2), "iterations", int(optimizer2.iterations))
print("same logits:", bool(tf.reduce_all(model2(features) == model(features))))
train(model, optimizer, epoch, 150, 175)
train(model2, optimizer2, epoch2, 150, 175)
status.assert_consumed()
print("same after training on:", bool(tf.reduce_all(model2(features) == model(features))))
