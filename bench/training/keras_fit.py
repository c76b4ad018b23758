# Issue 16's fit benchmark, agc side: one epoch of model.fit on 60,000
# synthetic MNIST-shaped samples (784 pixels, 10 classes), the Keras
# tutorial's classifier (Flatten-free: Dense(128, relu), Dropout(0.2),
# Dense(10)), Adam, sparse cross-entropy from logits, accuracy, batch 32,
# shuffled, verbose=0. Prints the seconds of each of EPOCHS epochs (the
# first includes the one trace of the train step).
#
#     agc run bench/training/keras_fit.py
import time

import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

EPOCHS = 3
N = 60000
rng = np.random.RandomState(0)
x = rng.rand(N, 784).astype(np.float32)
y = (np.arange(N) % 10).astype(np.int32)

tf.random.set_seed(0)
model = keras.Sequential([
    layers.Dense(128, activation="relu", input_shape=(784,)),
    layers.Dropout(0.2),
    layers.Dense(10),
])
model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
for epoch in range(EPOCHS):
    start = time.perf_counter()
    h = model.fit(x, y, batch_size=32, epochs=1, verbose=0)
    print("agc fit epoch %d: %.3f s (loss %.4f, accuracy %.4f)" % (epoch, time.perf_counter() - start,
                                                                h.history["loss"][0], h.history["accuracy"][0]))
