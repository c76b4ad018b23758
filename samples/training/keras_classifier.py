# An MNIST-shaped classifier trained with Keras's fit, as the "Training and
# evaluation with the built-in methods" guide writes it: a Sequential MLP
# (784 -> 64 ReLU -> 10 logits), Adam, SparseCategoricalCrossentropy from
# logits, accuracy, a validation split, then evaluate, predict and summary.
#
# The data (1,000 "images" of 784 pixels in 10 classes) and the initial
# weights are deterministic formulas (the guide loads MNIST and draws the
# weights), and fit runs with shuffle=False, so TensorFlow prints the same
# numbers; reference/keras_classifier.py recomputes them in float32 with
# PyTorch, following Keras's batching, loss and metric rules.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

N, PIXELS, CLASSES = 1000, 784, 10

labels = np.arange(N) % CLASSES
pixel = np.arange(PIXELS)
images = (np.sin((labels[:, None] + 1) * pixel[None, :] * 0.01 + np.arange(N)[:, None] * 0.003) * 0.5 + 0.5).astype(np.float32)


def sine_init(phase):
    def init(shape, dtype=None):
        n = shape[0] * shape[1]
        values = tf.sin(tf.range(n, dtype=tf.float32) * 0.731 + phase)
        return tf.reshape(values, shape) * (1.0 / shape[0]) ** 0.5
    return init


model = keras.Sequential([
    layers.Dense(64, activation="relu", kernel_initializer=sine_init(0.3), input_shape=(PIXELS,)),
    layers.Dense(CLASSES, kernel_initializer=sine_init(1.1)),
])
model.summary()
model.compile(optimizer=keras.optimizers.Adam(learning_rate=1e-3),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=["accuracy"])
history = model.fit(images, labels, batch_size=64, epochs=3, validation_split=0.2, shuffle=False, verbose=0)
for key, values in history.history.items():
    print(key, " ".join("%.4f" % v for v in values))
loss, accuracy = model.evaluate(images, labels, verbose=0)
print("evaluate: loss %.4f accuracy %.4f" % (loss, accuracy))
predictions = model.predict(images[:5], verbose=0)
print("predicted", np.argmax(predictions, axis=1), "true", labels[:5])
