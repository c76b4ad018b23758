# A text classifier as the Keras guides build one: token ids padded with 0,
# Embedding(mask_zero=True) so the LSTM skips the padding, a sigmoid Dense,
# binary cross-entropy, Adam, accuracy; then evaluate and predict.
#
# The token sequences (256, of 4 to 12 tokens in a vocabulary of 50) and the
# initial weights are deterministic formulas, and fit runs with
# shuffle=False, so TensorFlow prints the same numbers;
# reference/keras_text_classifier.py recomputes them in float32 with PyTorch,
# following Keras's LSTM (gates i, f, c, o; the forget bias starting at 1;
# masked steps keeping the previous state and output).
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

N, T, VOCAB, DIM, UNITS = 256, 12, 50, 8, 16

lengths = 4 + (np.arange(N) * 5) % 9
tokens = np.zeros((N, T), dtype=np.int32)
for i in range(N):
    for j in range(lengths[i]):
        tokens[i, j] = 1 + (i * 7 + j * 13 + (i * j) % 11) % (VOCAB - 1)
labels = np.array([tokens[i, :lengths[i]].mean() > 25 for i in range(N)], dtype=np.float32)


def cos_init(phase, scale):
    def init(shape, dtype=None):
        values = tf.cos(tf.range(int(np.prod(shape)), dtype=tf.float32) * 1.37 + phase)
        return tf.reshape(values, shape) * scale
    return init


model = keras.Sequential([
    layers.Embedding(VOCAB, DIM, mask_zero=True, embeddings_initializer=cos_init(0.1, 0.5)),
    layers.LSTM(UNITS, kernel_initializer=cos_init(0.2, 0.3), recurrent_initializer=cos_init(0.5, 0.2)),
    layers.Dense(1, activation="sigmoid", kernel_initializer=cos_init(0.9, 0.4)),
])
model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.01), loss="binary_crossentropy", metrics=["accuracy"])
history = model.fit(tokens, labels, batch_size=32, epochs=4, shuffle=False, verbose=0)
model.summary()
for key, values in history.history.items():
    print(key, " ".join("%.4f" % v for v in values))
loss, accuracy = model.evaluate(tokens, labels, verbose=0)
print("evaluate: loss %.4f accuracy %.4f" % (loss, accuracy))
scores = model.predict(tokens[:6], verbose=0)
print("scores", np.round(scores[:, 0], 3), "labels", labels[:6])
