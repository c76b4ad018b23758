# Keras models as the guides write them: Sequential (list and .add), the
# functional API, a subclassed Model and Layer with build/add_weight and
# `training=`, summary() and weights.
# Expected output: TensorFlow 2.15's text (summary's layout is Keras 2.15's
# print_summary; the values are the hand computations in the comments).
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

# ---- Sequential, built from its first layer's input_shape.
model = keras.Sequential([layers.Dense(64, activation="relu", input_shape=(4,)), layers.Dense(10)])
model.summary()
print(len(model.weights), [w.shape for w in model.trainable_weights])

# ---- Sequential grown with .add, built by its first call.
seq = keras.Sequential(name="grown")
seq.add(layers.Dense(3, kernel_initializer="ones", bias_initializer="zeros"))
seq.add(layers.Dropout(0.5))
print(seq.built)
y = seq(tf.ones([2, 5]))
print(seq.built, y)  # 5 ones summed per unit; Dropout is off outside training
seq.summary()

# ---- The functional API.
x = keras.Input(shape=(3,), name="features")
h = layers.Dense(2, kernel_initializer="ones", name="hidden")(x)
out = layers.Dense(1, kernel_initializer="ones", name="out")(h)
functional = keras.Model(inputs=x, outputs=out, name="chain")
functional.summary()
print(functional(tf.constant([[1.0, 2.0, 3.0]])))  # hidden: [6, 6]; out: 12
print([l.name for l in functional.layers])


# ---- A subclassed layer and model, `training` passed down by Keras.
class Linear(layers.Layer):
    def __init__(self, units=2, **kwargs):
        super().__init__(**kwargs)
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(name="w", shape=(input_shape[-1], self.units), initializer="ones", trainable=True)
        self.b = self.add_weight(name="b", shape=(self.units,), initializer="zeros", trainable=False)

    def call(self, inputs):
        return tf.matmul(inputs, self.w) + self.b


class Noisy(layers.Layer):
    def call(self, inputs, training=None):
        print("Noisy training =", training)
        return inputs


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.linear = Linear(2)
        self.noisy = Noisy()

    def call(self, x, training=False):
        return self.noisy(self.linear(x))


net = Net()
print(net(tf.ones([1, 3])))
net(tf.ones([1, 3]), training=True)
print(net.name, [w.name for w in net.weights], len(net.trainable_weights), len(net.non_trainable_weights))
net.summary()
dense = layers.Dense(2, kernel_initializer="ones")
print(dense(tf.ones([1, 2]), training=True))

# ---- trainable=False freezes every weight of a layer.
frozen = layers.Dense(2)
frozen(tf.ones([1, 2]))
frozen.trainable = False
print(len(frozen.trainable_weights), len(frozen.non_trainable_weights))

# ---- Setting trainable on a model sets it on every layer inside (Keras's
# setter); a frozen BatchNormalization runs in inference mode even when
# called with training=True, so its moving statistics stay 0 and 1.
net = keras.Sequential([layers.Dense(2, kernel_initializer="ones"), layers.BatchNormalization()])
net(tf.ones([2, 2]))
net.trainable = False
print([l.trainable for l in net.layers], len(net.trainable_weights))
out = net(tf.constant([[1.0, 2.0], [3.0, 4.0]]), training=True)
print(net.layers[1].moving_mean.numpy(), np.round(out.numpy(), 3))  # x / sqrt(1 + 0.001)
net.layers[0].trainable = True
print([l.trainable for l in net.layers], len(net.layers[0].trainable_weights), len(net.trainable_weights))

# ---- A Sequential with no input shape builds its graph from its first call
# (batch dim unknown); a later call of another length relaxes that dim.
inferred = keras.Sequential([layers.Dense(3, kernel_initializer="ones")])
inferred(tf.ones([2, 4]))
print(inferred.inputs[0].shape)
seq_model = keras.Sequential([layers.Dense(2)])
seq_model(tf.ones([2, 5, 4]))
seq_model(tf.ones([2, 7, 4]))
print(seq_model.inputs[0].shape)

# ---- Errors as Keras words them.
try:
    keras.Sequential([layers.Dense(2)]).summary()
except ValueError as e:
    print("ValueError:", e)
try:
    layers.Dense(2)(tf.ones([3]))
except ValueError as e:
    print("ValueError:", e)
try:
    layers.Dense(2, foo=1)
except TypeError as e:
    print("TypeError:", e)
