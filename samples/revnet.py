# From seed 002 (RevNet article): the reversible block Residual (call, backward_grads), its eager gradient check, apply_gradients and model_fn; ResidualInner is a small stand-in for the F and G ConvNets the article omits.
import tensorflow as tf


class ResidualInner(tf.keras.Model):
  """Stand-in for the article's F/G functions: BN -> ReLU -> 3x3 conv (channels_last)."""

  def __init__(self, filters, strides):
    super(ResidualInner, self).__init__()
    self.batch_norm = tf.keras.layers.BatchNormalization(axis=3)
    self.conv2d = tf.keras.layers.Conv2D(
        filters=filters, kernel_size=3, strides=strides, padding="SAME", use_bias=False)

  def call(self, x, training=True):
    net = self.batch_norm(x, training=training)
    net = tf.nn.relu(net)
    return self.conv2d(net)


class Residual(tf.keras.Model):
    def __init__(self, filters):
        super(Residual, self).__init__()
        self.axis = 3  # channels_last: split and concat along the channel axis
        self.f = ResidualInner(filters=filters, strides=(1, 1))
        self.g = ResidualInner(filters=filters, strides=(1, 1))

    def call(self, x, training=True):
        x1, x2 = tf.split(x, num_or_size_splits=2, axis=self.axis)
        f_x2 = self.f(x2, training=training)
        y1 = f_x2 + x1
        g_y1 = self.g(y1, training=training)
        y2 = g_y1 + x2
        return tf.concat([y1, y2], axis=self.axis)

    def backward_grads(self, y, dy, training=True):
        dy1, dy2 = dy
        y1, y2 = y

        with tf.GradientTape() as gtape:
            gtape.watch(y1)
            gy1 = self.g(y1, training=training)
        grads_combined = gtape.gradient(
                gy1, [y1] + self.g.trainable_variables, output_gradients=dy2)
        dg = grads_combined[1:]
        dx1 = dy1 + grads_combined[0]
        x2 = y2 - gy1

        with tf.GradientTape() as ftape:
            ftape.watch(x2)
            fx2 = self.f(x2, training=training)
        grads_combined = ftape.gradient(
                fx2, [x2] + self.f.trainable_variables,output_gradients=dx1)
        df = grads_combined[1:]
        dx2 = dy2 + grads_combined[0]
        x1 = y1 - fx2

        x = x1, x2
        dx = dx1, dx2
        grads = df + dg

        return x, dx, grads


# Eager check: reversible backprop gives the same input gradient as ordinary backprop.
# (The seed's snippet is TF 1.x and NCHW; here NHWC, TF 2 names, and backward_grads
# called with the (y1, y2) / (dy1, dy2) pairs its signature expects.)
N, H, W, C = 2, 8, 8, 4
block = Residual(filters=C // 2)
x = tf.random.normal(shape=(N, H, W, C))
dy = tf.random.normal(shape=(N, H, W, C))
with tf.GradientTape() as tape:
    tape.watch(x)
    y = block(x)
# Compute true grads
dx_true = tape.gradient(y, x, output_gradients=dy)

# Compute grads from reconstruction
y1, y2 = tf.split(y, num_or_size_splits=2, axis=3)
dy1, dy2 = tf.split(dy, num_or_size_splits=2, axis=3)
_, dx, _ = block.backward_grads((y1, y2), (dy1, dy2))
dx = tf.concat(dx, axis=3)

# Check whether the difference is below a certain threshold
thres = 1e-4
diff_abs = tf.reshape(abs(dx - dx_true), [-1])
assert all(diff_abs < thres)
print("Reversible and ordinary backprop agree within", thres)


# Graph execution of the forward pass (tfe.defun in the seed; tf.function in TF 2).
block.call = tf.function(block.call)
print(block(x).shape)


def apply_gradients(optimizer, gradients, variables, global_step=None):
        optimizer.apply_gradients(
                zip(gradients, variables), global_step=global_step)
apply_gradients = tf.function(apply_gradients)


# The seed's Estimator model_fn (TF 1.x API: tf.estimator, tf.train.MomentumOptimizer).
# Defined for conversion only; it is not called here.
def model_fn(features, labels, mode, params):
    model = RevNet(params["hyperparameters"])
    if mode == tf.estimator.ModeKeys.TRAIN:
        optimizer = tf.train.MomentumOptimizer(learning_rate, momentum)
        logits, saved_hidden = model(features, training=True)
        grads, loss = model.compute_gradients(saved_hidden, labels, training=True)
        with tf.control_dependencies(model.get_updates_for(features)):
            train_op = optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return tf.estimator.EstimatorSpec(mode=mode, loss=loss, train_op=train_op)
