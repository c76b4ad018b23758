# The quantized model ($IN, converted with the seed's quantization options)
# against the float model it came from ($FLOAT), on inputs from the
# representative range (8 of them, each of shape $SHAPE, "3" by default):
# the largest difference, and how it compares with the outputs' spread.
import os
import tensorflow as tf

float_model = tf.saved_model.load(os.getenv("FLOAT"))
quantized = tf.saved_model.load(os.getenv("IN"))
shape = [int(d) for d in os.getenv("SHAPE", "3").split(",")]
x = tf.random.stateless_uniform([8] + shape, seed=[42, 0])
f = float_model.signatures["serving_default"](x=x)["output_0"]
q = quantized.signatures["serving_default"](x=x)["output_0"]
error = tf.reduce_max(tf.abs(q - f))
spread = tf.reduce_max(f) - tf.reduce_min(f)
print("float:    ", f[0].numpy())
print("quantized:", q[0].numpy())
print("max |quantized - float|:", error.numpy(), "over an output spread of", spread.numpy())
print("under 2% of the output spread:", bool(error < 0.02 * spread))
