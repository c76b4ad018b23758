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


# RMSprop (plain; centered with momentum), Adagrad and AdamW: three steps on
# sum(w^3) from [1, -2] (values from Keras 2's formulas).
def three_steps(opt):
    w = tf.Variable([1.0, -2.0])
    for _ in range(3):
        with tf.GradientTape() as t:
            loss = tf.reduce_sum(w * w * w)
        opt.apply_gradients(zip(t.gradient(loss, [w]), [w]))
    return w


print(three_steps(tf.keras.optimizers.RMSprop(0.1)))
print(three_steps(tf.keras.optimizers.RMSprop(0.1, momentum=0.5, centered=True)))
print(three_steps(tf.keras.optimizers.Adagrad(0.1)))
print(three_steps(tf.keras.optimizers.AdamW(0.1)))

# Learning-rate schedules, alone and driving an optimizer.
decay = tf.keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
print(decay(0), decay(10), decay(15))
print(tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5, staircase=True)(15))
pieces = tf.keras.optimizers.schedules.PiecewiseConstantDecay([5, 10], [1.0, 0.5, 0.1])
print(pieces(5), pieces(6), pieces(11))
print(tf.keras.optimizers.schedules.CosineDecay(1.0, 10, alpha=0.1)(20))
w = tf.Variable(1.0)
opt = tf.keras.optimizers.SGD(learning_rate=pieces)
for i in range(7):
    opt.apply_gradients([(tf.constant(1.0), w)])
print(w)
print(opt.learning_rate)

# optimizer.variables in Keras's build() order, which numbers the checkpoint
# keys optimizer/_variables/N: Adam makes m and v variable by variable, then
# amsgrad's vhat; RMSprop one slot kind after the other.
a = tf.Variable([1.0], name="a")
b = tf.Variable([2.0], name="b")
adam = tf.keras.optimizers.Adam(amsgrad=True)
adam.build([a, b])
print([v.name for v in adam.variables])
rms = tf.keras.optimizers.RMSprop(momentum=0.5, centered=True)
rms.build([a, b])
print([v.name for v in rms.variables])
