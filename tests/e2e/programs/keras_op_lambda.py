# TF functions and tensor operators on Keras's symbolic tensors (KerasTensors)
# become layers of the functional model (TFOpLambda), named after the
# function's canonical TF symbol, as Keras 2 (TF 2.15) builds them; the model
# then runs, trains and summarizes them like any layer. KerasTensors print as
# Keras prints them.
import numpy as np
import tensorflow as tf
from tensorflow import keras

tf.random.set_seed(7)
a = keras.Input(shape=(4,), name="a")
b = keras.Input(shape=(4,), name="b")
print(a)
print(repr(b))
print(keras.Input(shape=(2, 3)))
print(keras.Input(shape=(5,), dtype="int32"))

h = keras.layers.Dense(3, activation="tanh", name="hidden")(a)
print(h)
mixed = 2.0 * h - 1.0                       # __rmul__ then __sub__
scaled = mixed / 4.0 + tf.reduce_mean(b, axis=-1, keepdims=True)
both = tf.concat([-scaled, abs(h)], axis=1)
both = tf.reshape(both, [-1, 2, 3])
flat = tf.reshape(both, (-1, 6)) * tf.math.sigmoid(tf.add(tf.reduce_sum(a, axis=1, keepdims=True), 0.5))
print(flat)
out = keras.layers.Dense(1, name="out")(flat)
model = keras.Model([a, b], out)
model.summary()
print([layer.name for layer in model.layers])
print(sorted({type(layer).__name__ for layer in model.layers}))

xa = np.linspace(-1.0, 1.0, 32).astype(np.float32).reshape(8, 4)
xb = np.cos(np.arange(32, dtype=np.float32)).reshape(8, 4)
y = np.sin(np.arange(8, dtype=np.float32)).reshape(8, 1)
pred = model.predict([xa, xb], verbose=0)
print(pred.shape, np.round(pred[:3, 0], 5))

# The same arithmetic written out on the layers' own outputs.
hv = model.get_layer("hidden")(xa)
m = (2.0 * hv - 1.0) / 4.0 + tf.reduce_mean(xb, axis=-1, keepdims=True)
f = tf.reshape(tf.concat([-m, tf.abs(hv)], axis=1), (-1, 6)) * tf.math.sigmoid(tf.reduce_sum(xa, 1, keepdims=True) + 0.5)
print(float(tf.reduce_max(tf.abs(model.get_layer("out")(f) - pred))))

model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
history = model.fit([xa, xb], y, epochs=3, batch_size=4, shuffle=False, verbose=0)
print([round(v, 5) for v in history.history["loss"]])  # PyTorch from the same weights: 0.57152, 0.45961, 0.42513

# A second call of the same function gets the next name; a symbolic value
# cast to another dtype keeps it (TFOpLambda does not autocast).
c = keras.Input(shape=(3,), dtype="float64", name="c")
twice = tf.cast(c * 2.0, tf.int32) * 3
m2 = keras.Model(c, twice)
print([layer.name for layer in m2.layers], twice.dtype)
print(m2(np.array([[0.6, 1.5, -2.2]])).numpy())

# Keras needs the first argument by position.
try:
    tf.concat(values=[c, c], axis=1)
except ValueError as e:
    print("ValueError:", e)

# Subscripts and boolean masks make SlicingOpLambda layers.
s = keras.Input(shape=(3, 4), name="s")
first, last, tail = s[:, 0], s[:, -1, 1:3], s[1:]
masked = tf.boolean_mask(s, tf.constant([True, False, True]), axis=1)
print(first)
sliced = keras.Model(s, [first, last, tail, masked])
sliced.summary()
for o in sliced(np.arange(24, dtype=np.float32).reshape(2, 3, 4)):
    print(o.shape, o.numpy().ravel().tolist())
