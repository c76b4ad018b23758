# Keras weights on disk: save_weights/load_weights in TF's checkpoint format
# (keys as Keras names them: layer_with_weights-N, the Sequential's own Input
# as layer-0), ModelCheckpoint's messages and files, model.save as a
# SavedModel whose serving signature names inputs and outputs by layer.
# Expected output: TensorFlow 2.15's (keys and texts from Keras 2.15's rules;
# values are the constant initializers').
import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

d = tempfile.mkdtemp()
m = keras.Sequential([layers.Dense(2, kernel_initializer="ones", input_shape=(3,)), layers.Dense(1, kernel_initializer="ones")])
m.save_weights(os.path.join(d, "ckpt"))
print(sorted(os.listdir(d)))
for name, shape in tf.train.list_variables(os.path.join(d, "ckpt")):
    print(name, shape)

fresh = keras.Sequential([layers.Dense(2, input_shape=(3,)), layers.Dense(1)])
fresh.load_weights(os.path.join(d, "ckpt"))
print(fresh(tf.ones([1, 3])))  # hidden [3, 3], output 6


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = layers.Dense(2, kernel_initializer="ones")

    def call(self, x):
        return self.hidden(x)


net = Net()
net(tf.ones([1, 2]))
net.save_weights(os.path.join(d, "net"))
for name, shape in tf.train.list_variables(os.path.join(d, "net")):
    print(name, shape)

# ModelCheckpoint with save_best_only: a zero learning rate keeps the loss at 10.
xs = np.array([[1.0], [2.0]], dtype=np.float32)
ys = np.array([[2.0], [4.0]], dtype=np.float32)
reg = keras.Sequential([layers.Dense(1, kernel_initializer="zeros", input_shape=(1,))])
reg.compile(optimizer=keras.optimizers.SGD(learning_rate=0.0), loss="mse")
os.chdir(d)
best = "best-{epoch:02d}"
reg.fit(xs, ys, epochs=2, verbose=0, callbacks=[keras.callbacks.ModelCheckpoint(best, monitor="loss", save_best_only=True, save_weights_only=True, verbose=1)])
print(sorted(f for f in os.listdir(d) if f.startswith("best")))

# model.save: a SavedModel serving the model by its layers' names.
x = keras.Input(shape=(3,), name="features")
y = layers.Dense(1, kernel_initializer="ones", name="score")(x)
model = keras.Model(x, y)
model.save(os.path.join(d, "saved"))
loaded = tf.saved_model.load(os.path.join(d, "saved"))
serve = loaded.signatures["serving_default"]
print(serve(features=tf.constant([[1.0, 2.0, 3.0]])))

# A checkpoint's layer-N keys count the layers as Keras's self.layers does:
# a Sequential's InputLayer is not among them, a functional model's is.
seq = keras.Sequential([keras.Input(shape=(3,), name="seq_in"), layers.Dense(2, name="d_a"),
                        layers.Dropout(0.5, name="drop_a"), layers.Dense(1, name="d_b")])
print([(k, v.name) for k, v in seq._trackable_children().items() if k.startswith("layer")])
fn_in = keras.Input(shape=(3,), name="fn_in")
fn = keras.Model(fn_in, layers.Dense(1, name="d_c")(fn_in))
print([(k, v.name) for k, v in fn._trackable_children().items() if k.startswith("layer")])
