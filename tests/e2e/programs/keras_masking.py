# Keras's implicit masks: Embedding(mask_zero=True) masks the padding, and
# the layers after it in a Sequential, a functional model or a subclassed
# model's call find the mask without being passed it (Keras's _keras_mask);
# GlobalAveragePooling1D averages over the unmasked steps only.
# Expected output: TensorFlow 2.15's; the embedding's row i is [2i, 2i + 1],
# so the sequence [1, 2, 0, 0] embeds as [2, 3], [4, 5], [0, 1], [0, 1] and
# its masked mean is [3, 4] (the unmasked one would be [1.5, 2.5]).
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers


def rows(shape, dtype=None):
    return tf.reshape(tf.range(shape[0] * shape[1], dtype=tf.float32), shape)


class ShowMask(layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True

    def call(self, inputs, mask=None):
        # While a functional graph is built the mask is symbolic (a KerasTensor).
        print("mask:", mask if tf.executing_eagerly() else "symbolic")
        return inputs


tokens = tf.constant([[1, 2, 0, 0]])
model = keras.Sequential([layers.Embedding(10, 2, embeddings_initializer=rows, mask_zero=True), ShowMask(),
                          layers.GlobalAveragePooling1D()])
print(model(tokens))

inputs = keras.Input(shape=(4,), dtype="int32")
x = layers.Embedding(10, 2, embeddings_initializer=rows, mask_zero=True)(inputs)
outputs = layers.GlobalAveragePooling1D()(ShowMask()(x))
print(keras.Model(inputs, outputs)(tokens))


class Pool(keras.Model):
    def __init__(self):
        super().__init__()
        self.embed = layers.Embedding(10, 2, embeddings_initializer=rows, mask_zero=True)
        self.pool = layers.GlobalAveragePooling1D()

    def call(self, x):
        return self.pool(self.embed(x))


print(Pool()(tokens))
# Without mask_zero nothing is masked.
plain = keras.Sequential([layers.Embedding(10, 2, embeddings_initializer=rows), layers.GlobalAveragePooling1D()])
print(plain(tokens))
