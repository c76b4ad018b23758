# Runs the converted two_tpu_functions model ($IN) through its serving
# signature, as the seed's "Inférence avec le modèle converti" does.
import os
import tensorflow as tf

model = tf.saved_model.load(os.getenv("IN"))
serving_fn = model.signatures['serving_default']
x = tf.reshape(tf.range(2 * 256, dtype=tf.float32), [2, 256])
print(serving_fn(x=x))
