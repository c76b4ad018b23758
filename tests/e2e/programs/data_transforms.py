# tf.data transformations (issue 14): batch (drop_remainder), padded_batch,
# map (traced once: its print runs once, showing the symbolic argument),
# filter, repeat, take, skip, cache, prefetch, unbatch, reduce and shuffle
# with TF's seeds. Expected output: TensorFlow 2.11-2.13's; the shuffled
# orders follow TF's ShuffleDatasetV3 (tests/e2e/reference/tf_shuffle.py
# computes them from TF's algorithm, independently of agc).
import tensorflow as tf

ds = tf.data.Dataset.range(10)
b = ds.batch(4)
print(b)
for x in b:
    print(x)
bd = ds.batch(4, drop_remainder=True)
print(bd)
print(list(bd.as_numpy_iterator()))
print(bd.cardinality(), b.cardinality())


def double(x):
    print('tracing double with', x)
    return x * 2


m = ds.map(double)
print(m)
print(list(m.as_numpy_iterator()))
print(list(m.take(2).as_numpy_iterator()))

pairs = tf.data.Dataset.from_tensor_slices(([1, 2, 3], [10., 20., 30.]))
swapped = pairs.map(lambda a, b: (b, a + 1))
print(swapped)
for p in swapped:
    print(p)

f = ds.filter(lambda x: x % 3 == 0)
print(f)
print(list(f.as_numpy_iterator()))
try:
    ds.filter(lambda x: x)
except ValueError as err:
    print('ValueError:', err)

print(list(ds.skip(7).as_numpy_iterator()))
print(list(ds.take(3).repeat(2).as_numpy_iterator()))
print(list(ds.take(2).repeat().take(5).as_numpy_iterator()))
print(ds.take(3).repeat(2).cardinality(), ds.repeat().cardinality(), f.cardinality())

seqs = tf.data.Dataset.range(1, 4).map(lambda n: tf.range(n))
print(seqs)
pb = seqs.padded_batch(2)
print(pb)
for x in pb:
    print(x)
for x in seqs.padded_batch(2, padded_shapes=[4], padding_values=tf.constant(-1, tf.int64)):
    print(x)

u = b.unbatch()
print(u)
print(list(u.as_numpy_iterator()))

c = ds.map(double).cache()
print(c)
print(list(c.take(3).as_numpy_iterator()))
print(list(c.as_numpy_iterator()))
print(ds.prefetch(tf.data.AUTOTUNE))

print(ds.reduce(tf.constant(0, tf.int64), lambda s, x: s + x))
print(pairs.reduce((0, 0.0), lambda s, e: (s[0] + e[0], s[1] + e[1])))

s = tf.data.Dataset.range(10).shuffle(4, seed=7)
print(s)
print(list(s.as_numpy_iterator()))
print(list(s.as_numpy_iterator()))
fixed = tf.data.Dataset.range(10).shuffle(10, seed=7, reshuffle_each_iteration=False)
print(list(fixed.as_numpy_iterator()))
print(list(fixed.as_numpy_iterator()))
tf.random.set_seed(5)
print(list(tf.data.Dataset.range(6).shuffle(6, seed=1).as_numpy_iterator()))
