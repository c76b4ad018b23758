# Runs a converted language_model ($IN) on a sentence; a model whose string
# ops were placed on the TPU fails at its first run, as the seed says.
import os
import tensorflow as tf

model = tf.saved_model.load(os.getenv("IN"))
serving_fn = model.signatures['serving_default']
try:
  out = serving_fn(input_string=tf.constant("hello tpu world"))['output_0']
  print(out.shape, out.dtype)
except tf.errors.InvalidArgumentError as e:
  print(type(e).__name__ + ":", e)
