# tf.RaggedTensor crossing a tf.function boundary as TF's composite tensors
# do: an argument is traced by its tf.RaggedTensorSpec (a same-spec call
# reuses the trace; another dtype, ragged_rank or row count retraces, as the
# Python print inside the body shows), it behaves as a RaggedTensor inside,
# and a returned one (alone, in a tuple or dict) comes back eager. The
# printed forms are TF's (RaggedTensorSpec's repr is TypeSpec.__repr__).
import tensorflow as tf


@tf.function
def dense(rt):
    print("tracing dense:", rt.shape, rt.dtype, rt.ragged_rank)
    return rt.to_tensor()


rt1 = tf.ragged.constant([[1, 2], [3]])
rt2 = tf.ragged.constant([[4], [5, 6]])
print(dense(rt1))
print(dense(rt2))
print(dense(tf.ragged.constant([[1.5], [2.5]])))
print(dense(tf.ragged.constant([[[1], [2, 3]], [[4]]])))
print(dense(tf.ragged.constant([[7, 8, 9]])))
print(dense(rt1))
print("traces:", dense.experimental_get_tracing_count())


@tf.function
def parts(rt):
    return rt.values, rt.row_splits, rt.row_lengths(), rt.nrows()


print(parts(rt1))


@tf.function
def values_of(rt):
    return rt.values


values_of(rt1)
values_of(tf.ragged.constant([[1.0], [2.0, 3.0], []]))
print(values_of.pretty_printed_concrete_signatures())


@tf.function
def words(s):
    return tf.strings.split(s)


print(words(tf.constant(["hello world", "a b c"])))


@tf.function
def shapes(x):
    rt = tf.RaggedTensor.from_row_lengths(x, [2, 1])
    return rt, {"rt": rt, "n": rt.nrows()}


out = shapes(tf.constant([1, 2, 3]))
print(out)
print(isinstance(out[0], tf.RaggedTensor), out[0].shape, out[1]["rt"].to_list())


@tf.function
def upper(rt):
    return tf.strings.upper(rt)


print(upper(tf.strings.split(tf.constant(["ab cd", "ef"]))))


@tf.function
def identity(rt):
    return rt


print(identity(tf.ragged.constant([[[1, 2], [3]], [], [[4]]])))
print(identity.pretty_printed_concrete_signatures())


@tf.function
def outer(rt):
    return identity(rt) * 2


print(outer(rt1))


@tf.function(reduce_retracing=True)
def count(rt):
    print("tracing count", rt.shape)
    return rt.nrows()


for rows in [[[1], [2]], [[1], [2], [3]], [[1], [2], [3], [4]]]:
    print(count(tf.ragged.constant(rows)))
print("traces:", count.experimental_get_tracing_count())
