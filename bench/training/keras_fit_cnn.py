# Issue 16's fit benchmark for the small CNN, agc side: epochs of model.fit on
# 60,000 synthetic MNIST-shaped images (28x28x1, 10 classes), the Keras
# "Simple MNIST convnet" example's model (Conv2D(32, 3) relu, MaxPooling2D,
# Conv2D(64, 3) relu, MaxPooling2D, Flatten, Dropout(0.5), Dense(10,
# softmax)), Adam, categorical cross-entropy, accuracy, batch 128 (the
# example's), shuffled, verbose=0. Prints the seconds of each of EPOCHS
# epochs (the first includes the one trace of the train step). The
# environment's AGC_BENCH_THREADS, when set, is the kernels' thread count
# (tf.config.threading's intra-op setting; torch_fit.py sets it to its own).
#
#     agc run bench/training/keras_fit_cnn.py
import os
import time

import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

EPOCHS = 2
tf.config.threading.set_intra_op_parallelism_threads(int(os.environ.get("AGC_BENCH_THREADS", "0")))
N = 60000
rng = np.random.RandomState(0)
x = rng.rand(N, 28, 28, 1).astype(np.float32)
y = keras.utils.to_categorical(np.arange(N) % 10, 10)

tf.random.set_seed(0)
model = keras.Sequential([
    keras.Input(shape=(28, 28, 1)),
    layers.Conv2D(32, kernel_size=(3, 3), activation="relu"),
    layers.MaxPooling2D(pool_size=(2, 2)),
    layers.Conv2D(64, kernel_size=(3, 3), activation="relu"),
    layers.MaxPooling2D(pool_size=(2, 2)),
    layers.Flatten(),
    layers.Dropout(0.5),
    layers.Dense(10, activation="softmax"),
])
model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])
for epoch in range(EPOCHS):
    start = time.perf_counter()
    h = model.fit(x, y, batch_size=128, epochs=1, verbose=0)
    print("agc fit epoch %d: %.3f s (loss %.4f, accuracy %.4f)" % (epoch, time.perf_counter() - start,
                                                                h.history["loss"][0], h.history["accuracy"][0]))
