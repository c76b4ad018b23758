# The quantized model ($IN, converted with the seed's quantization options)
# against the float model it came from ($FLOAT), on inputs from the
# representative range: the largest difference, and how it compares with the
# outputs' spread.
import os
import tensorflow as tf

float_model = tf.saved_model.load(os.getenv("FLOAT"))
quantized = tf.saved_model.load(os.getenv("IN"))
x = tf.random.stateless_uniform([8, 3], seed=[42, 0])
f = float_model.signatures["serving_default"](x=x)["output_0"]
q = quantized.signatures["serving_default"](x=x)["output_0"]
error = tf.reduce_max(tf.abs(q - f))
spread = tf.reduce_max(f) - tf.reduce_min(f)
print("float:    ", f[0].numpy())
print("quantized:", q[0].numpy())
print("max |quantized - float|:", error.numpy(), "over an output spread of", spread.numpy())
print("under 2% of the output spread:", bool(error < 0.02 * spread))
