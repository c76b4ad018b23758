# A tf.data input pipeline feeding a small classifier trained with a custom
# loop, in the style of TensorFlow's "tf.data: Build TensorFlow input
# pipelines" and "Writing a training loop from scratch" guides: synthetic
# NumPy data, Dataset.from_tensor_slices -> shuffle (seeded) -> map -> batch,
# a two-layer network made of tf.Variables, a tf.function train step with a
# GradientTape and SGD, the loss per epoch and the final accuracy.
#
# Data and initial weights come from NumPy's seeded RandomState (bit-exact in
# agc); the shuffled order is TF's ShuffleDatasetV3's. Expected output:
# TensorFlow's, recomputed in float32 by tests/e2e/reference/
# data_pipeline_training.py (NumPy, with tf_shuffle.py's shuffle order).
import numpy as np
import tensorflow as tf

NUM_EXAMPLES = 200
BATCH_SIZE = 32
EPOCHS = 8

# Two noisy blobs in the plane, one per class.
np.random.seed(1234)
labels = np.random.randint(0, 2, size=NUM_EXAMPLES)
centers = np.array([[2.0, 1.0], [-1.0, -2.0]])
features = (np.random.randn(NUM_EXAMPLES, 2) * 1.2 + centers[labels]).astype(np.float32)
print("features:", features.shape, features.dtype, "labels:", labels.shape, labels.dtype)
print("class counts:", np.bincount(labels))

mean = features.mean(axis=0)
std = features.std(axis=0)


def normalize(x, y):
  x = (x - mean) / std
  return x, tf.cast(y, tf.int32)


dataset = tf.data.Dataset.from_tensor_slices((features, labels))
print(dataset.element_spec)
train_ds = dataset.shuffle(NUM_EXAMPLES, seed=7).map(normalize).batch(BATCH_SIZE)
print("batches per epoch:", train_ds.cardinality().numpy())
for x, y in train_ds.take(1):
  print("first batch:", x.shape, y.shape, y.dtype)


class TwoLayerNet:
  def __init__(self, hidden):
    self.w1 = tf.Variable((np.random.randn(2, hidden) * 0.5).astype(np.float32), name="w1")
    self.b1 = tf.Variable(tf.zeros([hidden]), name="b1")
    self.w2 = tf.Variable((np.random.randn(hidden, 2) * 0.5).astype(np.float32), name="w2")
    self.b2 = tf.Variable(tf.zeros([2]), name="b2")
    self.variables = [self.w1, self.b1, self.w2, self.b2]

  def __call__(self, x):
    h = tf.nn.relu(tf.matmul(x, self.w1) + self.b1)
    return tf.matmul(h, self.w2) + self.b2


model = TwoLayerNet(hidden=8)
optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


@tf.function
def train_step(x, y):
  with tf.GradientTape() as tape:
    logits = model(x)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
  grads = tape.gradient(loss, model.variables)
  optimizer.apply_gradients(zip(grads, model.variables))
  return loss


for epoch in range(EPOCHS):
  losses = []
  for x, y in train_ds:
    losses.append(train_step(x, y).numpy())
  print(f"epoch {epoch + 1}: loss {np.mean(losses):.4f} over {len(losses)} batches")

print("traces:", train_step.experimental_get_tracing_count())
print("steps:", optimizer.iterations.numpy())

# Accuracy over the whole (normalized, unshuffled) data set.
correct = 0
for x, y in dataset.map(normalize).batch(64):
  predictions = tf.argmax(model(x), axis=1, output_type=tf.int32)
  correct += int(tf.reduce_sum(tf.cast(predictions == y, tf.int32)))
print(f"accuracy: {correct / NUM_EXAMPLES:.3f} ({correct}/{NUM_EXAMPLES})")
