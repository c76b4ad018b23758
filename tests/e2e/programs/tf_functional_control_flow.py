# TensorFlow's functional control flow: tf.cond, tf.case, tf.switch_case,
# tf.while_loop, tf.map_fn, tf.scan, tf.foldl, tf.foldr and tf.vectorized_map,
# each eagerly and inside a tf.function, their errors, and gradients through
# them under tf.GradientTape.
# Expected output: TensorFlow 2.15's. The values are the examples of each
# function's docstring (cond.py, control_flow_case.py,
# control_flow_switch_case.py, while_loop.py, map_fn.py, functional_ops.py)
# and plain arithmetic; the containers follow TF's code: eagerly
# tf.while_loop returns what the body last returned (a tuple here), traced
# it packs the result like loop_vars (a list here). Error texts are
# cond_v2.py's and while_v2.py's.
import tensorflow as tf


def error_line(e):
    # TF wraps an error raised while tracing as "in user code:", the frames
    # that raised it, then "TypeError: <message>": this is that line (the
    # message's first line).
    msg = str(e)
    lines = msg.split("\n")
    if msg.startswith("in user code:"):
        for line in lines:
            if line.strip().startswith(type(e).__name__ + ": "):
                return line.strip()
    return type(e).__name__ + ": " + lines[0]

x = tf.constant(2)
y = tf.constant(5)


def f1():
    return tf.multiply(x, 7)


def f2():
    return tf.add(y, 3)


print(tf.cond(tf.less(x, y), f1, f2))
print(tf.cond(x > y, f1, f2))


@tf.function
def traced_cond(a, b):
    return tf.cond(a < b, lambda: (a + b, a * b), lambda: (a - b, b))


print(traced_cond(tf.constant(2), tf.constant(5)))
print(traced_cond(tf.constant(6), tf.constant(5)))


# A branch returning None (tf.print) runs for its effects; None stays in the result.
@tf.function
def effects(v):
    tf.cond(v > 0, lambda: tf.print("positive"), lambda: tf.print("not positive"))
    return tf.cond(v > 0, lambda: (None, v), lambda: (None, -v))


print(effects(tf.constant(2)))
print(effects(tf.constant(-3)))


@tf.function
def structure_mismatch(a):
    return tf.cond(a > 0, lambda: (a, a), lambda: a)


try:
    structure_mismatch(tf.constant(1))
except TypeError as e:
    print(error_line(e))


@tf.function
def dtype_mismatch(a):
    return tf.cond(a > 0, lambda: a, lambda: tf.cast(a, tf.float32))


try:
    dtype_mismatch(tf.constant(1))
except TypeError as e:
    print(error_line(e))


@tf.function
def python_bool_pred(a):
    return tf.cond(True, lambda: a, lambda: -a)


try:
    python_bool_pred(tf.constant(1))
except TypeError as e:
    print(error_line(e))


# tf.switch_case's docstring: branches 0 and 1, default for any other index.
def b17():
    return tf.constant(17)


def b31():
    return tf.constant(31)


def bdefault():
    return tf.constant(-1)


for index in [0, 1, 5]:
    print(tf.switch_case(tf.constant(index), branch_fns={0: b17, 1: b31}, default=bdefault))


@tf.function
def traced_switch(index):
    return tf.switch_case(index, [b17, b31, bdefault])


for index in [0, 1, 2, 7, -1]:
    print(traced_switch(tf.constant(index)))

# tf.case's docstring.
c0 = tf.constant(0)
c1 = tf.constant(1)
print(tf.case([(tf.less(c0, c1), lambda: tf.constant(17))], default=lambda: tf.constant(23)))
print(tf.case([(tf.greater(c0, c1), lambda: tf.constant(17))], default=lambda: tf.constant(23)))


@tf.function
def traced_case(a):
    return tf.case([(a < 0, lambda: a * -1), (a < 10, lambda: a * 2)], default=lambda: a)


for v in [-4, 3, 12]:
    print(traced_case(tf.constant(v)))

# tf.while_loop's docstring.
i = tf.constant(0)
c = lambda i: tf.less(i, 10)
b = lambda i: (tf.add(i, 1),)
print(tf.while_loop(c, b, [i]))


@tf.function
def traced_while(i):
    return tf.while_loop(c, b, [i])


print(traced_while(tf.constant(0)))
ijk_0 = (tf.constant(0), (tf.constant(1), tf.constant(2)))
cn = lambda i, p: i < 10
bn = lambda i, p: (i + 1, (p[0] + p[1], p[0] - p[1]))
print(tf.while_loop(cn, bn, ijk_0))
print(tf.function(lambda: tf.while_loop(cn, bn, ijk_0))())
print(tf.while_loop(lambda v: True, lambda v: [v + 1], [tf.constant(0)], maximum_iterations=5))
print(tf.function(lambda n: tf.while_loop(lambda v: v < 100, lambda v: v + 1, [tf.constant(0)], maximum_iterations=n))(tf.constant(7)))
print(tf.while_loop(lambda d: d["n"] < 3, lambda d: ({"n": d["n"] + 1, "s": d["s"] * 2},), [{"n": tf.constant(0), "s": tf.constant(1.5)}]))


