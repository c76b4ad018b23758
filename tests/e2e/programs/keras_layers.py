# A small CNN as the Keras guides build one: Conv2D, BatchNormalization,
# MaxPooling2D, GlobalAveragePooling2D and Dense in a Sequential model; its
# summary and weights, a forward pass in inference mode, one
# BatchNormalization step in training mode, merge layers and Keras's errors.
# Expected output: TensorFlow 2.15's. Every number is derived by hand in the
# comments (the layout of summary() is Keras 2.15's print_summary, which
# wraps a first column longer than 27 characters). The weights are
# constants and the input is tf.range, so each printed value is exact in
# float32, or printed to 4 decimals where it is not.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

conv = layers.Conv2D(2, 2, input_shape=(5, 5, 1), name="conv")
bn = layers.BatchNormalization(
    moving_mean_initializer=keras.initializers.Constant(1.0),
    moving_variance_initializer=keras.initializers.Constant(3.999),
    name="bn",
)
pool = layers.MaxPooling2D(name="pool")
gap = layers.GlobalAveragePooling2D(name="gap")
model = keras.Sequential([conv, bn, pool, gap, layers.Dense(1, kernel_initializer="ones", name="out")], name="small_cnn")
# conv: 2·2·1·2 + 2 = 10; bn: gamma, beta, moving mean and variance of 2 = 8, 4 of them not trainable;
# pool: 4x4 -> 2x2; gap: (None, 2); out: 2 + 1 = 3. Total 21 params of 4 bytes.
model.summary()
print([w.name for w in model.weights])
print(len(model.trainable_weights), len(model.non_trainable_weights))

# Filter 0 averages each 2x2 window twice over (all 0.5); filter 1 picks its top-right pixel.
kernel = np.array([[[[0.5, 0.0]], [[0.5, 1.0]]], [[[0.5, 0.0]], [[0.5, 0.0]]]], dtype=np.float32)
conv.set_weights([kernel, np.zeros(2, dtype=np.float32)])
x = tf.reshape(tf.range(25, dtype=tf.float32), (1, 5, 5, 1))  # pixel (r, c) = 5r + c
# conv at (i, j): filter 0 = 0.5·(4·(5i + j) + 12) = 10i + 2j + 6, filter 1 = 5i + j + 1.
# bn in inference: (v - 1) / sqrt(3.999 + 0.001) = (v - 1) · 0.5 (3.999f + 0.001f rounds to 4.0f):
# filter 0: 5i + j + 2.5, filter 1: 2.5i + 0.5j.
h = bn(conv(x))
print(h[0, :, :, 1])
# pool: the bottom-right of each 2x2 window, (i, j) in {1, 3}²: filter 0 8.5 10.5 18.5 20.5, filter 1 3 4 8 9.
p = pool(h)
print(p[0, :, :, 0])
# gap: 58 / 4 = 14.5 and 24 / 4 = 6; out: 14.5 + 6 = 20.5.
print(gap(p))
print(model(x))

# One training step of bn (4-D input: Keras's fused path). Per channel over the 16 pixels:
# filter 0 mean 24, biased variance 100·1.25 + 4·1.25 = 130; filter 1 mean 10, variance 25·1.25 + 1.25 = 32.5.
# Output at (0, 0): (6 - 24) / sqrt(130.001) = -1.578698, (1 - 10) / sqrt(32.501) = -1.578680.
out = bn(conv(x), training=True)
print([f"{v:.4f}" for v in out[0, 0, 0].numpy()])
# moving_mean = 0.99·1 + 0.01·mean: 1.23, 1.09.
print([f"{v:.4f}" for v in bn.moving_mean.numpy()])
# moving_variance = 0.99·3.999 + 0.01·variance·16/15 (the fused op's unbiased variance):
# 3.95901 + 1.386667 = 5.345677, 3.95901 + 0.346667 = 4.305677.
print([f"{v:.4f}" for v in bn.moving_variance.numpy()])

# Merge layers take a list of tensors.
a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
b = tf.constant([[10.0, 20.0], [30.0, 40.0]])
print(layers.Add()([a, b]))
print(layers.Concatenate()([a, b]))
print(layers.Dot(axes=1)([a, b]))  # 1·10 + 2·20 = 50, 3·30 + 4·40 = 250

# Errors as Keras words them.
try:
    layers.MaxPooling2D()(tf.ones([1, 4, 4]))
except ValueError as e:
    print("ValueError:", e)
try:
    layers.Add()(a)
except ValueError as e:
    print("ValueError:", e)
try:
    layers.BatchNormalization(axis=2)(a)
except ValueError as e:
    print("ValueError:", e)
