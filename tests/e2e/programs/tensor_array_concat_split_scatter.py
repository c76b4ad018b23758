# tf.TensorArray's concat, split, scatter and close, eagerly (TF's
# _EagerTensorArray: a Python list of tensors) and inside a tf.function (TF's
# _GraphTensorArrayV2 over TensorListConcatV2, TensorListSplit and
# TensorListScatterIntoExistingList), with their gradients and TF's errors.
# tensor_array_concat_split_scatter.expected is what TensorFlow prints.
import tensorflow as tf


def show(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__ + ':', e)


# ---- eager
ta = tf.TensorArray(tf.float32, size=3, infer_shape=False)
ta = ta.write(0, [1.0, 2.0])
ta = ta.write(1, [3.0])
ta = ta.write(2, [4.0, 5.0, 6.0])
print(ta.concat())

ta = tf.TensorArray(tf.int32, size=2, infer_shape=False)
ta = ta.write(0, [[1, 2]])
ta = ta.write(1, [[3, 4], [5, 6]])
print(ta.concat())

# With infer_shape (the default) every element has the first one's shape.
ta = tf.TensorArray(tf.float32, size=2)
ta = ta.write(0, [1.0, 2.0])
show(lambda: ta.write(1, [3.0]))

ta = tf.TensorArray(tf.float32, size=2, infer_shape=False)
ta = ta.write(0, 1.0)
ta = ta.write(1, 2.0)
show(lambda: ta.concat())

ta = tf.TensorArray(tf.float32, size=3)
ta = ta.split([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [1, 2, 3])
print(ta.size())
print(ta.read(0))
print(ta.read(1))
print(ta.read(2))

ta = tf.TensorArray(tf.float32, size=2)
ta = ta.split([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], [2, 2])
print(ta.stack())
print(ta.concat())

ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
ta = ta.split([1.0, 2.0, 3.0], tf.constant([1, 1, 1]))
print(ta.size())

ta = tf.TensorArray(tf.float32, size=3)
show(lambda: ta.split([1.0, 2.0, 3.0], [1]))
show(lambda: ta.split([1.0, 2.0, 3.0], [1, 2]))
show(lambda: ta.split(1.0, [1]))
show(lambda: ta.split([1.0, 2.0, 3.0], 3))

ta = tf.TensorArray(tf.float32, size=4)
ta = ta.scatter([3, 0], [[1.0, 2.0], [3.0, 4.0]])
print(ta.stack())
ta = tf.TensorArray(tf.float32, size=4)
show(lambda: ta.scatter([1, 5], [[1.0], [2.0]]))
ta = tf.TensorArray(tf.float32, size=1, dynamic_size=True)
ta = ta.scatter(tf.constant([0, 4]), tf.constant([[1.0], [2.0]]))
print(ta.size())
print(ta.concat())

ta = tf.TensorArray(tf.float32, size=2)
ta = ta.unstack([1.0, 2.0])
print(ta.close())
print(ta.size())

# ---- inside a tf.function


@tf.function
def concat_ragged():
    ta = tf.TensorArray(tf.float32, size=3, infer_shape=False)
    ta = ta.write(0, [1.0, 2.0])
    ta = ta.write(1, [3.0])
    ta = ta.write(2, [4.0, 5.0, 6.0])
    return ta.concat()


print(concat_ragged())


@tf.function
def concat_loop(n):
    ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True, infer_shape=False)
    for i in tf.range(n):
        ta = ta.write(i, tf.range(i + 1))
    return ta.concat()


print(concat_loop(tf.constant(4)))


@tf.function
def concat_rows():
    # The unset element takes the leading dim the set ones share.
    ta = tf.TensorArray(tf.int32, size=3, element_shape=(None, 2))
    ta = ta.write(0, [[1, 2]])
    ta = ta.write(2, [[3, 4]])
    return ta.concat()


print(concat_rows())


@tf.function
def concat_unset():
    ta = tf.TensorArray(tf.int32, size=3, element_shape=(None, 2), infer_shape=False)
    ta = ta.write(0, [[1, 2]])
    ta = ta.write(2, [[3, 4], [5, 6]])
    return ta.concat()


try:
    concat_unset()
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__,
          'List contains uninitialized tensor at index 1 but leading_dims has only 0 elements.' in str(e))


@tf.function
def concat_mismatch():
    ta = tf.TensorArray(tf.float32, size=2, infer_shape=False)
    ta = ta.write(0, [[1.0, 2.0]])
    ta = ta.write(1, [[3.0, 4.0, 5.0]])
    return ta.concat()


try:
    concat_mismatch()
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__, 'Incompatible shapes during merge: [2] vs. [3]' in str(e))


@tf.function
def split_read(x):
    ta = tf.TensorArray(tf.float32, size=3)
    ta = ta.split(x, [1, 2, 3])
    return ta.read(0), ta.read(1), ta.read(2)


a, b, c = split_read(tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]))
print(a)
print(b)
print(c)


@tf.function
def split_stack(x):
    ta = tf.TensorArray(tf.float32, size=2)
    ta = ta.split(x, [2, 2])
    print(ta.element_shape)
    return ta.stack()


print(split_stack(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])))


@tf.function
def split_bad(x):
    ta = tf.TensorArray(tf.float32, size=1)
    return ta.split(x, [1]).read(0)


try:
    split_bad(tf.constant([1.0, 2.0, 3.0]))
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__, 'Unused values in tensor. Length of tensor: 3 Values used: 1' in str(e))


@tf.function
def scatter_stack():
    ta = tf.TensorArray(tf.float32, size=4)
    ta = ta.scatter([3, 0], [[1.0, 2.0], [3.0, 4.0]])
    return ta.stack()


print(scatter_stack())


@tf.function
def scatter_grows():
    # The kernel resizes the list even when the array is not dynamic_size;
    # stack then finds more elements than the declared size.
    ta = tf.TensorArray(tf.float32, size=2)
    ta = ta.scatter([4], [[1.0]])
    return ta.stack()


try:
    scatter_grows()
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__, 'Operation expected a list with 2 elements but got a list with 5 elements.' in str(e))


@tf.function
def scatter_shape():
    ta = tf.TensorArray(tf.float32, size=2, element_shape=(3,))
    return ta.scatter([0], [[1.0, 2.0]]).stack()


try:
    scatter_shape()
except ValueError as e:
    # TF wraps an error raised while tracing as "in user code:" and the
    # frames that raised it; its last line is the error.
    msg = str(e)
    if msg.startswith('in user code:'):
        msg = msg.strip().split('\n')[-1].strip()
    else:
        msg = (type(e).__name__ + ': ' + msg).strip()
    print(msg)

# ---- gradients: split, scatter over element 0, concat


def split_scatter_concat(x):
    ta = tf.TensorArray(tf.float32, size=2)
    ta = ta.split(x, [1, 2])
    ta = ta.scatter([0], [[10.0]])
    return tf.reduce_sum(ta.concat() * tf.constant([1.0, 2.0, 3.0]))


x = tf.constant([1.0, 2.0, 3.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = split_scatter_concat(x)
print(y, tape.gradient(y, x))


@tf.function
def graph_grad(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = split_scatter_concat(x)
    return y, tape.gradient(y, x)


print(graph_grad(x))
