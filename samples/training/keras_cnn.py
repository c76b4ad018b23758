# A small convolutional classifier trained with Keras's fit, as the Keras
# "Simple MNIST convnet" example writes it: Conv2D + MaxPooling2D twice,
# Flatten, Dropout and a softmax Dense, categorical cross-entropy on one-hot
# labels, Adam, accuracy, a validation split; then evaluate and predict.
#
# The data (512 "images" of 28x28 in 10 classes) and the initial weights are
# deterministic formulas (the example loads MNIST and draws the weights), fit
# runs with shuffle=False and Dropout(0.0) keeps the run deterministic, so
# TensorFlow prints the same numbers; reference/keras_cnn.py recomputes them
# in float32 with PyTorch, following Keras's layouts (NHWC, HWIO kernels) and
# its batching, loss and metric rules.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

N, SIDE, CLASSES = 512, 28, 10

labels = np.arange(N) % CLASSES
rows = np.arange(SIDE)[:, None]
cols = np.arange(SIDE)[None, :]
images = np.stack([
    np.sin((labels[i] + 1) * (rows * 0.11 + cols * 0.07) + i * 0.013) * 0.5 + 0.5 for i in range(N)
]).astype(np.float32)[..., None]
one_hot = keras.utils.to_categorical(labels, CLASSES)


def sine_init(phase):
    def init(shape, dtype=None):
        fan_in = int(np.prod(shape[:-1]))
        values = tf.sin(tf.range(int(np.prod(shape)), dtype=tf.float32) * 0.731 + phase)
        return tf.reshape(values, shape) * (1.0 / fan_in) ** 0.5
    return init


model = keras.Sequential([
    keras.Input(shape=(SIDE, SIDE, 1)),
    layers.Conv2D(8, kernel_size=(3, 3), activation="relu", kernel_initializer=sine_init(0.3)),
    layers.MaxPooling2D(pool_size=(2, 2)),
    layers.Conv2D(16, kernel_size=(3, 3), activation="relu", kernel_initializer=sine_init(0.7)),
    layers.MaxPooling2D(pool_size=(2, 2)),
    layers.Flatten(),
    layers.Dropout(0.0),
    layers.Dense(CLASSES, activation="softmax", kernel_initializer=sine_init(1.1)),
])
model.summary()
model.compile(loss="categorical_crossentropy", optimizer=keras.optimizers.Adam(learning_rate=2e-3),
              metrics=["accuracy"])
history = model.fit(images, one_hot, batch_size=32, epochs=3, validation_split=0.125, shuffle=False, verbose=0)
for key, values in history.history.items():
    print(key, " ".join("%.4f" % v for v in values))
loss, accuracy = model.evaluate(images, one_hot, verbose=0)
print("evaluate: loss %.4f accuracy %.4f" % (loss, accuracy))
predictions = model.predict(images[:6], verbose=0)
print("predicted", np.argmax(predictions, axis=1), "true", labels[:6])
