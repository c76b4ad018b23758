# `from ... import` of TensorFlow, NumPy and the standard modules, as guides
# write it: each imported name is the module's own (TF's and CPython's
# values and identities).
from tensorflow import keras
from tensorflow.keras import layers
from tensorflow.keras.layers import Dense
from math import sqrt, pi as PI
from numpy import zeros
import tensorflow as tf

d = Dense(2, kernel_initializer="ones")
print(d(tf.ones([1, 3])))
print(layers.Dense is Dense, keras.layers.Dense is tf.keras.layers.Dense, keras.optimizers.SGD is tf.keras.optimizers.SGD)
print(sqrt(16), PI, zeros(3))

scale = layers.Dense(1, kernel_initializer="ones")


@tf.function
def f(x):
    return scale(x) * sqrt(4.0)


print(f(tf.ones([1, 2])))
