# tf.keras.optimizers.SGD and Adam (GRADIENTS.md section 4, acceptance tests
# 23 to 26), Keras 2's update rules and messages. Expected output: TF 2.15 /
# Keras 2's (values from the formulas, texts from keras/optimizers).
import tensorflow as tf


def sgd_steps(steps, momentum=0.0, nesterov=False):
    w = tf.Variable(2.0)
    opt = tf.keras.optimizers.SGD(0.1, momentum=momentum, nesterov=nesterov)
    for _ in range(steps):
        with tf.GradientTape() as t:
            loss = w * w
        opt.apply_gradients(zip(t.gradient(loss, [w]), [w]))
    return w


# 23. w*w at w = 2: plain, momentum (two steps), nesterov.
print(sgd_steps(1))
print(sgd_steps(2, momentum=0.9))
print(sgd_steps(1, momentum=0.9, nesterov=True))

# 24. Adam on 2*w at w = 1: one step of lr.
w = tf.Variable(1.0)
adam = tf.keras.optimizers.Adam()
with tf.GradientTape() as t:
    loss = 2 * w
adam.apply_gradients(zip(t.gradient(loss, [w]), [w]))
print(w)
print(adam.iterations)
print(adam.learning_rate)

# 25. No gradient at all, then a gradient for one variable of two.
v = tf.Variable(3.0)
try:
    tf.keras.optimizers.SGD().apply_gradients([(None, v)])
except ValueError as e:
    print(e)
v4 = tf.Variable(1.0, name='v4')
v5 = tf.Variable(1.0, name='v5')
tf.keras.optimizers.SGD(0.5).apply_gradients([(tf.constant(1.0), v4), (None, v5)])
print(v4, v5)

# An empty list is a no-op.
print(tf.keras.optimizers.SGD().apply_gradients([]))

# minimize with a callable loss, three steps on (w - 1)^2.
w = tf.Variable(3.0)
opt = tf.keras.optimizers.SGD(learning_rate=0.1)
for _ in range(3):
    opt.minimize(lambda: (w - 1.0) ** 2, [w])
print(w)
try:
    opt.minimize(w * 2.0, [w])
except ValueError as e:
    print(str(e)[:45])

# Adam with amsgrad and gradient clipping inside a tf.function.
w = tf.Variable([1.0, -2.0])
opt = tf.keras.optimizers.Adam(0.1, amsgrad=True, clipnorm=1.0)


@tf.function
def step():
    with tf.GradientTape() as t:
        loss = tf.reduce_sum(w * w * 10.0)
    opt.apply_gradients(zip(t.gradient(loss, [w]), [w]))


for _ in range(3):
    step()
print(w)
print(opt.iterations)

# An optimizer only updates the variables it was built for.
other = tf.Variable(1.0)
try:
    opt.apply_gradients([(tf.constant([1.0, 1.0]), w), (tf.constant(1.0), other)])
except KeyError as e:
    print(type(e).__name__)

try:
    tf.keras.optimizers.SGD(momentum=1.5)
except ValueError as e:
    print(e)