@tf.function
def grow(n):
    return tf.while_loop(lambda v: tf.size(v) < n, lambda v: [tf.concat([v, v], 0)], [tf.ones([1])],
                         shape_invariants=[tf.TensorShape([None])])


print(grow(tf.constant(4)))


@tf.function
def grow_without_invariant(n):
    return tf.while_loop(lambda v: tf.size(v) < n, lambda v: [tf.concat([v, v], 0)], [tf.ones([1])])


try:
    grow_without_invariant(tf.constant(4))
except ValueError as e:
    print(error_line(e))


@tf.function
def change_dtype():
    return tf.while_loop(lambda v: v < 3, lambda v: [tf.cast(v, tf.float32) + 1.0], [tf.constant(0)])


try:
    change_dtype()
except TypeError as e:
    print(error_line(e))

# tf.map_fn's docstring.
print(tf.map_fn(fn=lambda t: tf.range(t, t + 3), elems=tf.constant([3, 5, 2])))
pairs = (tf.constant([1, 2, 3]), tf.constant([-1, 1, -1]))
print(tf.map_fn(lambda p: p[0] * p[1], pairs, fn_output_signature=tf.int32))
print(tf.map_fn(lambda t: tf.cast(t, tf.float32) * 0.5, tf.constant([1, 2]), fn_output_signature=tf.float32))
print(tf.function(lambda e: tf.map_fn(lambda t: tf.range(t, t + 3), e))(tf.constant([3, 5, 2])))
print(tf.function(lambda a, b: tf.map_fn(lambda p: p[0] * p[1], (a, b), fn_output_signature=tf.int32))(pairs[0], pairs[1]))

# tf.scan's docstring.
elems = tf.constant([1, 2, 3, 4, 5, 6])
print(tf.scan(lambda a, x: a + x, elems))
print(tf.scan(lambda a, x: a + x, elems, reverse=True))
print(tf.scan(lambda a, x: x[0] - x[1] + a, (elems + 1, elems), tf.constant(0)))
print(tf.function(lambda e: tf.scan(lambda a, x: a + x, e))(elems))
print(tf.function(lambda e: tf.scan(lambda a, x: a + x, e, reverse=True))(elems))

# tf.foldl and tf.foldr's docstrings, and an order that tells them apart.
print(tf.foldl(lambda a, x: a + x, elems))
print(tf.foldr(lambda a, x: a + x, elems))
digits = tf.constant([1, 2, 3])
print(tf.foldl(lambda a, x: a * 10 + x, digits))
print(tf.foldr(lambda a, x: a * 10 + x, digits))
print(tf.foldl(lambda a, x: a * 10 + x, digits, initializer=9))
print(tf.function(lambda e: tf.foldl(lambda a, x: a * 10 + x, e))(digits))
print(tf.function(lambda e: tf.foldr(lambda a, x: a * 10 + x, e))(digits))

# tf.vectorized_map: the values of map_fn.
print(tf.vectorized_map(lambda t: t * t + 1.0, tf.constant([1.0, 2.0, 3.0])))
print(tf.function(lambda e: tf.vectorized_map(lambda t: tf.cast(t, tf.float32) / 2.0, e))(tf.constant([1, 2, 3])))


# tf.nest, which these functions structure their values with: a dict's values
# in sorted key order, rebuilt in the dict's own order (nest_util.py).
s = {"b": [1, 2], "a": (3, 4)}
print(tf.nest.flatten(s))
print(tf.nest.map_structure(lambda v: v * 10, s))
print(tf.nest.pack_sequence_as(s, [5, 6, 7, 8]))
print(tf.nest.is_nested(s), tf.nest.is_nested(1))
print(tf.nest.map_structure(lambda a, b: a + b, (1, [2]), (10, [20])))
try:
    tf.nest.assert_same_structure([1, 2], [1, 2, 3])
except ValueError as e:
    print(error_line(e))
try:
    tf.nest.pack_sequence_as([1, 2], [1])
except ValueError as e:
    print(error_line(e))


# Gradients: d/dx x*x at 3; d/dx x**3 at 3; d/dx sum(x*x); d/dx sum(cumsum(x)).
def cond_grad(v):
    with tf.GradientTape() as tape:
        tape.watch(v)
        out = tf.cond(v > 0.0, lambda: v * v, lambda: -v)
    return tape.gradient(out, v)


def while_grad(v):
    with tf.GradientTape() as tape:
        tape.watch(v)
        _, out = tf.while_loop(lambda k, p: k < 3, lambda k, p: (k + 1, p * v), [0, 1.0])
    return tape.gradient(out, v)


def map_grad(v):
    with tf.GradientTape() as tape:
        tape.watch(v)
        out = tf.reduce_sum(tf.map_fn(lambda t: t * t, v))
    return tape.gradient(out, v)


def scan_grad(v):
    with tf.GradientTape() as tape:
        tape.watch(v)
        out = tf.reduce_sum(tf.scan(lambda a, t: a + t, v))
    return tape.gradient(out, v)


for fn, arg in [(cond_grad, tf.constant(3.0)), (while_grad, tf.constant(3.0)),
                (map_grad, tf.constant([1.0, 2.0, 3.0])), (scan_grad, tf.constant([1.0, 2.0, 3.0]))]:
    print(fn(arg))
    print(tf.function(fn)(arg))
