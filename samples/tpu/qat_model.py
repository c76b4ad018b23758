# Quantization-aware training, then conversion with the seed's quantization
# options and no representative dataset: a 4 -> 16 (ReLU) -> 1 regression
# whose input, weights and activations go through
# tf.quantization.fake_quant_with_min_max_vars with trainable ranges, trained
# with Adam on a synthetic target; saved to $OUT with the alias tpu_func.
# The converter takes the ranges training learned (B43: a model with fake
# quantizations needs no dataset).
import os
import tensorflow as tf


def fake_quant(x, lo, hi):
  return tf.quantization.fake_quant_with_min_max_vars(x, lo, hi)


class QatModel(tf.Module):
  def __init__(self):
    self.w1 = tf.Variable(tf.random.stateless_normal([4, 16], seed=[1, 2]) * 0.5)
    self.b1 = tf.Variable(tf.zeros([16]))
    self.w2 = tf.Variable(tf.random.stateless_normal([16, 1], seed=[3, 4]) * 0.5)
    self.b2 = tf.Variable(tf.zeros([1]))
    self.ranges = [tf.Variable(v) for v in [-1.0, 1.0, -2.0, 2.0, 0.0, 4.0, -2.0, 2.0, -4.0, 4.0]]

  @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
  def tpu_func(self, x):
    r = self.ranges
    x = fake_quant(x, r[0], r[1])
    h = tf.nn.relu(tf.matmul(x, fake_quant(self.w1, r[2], r[3])) + self.b1)
    h = fake_quant(h, r[4], r[5])
    y = tf.matmul(h, fake_quant(self.w2, r[6], r[7])) + self.b2
    return fake_quant(y, r[8], r[9])

  @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
  def serve(self, x):
    return self.tpu_func(x)


def target(x):
  return tf.reduce_sum(x * tf.constant([0.5, -1.0, 0.25, 2.0]), axis=1, keepdims=True)


model = QatModel()
optimizer = tf.keras.optimizers.Adam(learning_rate=0.02)


@tf.function
def train_step(x):
  with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.square(model.tpu_func(x) - target(x)))
  variables = [model.w1, model.b1, model.w2, model.b2] + model.ranges
  optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
  return loss


for step in range(300):
  x = tf.random.stateless_uniform([32, 4], seed=[step, 7], minval=-1.0, maxval=1.0)
  loss = train_step(x)
  if step % 100 == 0 or step == 299:
    print("step", step, "loss", round(float(loss), 4))
print("learned output range:", [round(float(v), 2) for v in model.ranges[8:]])
tf.saved_model.save(model, os.getenv("OUT"), signatures=model.serve,
                    options=tf.saved_model.SaveOptions(function_aliases={'tpu_func': model.tpu_func}))
