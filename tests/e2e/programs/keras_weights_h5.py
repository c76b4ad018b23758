# Keras weights in HDF5 files: save_weights/load_weights with an .h5 path
# (Keras's legacy layout, loaded by layer order or by name) and with a
# .weights.h5 path (saving_lib's layout), and Keras's errors when a file does
# not fit the model.
# Expected output: TensorFlow 2.15's (texts from Keras 2.15's sources; values
# from the constant initializers: hidden = 1 + 2 + 3 + 1 = 7 per unit, out =
# 7 + 7; the regression's steps are exact binary fractions, worked below).
import os
import tempfile

import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers


def model(names, units=2, out_bias=True):
    return keras.Sequential([
        layers.Dense(units, input_shape=(3,), name=names[0]),
        layers.Dropout(0.5, name=names[1]),
        layers.Dense(1, use_bias=out_bias, name=names[2]),
    ])


def attempt(f):
    try:
        f()
    except Exception as e:
        print(type(e).__name__ + ":", str(e).replace(d, "DIR"))


d = tempfile.mkdtemp()
h5 = os.path.join(d, "weights.h5")
trained = keras.Sequential([
    layers.Dense(2, kernel_initializer="ones", bias_initializer="ones", input_shape=(3,), name="hidden"),
    layers.Dropout(0.5, name="drop"),
    layers.Dense(1, kernel_initializer="ones", name="out"),
])
x = tf.constant([[1.0, 2.0, 3.0]])
print(trained(x))
trained.save_weights(h5)
print(sorted(os.listdir(d)))

# By layer order: other names, the same layers with weights.
fresh = model(["a", "b", "c"])
print(fresh.load_weights(h5))
print(fresh(x))

# By name: "hidden" matches, "head" keeps its zeros.
partial = keras.Sequential([
    layers.Dense(2, kernel_initializer="zeros", input_shape=(3,), name="hidden"),
    layers.Dense(1, kernel_initializer="zeros", name="head"),
])
partial.load_weights(h5, by_name=True)
print(partial.get_layer("hidden").kernel.numpy())
print(partial(x))

# Files that do not fit the model.
attempt(lambda: model(["w1", "w2", "w3"], units=4).load_weights(h5))
attempt(lambda: model(["n1", "n2", "n3"], out_bias=False).load_weights(h5))
attempt(lambda: keras.Sequential([layers.Dense(2, input_shape=(3,)), layers.Dense(2), layers.Dense(1)]).load_weights(h5))
attempt(lambda: model(["hidden", "x2", "x3"], units=4).load_weights(h5, by_name=True))
attempt(lambda: fresh.load_weights(h5, skip_mismatch=True))
attempt(lambda: fresh.save_weights(h5, save_format="tf"))
attempt(lambda: fresh.save_weights(os.path.join(d, "w"), save_format="json"))
try:
    fresh.load_weights(os.path.join(d, "missing.h5"))
except OSError as e:
    print(type(e).__name__)  # h5py's text comes from the HDF5 library's

# The .weights.h5 layout: the same round trip, its own mismatch error.
v3 = os.path.join(d, "model.weights.h5")
trained.save_weights(v3)
again = model(["e", "f", "g"])
print(again.load_weights(v3))
print(again(x))
attempt(lambda: model(["p", "q", "r"], out_bias=False).load_weights(v3))


# A subclassed model: its layers in attribute order.
class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = layers.Dense(2, kernel_initializer="ones")
        self.out = layers.Dense(1, kernel_initializer="ones")

    def call(self, x):
        return self.out(self.hidden(x))


net = Net()
print(net(x))
net.save_weights(os.path.join(d, "net.h5"))
net.save_weights(os.path.join(d, "net.weights.h5"))
attempt(lambda: Net().load_weights(os.path.join(d, "net.h5")))
for name in ["net.h5", "net.weights.h5"]:
    other = Net()
    other(x)
    other.hidden.kernel.assign(tf.zeros([3, 2]))
    other.load_weights(os.path.join(d, name))
    print(name, other(x))

# A trained model: .weights.h5 keeps its optimizer's state too. Full-batch
# SGD at 1/16 on y = 2x from w = b = 0: gradients (-10, -6), then w = 0.625,
# b = 0.375 and gradients (-5.75, -3.375), then w = 0.984375, b = 0.5859375.
reg = keras.Sequential([layers.Dense(1, kernel_initializer="zeros", input_shape=(1,))])
reg.compile(optimizer=keras.optimizers.SGD(learning_rate=0.0625), loss="mse")
xs = tf.constant([[1.0], [2.0]])
ys = tf.constant([[2.0], [4.0]])
reg.fit(xs, ys, epochs=2, verbose=0)
reg.save_weights(os.path.join(d, "reg.weights.h5"))
reg2 = keras.Sequential([layers.Dense(1, input_shape=(1,))])
reg2.compile(optimizer=keras.optimizers.SGD(learning_rate=0.0625), loss="mse")
reg2.optimizer.build(reg2.trainable_variables)
reg2.load_weights(os.path.join(d, "reg.weights.h5"))
print(reg2.optimizer.iterations.numpy())
print(reg2.get_weights())
