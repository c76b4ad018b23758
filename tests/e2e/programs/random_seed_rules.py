# TF's random_seed.get_seed: an op without a seed takes its op seed from the
# context. Eagerly that is random.Random(global_seed).randint(0, 2**31 - 1)
# (Random(42) gives 478163327, 107420369 first), while tracing the graph's
# count 0, 1, 2, ... so two tf.functions with the same ops draw the same
# values; seeds are taken modulo 2**31 - 1.
import tensorflow as tf

# tf.random.uniform's docstring.
tf.random.set_seed(5)
print(tf.random.uniform(shape=[], maxval=3, dtype=tf.int32, seed=10).numpy(),
      tf.random.uniform(shape=[], maxval=3, dtype=tf.int32, seed=10).numpy())
tf.random.set_seed(5)
print(tf.random.uniform(shape=[], maxval=3, dtype=tf.int32, seed=10).numpy(),
      tf.random.uniform(shape=[], maxval=3, dtype=tf.int32, seed=10).numpy())

tf.random.set_seed(42)
a1 = tf.random.uniform([3])
a2 = tf.random.normal([3])
tf.random.set_seed(42)
b1 = tf.random.uniform([3], seed=478163327)
tf.random.set_seed(42)
tf.random.uniform([1])
b2 = tf.random.normal([3], seed=107420369)
print(bool(tf.reduce_all(a1 == b1)), bool(tf.reduce_all(a2 == b2)))
tf.random.set_seed(42)
print(bool(tf.reduce_all(tf.random.uniform([3]) == a1)), bool(tf.reduce_all(tf.random.uniform([3]) == a1)))


@tf.function
def f():
    return tf.random.uniform([2]), tf.random.uniform([2])


@tf.function
def g():
    return tf.random.uniform([2]), tf.random.normal([2])


tf.random.set_seed(1)
f1, f2 = f()
g1, g2 = g()
tf.random.set_seed(1)
e1 = tf.random.uniform([2], seed=0)
tf.random.set_seed(1)
e2 = tf.random.normal([2], seed=1)
print(bool(tf.reduce_all(f1 == g1)), bool(tf.reduce_all(f1 == e1)), bool(tf.reduce_all(g2 == e2)),
      bool(tf.reduce_all(f1 == f2)))


# A branch of a tf.cond counts its own ops from 0 under the function's seed.
@tf.function
def h(c):
    if c:
        return tf.random.uniform([2])
    return tf.random.uniform([2]) + 1.0


tf.random.set_seed(1)
print(bool(tf.reduce_all(h(tf.constant(True)) == e1)))

# Seeds wrap modulo 2**31 - 1: seed 2**31 - 1 + 5 is seed 5.
tf.random.set_seed(2**31 - 1 + 5)
w = tf.random.uniform(shape=[], maxval=3, dtype=tf.int32, seed=10).numpy()
print(w)
