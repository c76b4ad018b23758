# tf.SparseTensor crossing a tf.function boundary as TF's composite tensors
# do: an argument is traced by its tf.SparseTensorSpec(shape, dtype) (a
# same-spec call reuses the trace, another dtype or dense shape retraces),
# it behaves as a SparseTensor inside (its static shape is the spec's), and
# a returned one (alone or in a structure) comes back eager. Printed forms
# are TF's.
import tensorflow as tf


@tf.function
def dense(sp):
    print("tracing dense:", sp.shape, sp.dtype)
    return tf.sparse.to_dense(sp)


sp1 = tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[2, 3])
sp2 = tf.SparseTensor(indices=[[1, 1]], values=[7], dense_shape=[2, 3])
print(dense(sp1))
print(dense(sp2))
print(dense(tf.SparseTensor(indices=[[0, 1]], values=[0.5], dense_shape=[2, 3])))
print(dense(tf.SparseTensor(indices=[[3]], values=[9], dense_shape=[4])))
print(dense(sp1))
print("traces:", dense.experimental_get_tracing_count())
print(dense.pretty_printed_concrete_signatures())


@tf.function
def parts(sp):
    return sp.indices, sp.values, sp.dense_shape


print(parts(sp2))


@tf.function
def to_sparse(x):
    return tf.sparse.from_dense(x)


print(to_sparse(tf.constant([[1, 0], [0, 2]])))


@tf.function
def both(x):
    sp = tf.sparse.from_dense(x)
    return [sp, tf.sparse.reduce_sum(sp)]


print(both(tf.constant([0.0, 3.0, 4.0])))


@tf.function
def matmul(sp, d):
    return tf.sparse.sparse_dense_matmul(sp, d)


print(matmul(sp1, tf.ones([3, 2], tf.int32)))


@tf.function
def reorder(sp):
    return tf.sparse.reorder(sp)


sp3 = tf.SparseTensor(indices=[[1, 0], [0, 1]], values=[1.0, 2.0], dense_shape=[2, 2])
cf = reorder.get_concrete_function(tf.SparseTensorSpec([None, None], tf.float32))
print(cf)
print(cf(sp3))
print(reorder(sp3).indices)
print("traces:", reorder.experimental_get_tracing_count())
