# tf.GradientTape: the acceptance tests of ../shared/GRADIENTS.md section 8
# that need no control-flow gradient. Expected output: TensorFlow 2's (the
# texts and values the spec quotes from TF's sources and tests).
import tensorflow as tf


# 1. S000: a tf.function called under a tape.
@tf.function
def add(a, b):
    return a + b


v = tf.Variable(1.0)
with tf.GradientTape() as tape:
    result = add(v, 1.0)
print(tape.gradient(result, v))

# 2. watch
x = tf.constant(3.0)
with tf.GradientTape() as g:
    g.watch(x)
    y = x * x
print(g.gradient(y, x))

# 3. nested tapes: second derivatives
x = tf.constant(5.0)
with tf.GradientTape() as g:
    g.watch(x)
    with tf.GradientTape() as gg:
        gg.watch(x)
        y = x * x
    dy_dx = gg.gradient(y, x)
d2y_dx2 = g.gradient(dy_dx, x)
print(dy_dx)
print(d2y_dx2)

# 4. persistent
x = tf.constant(3.0)
with tf.GradientTape(persistent=True) as g:
    g.watch(x)
    y = x * x
    z = y * y
print(g.gradient(z, x))
print(g.gradient(y, x))

# 5. a second gradient of a non-persistent tape
x = tf.constant(3.0)
with tf.GradientTape() as g:
    g.watch(x)
    y = x * x
g.gradient(y, x)
try:
    g.gradient(y, x)
except RuntimeError as e:
    print("RuntimeError:", e)

# 6. watch_accessed_variables=False
a = tf.Variable(2.0)
w = tf.Variable(5.0)
with tf.GradientTape(watch_accessed_variables=False, persistent=True) as tape:
    tape.watch(a)
    y = a ** 2
    z = w ** 3
print(tape.gradient(y, a))
print(tape.gradient(z, w))

# 8. stop_recording
x = tf.constant(3.0)
with tf.GradientTape(persistent=True) as t:
    t.watch(x)
    with t.stop_recording():
        y = x ** 2
print(t.gradient(y, x))

# 9. unconnected gradients
x = tf.ones([2, 2])
y = tf.constant(3.0)
with tf.GradientTape(persistent=True) as t:
    t.watch(x)
    z = y * 2.0
print(t.gradient(z, x, unconnected_gradients="zero"))
try:
    t.gradient(z, x, unconnected_gradients="nonsense")
except ValueError as e:
    print("ValueError:", e)

# 10. several targets, a target that is a source, a non-scalar target
x = tf.constant(1.0)
y = tf.constant(1.0)
with tf.GradientTape(persistent=True) as t:
    t.watch([x, y])
    tx = 2 * x
    ty = 3 * y
print(t.gradient([tx, ty], [x, y]))
x = tf.constant(2.0)
with tf.GradientTape() as t:
    t.watch(x)
    sq = x * x
print(t.gradient([x, sq], x))
v = tf.Variable(1.0)
with tf.GradientTape() as t:
    prod = v * [3.0, 4.0]
print(t.gradient(prod, v))

# 11. output_gradients
x = tf.constant(3.0)
y = tf.constant(2.0)
with tf.GradientTape() as t:
    t.watch([x, y])
    p = x * y
print(t.gradient([p, x], [x], output_gradients=[1.0, 2.0]))

# 12. nested structures of sources
x1 = tf.constant(1.0)
x2 = tf.constant(1.0)
x3 = tf.constant(1.0)
with tf.GradientTape() as t:
    t.watch([x1, x2, x3])
    s = x1 + 2 * x2 + 3 * x3
print(t.gradient(s, [x1, {"x2": x2, "x3": x3}]))

# 13. re-entering a recording tape
with tf.GradientTape() as t:
    try:
        with t:
            pass
    except ValueError as e:
        print("ValueError:", e)

# 14. no target
x = tf.constant(1.0)
with tf.GradientTape() as t:
    t.watch(x)
try:
    t.gradient(None, x)
except TypeError as e:
    print("TypeError:", e)

# 18. ties: reduce_max shares, maximum gives x, relu is 0 at 0
x = tf.constant([1.0, 3.0, 3.0])
with tf.GradientTape() as t:
    t.watch(x)
    m = tf.reduce_max(x)
print(t.gradient(m, x))
x = tf.constant(1.0)
y = tf.constant(1.0)
with tf.GradientTape() as t:
    t.watch([x, y])
    m = tf.maximum(x, y)
print(t.gradient(m, [x, y]))
x = tf.constant(0.0)
with tf.GradientTape() as t:
    t.watch(x)
    r = tf.nn.relu(x)
print(t.gradient(r, x))

# 19. tf.where picks its branch's gradient
for value in [5.0, 50.0]:
    x = tf.constant(value)
    with tf.GradientTape() as t:
        t.watch(x)
        r = tf.where(x < 10, x, x * x)
    print(t.gradient(r, x))

# 20. integer paths and stop_gradient give None
x = tf.constant([1.0, 2.0])
with tf.GradientTape(persistent=True) as t:
    t.watch(x)
    i = tf.cast(x, tf.int32)
    k = tf.stop_gradient(tf.argmax(x))
    s = tf.reduce_sum(tf.stop_gradient(x) * x)
print(t.gradient(i, x))
print(t.gradient(k, x))
print(t.gradient(s, x))


