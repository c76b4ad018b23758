# Keras's training loop on data small enough that every printed number is
# worked out by hand in the comments: compile/fit/evaluate/predict, History,
# metrics_names, a user Callback, EarlyStopping, LearningRateScheduler, a
# custom train_step (the Keras guide's), and Keras's errors.
# Expected output: TensorFlow 2.15's text; the values are the hand computations.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

# ---- compile/fit/evaluate/predict: y = 2x, a zero-initialized Dense(1), SGD 0.1.
# Batch of both samples x = [1, 2], y = [2, 4]; w = b = 0 at first.
# Epoch 1: pred 0, loss = (4 + 16) / 2 = 10; dL/dw = -(2*1 + 4*2) = -10,
#   dL/db = -(2 + 4) = -6; w = 1.0, b = 0.6.
# Epoch 2: pred [1.6, 2.6], errors [-0.4, -1.4], loss = (0.16 + 1.96) / 2 = 1.06.
reg = keras.Sequential([layers.Dense(1, kernel_initializer="zeros", input_shape=(1,))])
reg.compile(optimizer=keras.optimizers.SGD(learning_rate=0.1), loss="mse", metrics=["mae"])
xs = np.array([[1.0], [2.0]], dtype=np.float32)
ys = np.array([[2.0], [4.0]], dtype=np.float32)
history = reg.fit(xs, ys, batch_size=2, epochs=2, shuffle=False, verbose=0)
print({k: [round(v, 4) for v in vs] for k, vs in history.history.items()})
print(history.epoch, history.params)
# After epoch 2: errors [-0.4, -1.4] give dw = -(0.4 + 2.8) = -3.2, db = -1.8:
# w = 1.32, b = 0.78; predictions [2.1, 3.42], errors [0.1, -0.58],
# mse = (0.01 + 0.3364) / 2 = 0.1732, mae = 0.34.
print([round(v, 4) for v in reg.evaluate(xs, ys, verbose=0)])
print(reg.predict(xs, verbose=0))
print(reg.metrics_names)



# ---- A user callback sees Keras's hooks in order, before History.
class Recorder(keras.callbacks.Callback):
    def on_train_begin(self, logs=None):
        print("train begin", self.params)

    def on_epoch_end(self, epoch, logs=None):
        print("epoch", epoch, sorted(logs.keys()))

    def on_train_end(self, logs=None):
        print("train end")


reg.fit(xs, ys, batch_size=2, epochs=1, shuffle=False, verbose=0, callbacks=[Recorder()],
        validation_data=(xs, ys))


# ---- LearningRateScheduler: the schedule's rate is set before each epoch.
def schedule(epoch, lr):
    return 0.5 if epoch == 0 else lr / 2


h = reg.fit(xs, ys, batch_size=2, epochs=2, shuffle=False, verbose=0,
            callbacks=[keras.callbacks.LearningRateScheduler(schedule, verbose=1)])
print([round(float(v), 4) for v in h.history["lr"]])

# ---- EarlyStopping on a loss that cannot improve (a zero learning rate).
still = keras.Sequential([layers.Dense(1, kernel_initializer="zeros", input_shape=(1,))])
still.compile(optimizer=keras.optimizers.SGD(learning_rate=0.0), loss="mse")
stop = keras.callbacks.EarlyStopping(monitor="loss", patience=1, verbose=1)
h = still.fit(xs, ys, batch_size=2, epochs=10, verbose=0, callbacks=[stop])
print(h.epoch, stop.stopped_epoch)


# ---- A custom train_step, as the Keras guide writes it.
class Custom(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = layers.Dense(1, kernel_initializer="zeros")
        self.loss_tracker = keras.metrics.Mean(name="loss")

    def call(self, x):
        return self.dense(x)

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = tf.reduce_mean(tf.square(y - y_pred))
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        self.loss_tracker.update_state(loss)
        return {"loss": self.loss_tracker.result()}

    @property
    def metrics(self):
        return [self.loss_tracker]


custom = Custom()
custom.compile(optimizer=keras.optimizers.SGD(learning_rate=0.1))
h = custom.fit(xs, ys, batch_size=2, epochs=2, shuffle=False, verbose=0)
print({k: [round(v, 4) for v in vs] for k, vs in h.history.items()})  # the same 10 and 1.06 as above

# ---- class_weight: Keras turns it into sample weights, indexed by the label
# itself or by a one-hot row's argmax. A zero model predicts 0, so each
# sample's MSE is its label squared (averaged over the row).
cw_model = keras.Sequential([layers.Dense(1, kernel_initializer="zeros", use_bias=False)])
cw_model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.0), loss="mse")
cx = np.ones((4, 1), dtype="float32")
cy = np.array([[0.0], [1.0], [1.0], [0.0]], dtype="float32")
h = cw_model.fit(cx, cy, class_weight={0: 1.0, 1: 3.0}, batch_size=4, verbose=0)
print(h.history)  # losses 0, 1, 1, 0 weighted 1, 3, 3, 1: 6 / 4
sw = np.array([1.0, 1.0, 0.5, 2.0], dtype="float32")
h = cw_model.fit(cx, cy, sample_weight=sw, class_weight={0: 1.0, 1: 3.0}, batch_size=4, verbose=0)
print(h.history)  # weights multiply: (3 + 1.5) / 4
onehot = keras.Sequential([layers.Dense(2, kernel_initializer="zeros", use_bias=False)])
onehot.compile(optimizer=keras.optimizers.SGD(learning_rate=0.0), loss="mse")
oy = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 1.0]], dtype="float32")
h = onehot.fit(np.ones((3, 1), dtype="float32"), oy, class_weight={0: 2.0, 1: 1.0}, verbose=0)
print(round(h.history["loss"][0], 4))  # each 0.5, weighted 2, 1, 1: 2 / 3
try:
    cw_model.fit(cx, cy, class_weight={1: 1.0, 2: 3.0}, verbose=0)
except ValueError as e:
    print("ValueError:", e)

# ---- keras.utils.to_categorical: one row per label (a trailing 1 dropped).
print(keras.utils.to_categorical([1, 0, 3]))
print(keras.utils.to_categorical(np.array([[2], [1]]), num_classes=4, dtype="int32"))
try:
    keras.utils.to_categorical([5], num_classes=3)
except IndexError as e:
    print("IndexError:", e)

# ---- Errors as Keras words them.
try:
    keras.Sequential([layers.Dense(1)]).fit(xs, ys)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    reg.compile(optimizer="nope", loss="mse")
except ValueError as e:
    print("ValueError:", e)
try:
    reg.fit(xs, ys, validation_split=0.9)
except ValueError as e:
    print("ValueError:", e)
