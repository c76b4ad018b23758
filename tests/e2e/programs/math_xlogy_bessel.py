# tf.math.xlogy, xlog1py, xdivy and the modified Bessel functions
# (tf.math[.special].bessel_i0, i1, i0e, i1e): values (the Bessel ones are
# TF's docstring examples), 0 where x is 0 whatever y is, broadcasting,
# gradients as TF's math_grad defines them (i1e's imputed 0.5 at 0), the
# same under tf.function, and the dtype error. Expected: TensorFlow 2.15's
# output (values checked against float64 references rounded to float32).
import tensorflow as tf

x = tf.constant([-1.0, -0.5, 0.5, 1.0])
print(tf.math.special.bessel_i0e(x))
print(tf.math.special.bessel_i1e(x))
print(tf.math.special.bessel_i0(x))
print(tf.math.special.bessel_i1(x))
print(tf.math.bessel_i0e([0.0, 2.0, 10.0]).numpy(), tf.math.bessel_i1e(tf.constant([0.0, 2.0, 10.0], tf.float64)).numpy())
print(tf.math.bessel_i0(3.0).numpy(), tf.math.bessel_i1(-3.0).numpy())

print(tf.math.xlogy([0.0, 1.0, 2.0, 0.0], [0.0, 2.0, 3.0, -1.0]))
print(tf.math.xlog1py([0.0, 1.0, 2.0], [-1.0, 1.0, 0.5]))
print(tf.math.xdivy([0.0, 3.0, 1.0], [0.0, 2.0, 4.0]))
print(tf.math.xlogy(2.0, tf.constant([[1.0], [4.0]], tf.float64)))

xs = tf.constant([0.0, 1.0, 2.0])
ys = tf.constant([1.0, 2.0, 4.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch([xs, ys])
    a = tf.math.xlogy(xs, ys)
    b = tf.math.xlog1py(xs, ys)
    c = tf.math.xdivy(xs, ys)
print([g.numpy() for g in tape.gradient(a, [xs, ys])])
print([g.numpy() for g in tape.gradient(b, [xs, ys])])
print([g.numpy() for g in tape.gradient(c, [xs, ys])])

z = tf.constant([0.0, 1.0, -2.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(z)
    outs = [tf.math.bessel_i0(z), tf.math.bessel_i1(z), tf.math.bessel_i0e(z), tf.math.bessel_i1e(z)]
for out in outs:
    print(tape.gradient(out, z).numpy())


@tf.function
def f(x, y):
    return tf.math.xlogy(x, y) + tf.math.special.bessel_i1e(x)


print(f(tf.constant([0.0, 1.0]), tf.constant([5.0, 2.0])))
try:
    tf.math.xlogy(tf.constant([1]), tf.constant([2]))
except tf.errors.InvalidArgumentError as e:
    print("InvalidArgumentError", str(e).split(";")[0])
try:
    tf.math.bessel_i0e(tf.constant([1]))
except tf.errors.InvalidArgumentError as e:
    print("InvalidArgumentError", str(e).split(";")[0])
