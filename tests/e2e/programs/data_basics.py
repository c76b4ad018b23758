# tf.data.Dataset basics (issue 14): the sources, how datasets and their
# element_spec print, iteration with for, iter/next and as_numpy_iterator,
# len(), zip and enumerate. Expected output: TensorFlow 2.11-2.13's.
import tensorflow as tf

ds = tf.data.Dataset.from_tensor_slices([1, 2, 3])
print(ds)
for x in ds:
    print(x)
print(ds.element_spec)
print(list(ds.as_numpy_iterator()))
print(len(ds), ds.cardinality())
it = iter(ds)
print(next(it))
print(next(it).numpy())
print(isinstance(ds, tf.data.Dataset))

pairs = tf.data.Dataset.from_tensor_slices(([1, 2], ['a', 'b']))
print(pairs)
for a, b in pairs:
    print(a, b)

records = tf.data.Dataset.from_tensor_slices({'x': [1.0, 2.0], 'a': [[1, 2], [3, 4]]})
print(records)
for r in records:
    print(r['a'], r['x'])

r = tf.data.Dataset.range(5)
print(r)
print(list(r.as_numpy_iterator()))
print(list(tf.data.Dataset.range(2, 10, 3).as_numpy_iterator()))
print(list(tf.data.Dataset.range(5, 0, -2).as_numpy_iterator()))
print(list(tf.data.Dataset.range(3, output_type=tf.int32).as_numpy_iterator()))

t = tf.data.Dataset.from_tensors([1, 2])
print(t)
print(list(t.as_numpy_iterator()))

z = tf.data.Dataset.zip((tf.data.Dataset.range(3), ds))
print(z)
for i, x in z:
    print(i.numpy(), x.numpy())
e = tf.data.Dataset.from_tensor_slices(['p', 'q']).enumerate(start=1)
print(e)
print(list(e.as_numpy_iterator()))

try:
    tf.data.Dataset.from_tensor_slices(1)
except ValueError as err:
    print('ValueError:', err)
try:
    tf.data.Dataset.from_tensor_slices(([1, 2], [1, 2, 3]))
except ValueError as err:
    print('ValueError:', err)
try:
    len(tf.data.Dataset.range(3).repeat())
except TypeError as err:
    print('TypeError:', err)
try:
    len(tf.data.Dataset.range(3).filter(lambda x: x > 0))
except TypeError as err:
    print('TypeError:', err)