# A tape inside a tf.function: the gradient is part of the graph.
@tf.function
def cube_grad(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x * x
    return t.gradient(y, x)


print(cube_grad(tf.constant(2.0)))


# Trainable variables are watched as they are read; trainable=False ones are not.
w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
b = tf.Variable([1.0, -7.0])
frozen = tf.Variable(10.0, trainable=False)
x = tf.constant([[1.0, 1.0]])
with tf.GradientTape() as t:
    out = tf.nn.relu(tf.matmul(x, w) + b) * frozen
    loss = tf.reduce_mean(out)
gw, gb, gf = t.gradient(loss, [w, b, frozen])
print(gw)
print(gb)
print(gf)
print(len(t.watched_variables()))


# 22. tf.custom_gradient: the tape records one op whose backward is grad_fn.
@tf.custom_gradient
def square_with_wrong_gradient(x):
    def grad(dy):
        return 4 * dy

    return x * x, grad


x = tf.constant(1.0)
with tf.GradientTape() as t:
    t.watch(x)
    y = square_with_wrong_gradient(x)
print(y, t.gradient(y, x))


@tf.custom_gradient
def no_gradients(x):
    return x * x, lambda dy: []


with tf.GradientTape() as t:
    t.watch(x)
    y = no_gradients(x)
try:
    t.gradient(y, x)
except ValueError as e:
    print("ValueError:", e)

# A custom-gradient function that reads a variable: grad_fn gets
# variables= and returns (input grads, variable grads); without that
# keyword, TF's TypeError when the function runs.
scale = tf.Variable(3.0)


@tf.custom_gradient
def scaled(x):
    def grad(dy, variables=None):
        return dy * scale, [dy * x * 10.0 for _ in variables]

    return x * scale, grad


x = tf.constant(2.0)
with tf.GradientTape() as t:
    t.watch(x)
    y = scaled(x)
print(y, t.gradient(y, [x, scale]))


@tf.custom_gradient
def scaled_without_variables(x):
    return x * scale, lambda dy: dy * scale


try:
    scaled_without_variables(x)
except TypeError as e:
    print("TypeError:", e)


@tf.custom_gradient
def scaled_wrong_count(x):
    return x * scale, lambda dy, variables: (dy, [])


with tf.GradientTape() as t:
    t.watch(x)
    y = scaled_wrong_count(x)
try:
    t.gradient(y, x)
except ValueError as e:
    print("ValueError:", e)

# jacobian and batch_jacobian
x = tf.constant([1.0, 2.0])
with tf.GradientTape(persistent=True) as t:
    t.watch(x)
    y = x * x
print(t.jacobian(y, x))
with tf.GradientTape() as t2:
    t2.watch(x)
    y2 = x * x
try:
    t2.jacobian(y2, x, experimental_use_pfor=False)
except RuntimeError as e:
    print("RuntimeError:", e)
x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
with tf.GradientTape() as t:
    t.watch(x)
    y = x * x
print(t.batch_jacobian(y, x))

# tf.recompute_grad: the block's activations are not kept; its gradient
# reruns it (the same gradients as without it, for inputs and variables).
tf.random.set_seed(3)
layer = tf.keras.layers.Dense(3, activation='tanh')
xr = tf.constant([[1.0, 2.0], [0.5, -1.0]])
layer(xr)


def block(h):
    return layer(h) * 2.0


block_recomputed = tf.recompute_grad(block)
results = []
for fn in [block, block_recomputed]:
    with tf.GradientTape() as t:
        t.watch(xr)
        y = tf.reduce_sum(fn(xr) ** 2)
    results.append(t.gradient(y, [xr] + layer.trainable_variables))
for a, b in zip(results[0], results[1]):
    print(a.shape, bool(tf.reduce_max(tf.abs(a - b)) < 1e-6))

# tf.UnconnectedGradients' members select the same behaviour as the strings.
u = tf.constant(1.0)
with tf.GradientTape() as t:
    t.watch(u)
    y = tf.constant(2.0) * 3.0
print(t.gradient(y, u, unconnected_gradients=tf.UnconnectedGradients.ZERO))
print(tf.UnconnectedGradients.NONE)


# Trainable state: a tf.Module's variables by their flag; a Keras layer with
# trainable=False has only non-trainable weights; a tape does not watch a
# non-trainable variable by itself.
class Holder(tf.Module):
    def __init__(self):
        self.w = tf.Variable(1.0)
        self.frozen = tf.Variable(2.0, trainable=False)
        self.dense = tf.keras.layers.Dense(2)


holder = Holder()
holder.dense(tf.ones([1, 3]))
print(len(holder.variables), len(holder.trainable_variables), len(holder.non_trainable_variables))
print(holder.frozen.trainable)
frozen_layer = tf.keras.layers.Dense(2, trainable=False)
frozen_layer(tf.ones([1, 3]))
print(len(frozen_layer.trainable_weights), len(frozen_layer.non_trainable_weights))
with tf.GradientTape() as t:
    y = holder.w * holder.frozen
print(t.gradient(y, [holder.w, holder.frozen]))


# Reductions over an input of unknown rank: the gradient's shape is computed
# when the function runs (TF's reduced_shape), not while it is traced.
@tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
def reduction_grads(x):
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        s = tf.reduce_sum(x * x, axis=-1)
        m = tf.reduce_mean(x, axis=[0])
        top = tf.reduce_max(x, axis=-1)
    return t.gradient(s, x), t.gradient(m, x), t.gradient(top, x)


print(reduction_grads(tf.constant([[1.0, 2.0], [3.0, 5.0]])))
print(reduction_grads(tf.constant([1.0, -2.0, 4.0]))[0])
