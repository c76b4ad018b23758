# Training with a custom loop: a linear regression trained by SGD inside a
# tf.function, and a reversible block (RevNet, GRADIENTS.md acceptance test
# 31, adapted as the spec says) whose hand-written backward pass equals the
# tape's gradient. Expected output: TensorFlow 2's (the values follow from
# the math; printed rounded, as the seeds' training logs are).
import tensorflow as tf

# Linear regression y = 3x + 2, trained with SGD inside a tf.function.
xs = tf.constant([[0.0], [1.0], [2.0], [3.0], [4.0]])
ys = 3.0 * xs + 2.0
w = tf.Variable([[0.0]])
b = tf.Variable([0.0])
opt = tf.keras.optimizers.SGD(0.05)


@tf.function
def train_step():
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(xs @ w + b - ys))
    grads = tape.gradient(loss, [w, b])
    opt.apply_gradients(zip(grads, [w, b]))
    return loss


for step in range(300):
    loss = train_step()
    if step % 100 == 0:
        print(f"step {step}: loss {float(loss):.4f}")
print(f"w {float(w[0, 0]):.3f} b {float(b[0]):.3f}")


# A reversible block (RevNet, GRADIENTS.md test 31) with dense F and G: its
# hand-written backward pass, rebuilding x from y, equals tape.gradient.
class Dense2(tf.Module):
    def __init__(self, scale):
        self.w = tf.Variable([[0.5 * scale, -0.3], [0.2, 0.4 * scale]])

    def __call__(self, x):
        return tf.tanh(x @ self.w)


class Reversible(tf.Module):
    def __init__(self):
        self.f = Dense2(1)
        self.g = Dense2(2)

    def __call__(self, x):
        x1, x2 = tf.split(x, 2, axis=1)
        y1 = x1 + self.f(x2)
        y2 = x2 + self.g(y1)
        return tf.concat([y1, y2], axis=1)

    def backward_grads(self, y, dy):
        y1, y2 = tf.split(y, 2, axis=1)
        dy1, dy2 = tf.split(dy, 2, axis=1)
        with tf.GradientTape() as gtape:
            gtape.watch(y1)
            gy1 = self.g(y1)
        grads = gtape.gradient(gy1, [y1] + list(self.g.trainable_variables), output_gradients=dy2)
        dx1 = dy1 + grads[0]
        x2 = y2 - gy1
        with tf.GradientTape() as ftape:
            ftape.watch(x2)
            fx2 = self.f(x2)
        fgrads = ftape.gradient(fx2, [x2] + list(self.f.trainable_variables), output_gradients=dx1)
        dx2 = dy2 + fgrads[0]
        return tf.concat([dx1, dx2], axis=1), len(grads), len(self.g.trainable_variables)


block = Reversible()
x = tf.constant([[0.1, -0.2, 0.3, 0.4], [0.5, 0.1, -0.3, 0.2]])
dy = tf.constant([[1.0, 0.5, -0.5, 0.25], [0.2, -1.0, 0.3, 0.1]])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = block(x)
direct = tape.gradient(y, x, output_gradients=dy)
rebuilt, n_grads, n_vars = block.backward_grads(y, dy)
print(bool(tf.reduce_max(tf.abs(direct - rebuilt)) < 1e-6), n_grads == 1 + n_vars)
