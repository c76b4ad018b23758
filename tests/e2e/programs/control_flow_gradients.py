# Gradients through tf.cond and loops over tensors inside a tf.function
# (GRADIENTS.md section 2 and acceptance tests 15 and 16), each next to the
# same computation unrolled eagerly where that checks the traced one.
# Expected output: TensorFlow 2's (the values follow from the math; the
# eager twins print what the traced functions must print).
import tensorflow as tf


# 15. An AutoGraph if over tensors.
@tf.function
def cond_grad(x):
    with tf.GradientTape() as t:
        t.watch(x)
        if x < x:
            y = x
        else:
            y = x * x
    return t.gradient(y, x)


print(cond_grad(tf.constant(3.0)))


@tf.function
def branch_grads(x):
    with tf.GradientTape() as t:
        t.watch(x)
        if x > 0.0:
            y = tf.sin(x) * x
        else:
            y = x * 2.0
    return t.gradient(y, x)


print(branch_grads(tf.constant(1.0)))
print(branch_grads(tf.constant(-1.0)))


# 16. A while loop doubling x twice.
@tf.function
def while_grad(x):
    with tf.GradientTape() as t:
        t.watch(x)
        i = tf.constant(1)
        y = x
        while i < 3:
            i += 1
            y = y * 2
    return t.gradient(y, x)


print(while_grad(tf.constant(2.0)))


# for over tf.range, the loop body reading x itself.
@tf.function
def range_grad(x, n):
    with tf.GradientTape() as t:
        t.watch(x)
        y = x
        for i in tf.range(n):
            y = tf.sin(y) * x
    return t.gradient(y, x)


def range_grad_eager(x, n):
    with tf.GradientTape() as t:
        t.watch(x)
        y = x
        for i in range(n):
            y = tf.sin(y) * x
    return t.gradient(y, x)


print(range_grad(tf.constant(0.5), tf.constant(3)))
print(range_grad_eager(tf.constant(0.5), 3))

# A trainable variable read in the loop body: watched automatically.
w = tf.Variable(0.7)


@tf.function
def variable_in_loop(x, n):
    with tf.GradientTape() as t:
        y = x
        for i in tf.range(n):
            y = tf.tanh(y * w)
    return t.gradient(y, w)


def variable_in_loop_eager(x, n):
    with tf.GradientTape() as t:
        y = x
        for i in range(n):
            y = tf.tanh(y * w)
    return t.gradient(y, w)


print(variable_in_loop(tf.constant(1.5), tf.constant(4)))
print(variable_in_loop_eager(tf.constant(1.5), 4))


# A loop that breaks: y = x^7 at x = 2, so dy/dx = 7 x^6.
@tf.function
def with_break(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = x
        i = tf.constant(0)
        while i < 10:
            y = y * x
            if y > 100.0:
                break
            i += 1
    return y, t.gradient(y, x)


print(with_break(tf.constant(2.0)))


# Nested loops: y = y * x + 1, six times.
@tf.function
def nested(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = x
        for i in tf.range(3):
            for j in tf.range(2):
                y = y * x + 1.0
    return t.gradient(y, x)


print(nested(tf.constant(1.1)))


# A cond inside a loop, and a loop inside a cond.
@tf.function
def cond_in_loop(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = x
        for i in tf.range(4):
            if i % 2 == 0:
                y = y * x
            else:
                y = y + tf.sin(x)
    return y, t.gradient(y, x)


def cond_in_loop_eager(x):
    with tf.GradientTape() as t:
        t.watch(x)
        y = x
        for i in range(4):
            if i % 2 == 0:
                y = y * x
            else:
                y = y + tf.sin(x)
    return y, t.gradient(y, x)


print(cond_in_loop(tf.constant(0.3)))
print(cond_in_loop_eager(tf.constant(0.3)))


@tf.function
def loop_in_cond(x):
    with tf.GradientTape() as t:
        t.watch(x)
        if x > 0.0:
            y = x
            for i in tf.range(3):
                y = y * x
        else:
            y = -x
    return y, t.gradient(y, x)


print(loop_in_cond(tf.constant(1.5)))
print(loop_in_cond(tf.constant(-1.5)))


# A persistent tape differentiates the same loop twice.
@tf.function
def twice(x):
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x
        for i in tf.range(3):
            y = y * x
    return t.gradient(y, x), t.gradient(y, x)


print(twice(tf.constant(2.0)))


# A tf.function with a loop and a cond, called under an eager tape: the call
# is differentiated from its graph (a forward half that saves what the
# backward half reads), as TensorFlow does, for inputs and variables alike.
@tf.function
def model(x, n):
    y = x
    for i in tf.range(n):
        y = tf.tanh(y * w) + x
    if tf.reduce_sum(y) > 0.0:
        y = y * 2.0
    return y


def model_eager(x, n):
    y = x
    for i in range(n):
        y = tf.tanh(y * w) + x
    if tf.reduce_sum(y) > 0.0:
        y = y * 2.0
    return y


x = tf.constant([1.5, -0.5])
for fn in [model, model_eager]:
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = fn(x, 3)
    print(y)
    print(t.gradient(y, [x, w]))


# 17. A TensorArray written in a loop over tf.range: d/dx sum(x * i) = 0+1+2.
@tf.function
def tensor_array_grad(x):
    with tf.GradientTape() as t:
        t.watch(x)
        ta = tf.TensorArray(tf.float32, 3)
        for i in tf.range(3):
            ta = ta.write(i, x * tf.cast(i, tf.float32))
        y = tf.reduce_sum(ta.stack())
    return t.gradient(y, x)


print(tensor_array_grad(tf.constant(2.0)))


# The same eagerly: an eager TensorArray is a list of the tensors written.
def tensor_array_grad_eager(x):
    with tf.GradientTape() as t:
        t.watch(x)
        ta = tf.TensorArray(tf.float32, 3)
        for i in range(3):
            ta = ta.write(i, x * tf.cast(i, tf.float32))
        y = tf.reduce_sum(ta.stack())
    return t.gradient(y, x)


print(tensor_array_grad_eager(tf.constant(2.0)))


# An RNN over a TensorArray of inputs (read in the loop) and of outputs
# (written): the inputs' gradient sums the reads' list gradients. Checked
# against central differences of the same function.
@tf.function
def rnn_grad(xs, h):
    with tf.GradientTape() as t:
        t.watch(xs)
        outputs = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
        inputs = tf.TensorArray(tf.float32, size=4).unstack(xs)
        for i in tf.range(4):
            h = tf.tanh(h * 0.5 + inputs.read(i))
            outputs = outputs.write(i, h)
        y = tf.reduce_sum(outputs.stack() ** 2)
    return t.gradient(y, xs)


print(rnn_grad(tf.constant([[0.1, 0.2], [0.3, -0.1], [0.0, 0.5], [-0.2, 0.2]]), tf.constant([0.5, -0.5])))
