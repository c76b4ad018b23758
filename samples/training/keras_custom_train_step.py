# A model that overrides train_step and test_step, as the Keras guide
# "Customizing what happens in fit()" of TF 2.15 writes them: the functional
# constructor on a Model subclass, the loss from self.compiled_loss (which
# also tracks it), the optimizer applied by hand, self.compiled_metrics
# updated, then fit and evaluate run the overrides.
#
# Data (1,000 rows of 32 features) and the initial weights are deterministic
# formulas (the guide draws them), so TensorFlow prints the same numbers;
# reference/keras_custom_train_step.py recomputes them in float32 with
# PyTorch.
import numpy as np
import tensorflow as tf
from tensorflow import keras


class CustomModel(keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)  # Forward pass
            # Compute the loss value
            # (the loss function is configured in `compile()`)
            loss = self.compiled_loss(y, y_pred, regularization_losses=self.losses)
        # Compute gradients
        trainable_vars = self.trainable_variables
        gradients = tape.gradient(loss, trainable_vars)
        # Update weights
        self.optimizer.apply_gradients(zip(gradients, trainable_vars))
        # Update metrics (includes the metric that tracks the loss)
        self.compiled_metrics.update_state(y, y_pred)
        # Return a dict mapping metric names to current value
        return {m.name: m.result() for m in self.metrics}

    def test_step(self, data):
        x, y = data
        y_pred = self(x, training=False)
        # Updates the metric tracking the loss
        self.compiled_loss(y, y_pred, regularization_losses=self.losses)
        # Update the metrics.
        self.compiled_metrics.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


rows = np.arange(1000)[:, None]
features = np.arange(32)[None, :]
x = (np.sin(rows * 0.37 + features * 0.11) * 0.5 + 0.5).astype(np.float32)
y = (x[:, :8].sum(axis=1, keepdims=True) * 0.25 - x[:, 8:12].mean(axis=1, keepdims=True)).astype(np.float32)


def ramp_init(shape, dtype=None):
    return tf.reshape(tf.cos(tf.range(shape[0] * shape[1], dtype=tf.float32) * 0.9), shape) * 0.2


inputs = keras.Input(shape=(32,))
outputs = keras.layers.Dense(1, kernel_initializer=ramp_init)(inputs)
model = CustomModel(inputs, outputs)
model.compile(optimizer=keras.optimizers.Adam(learning_rate=0.002), loss="mse", metrics=["mae"])
history = model.fit(x, y, epochs=3, shuffle=False, verbose=0)
for key, values in history.history.items():
    print(key, " ".join("%.4f" % v for v in values))
print("evaluate", ["%.4f" % v for v in model.evaluate(x, y, verbose=0)])
