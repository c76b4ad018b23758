# tf.SparseTensor and tf.sparse: printing, components, to_dense (with its
# out-of-order error), reorder, from_dense, sparse_dense_matmul (with
# adjoints), add, reduce_sum, inside tf.function, and TF's
# construction errors. The printed forms follow TF's own output.
import tensorflow as tf

s = tf.SparseTensor(indices=[[0, 1], [1, 0], [2, 3]], values=[1., 2., 3.], dense_shape=[3, 4])
print(s)
print(tf.sparse.to_dense(s))
print(tf.sparse.to_dense(s) + 1)
try:
    s3 = s + 1.
except TypeError as ex:
    print(ex)
s4 = tf.constant([[10., 20.], [30., 40.], [50., 60.], [70., 80.]])
print(tf.sparse.sparse_dense_matmul(s, s4))
print(tf.sparse.sparse_dense_matmul(s, tf.transpose(s4), adjoint_b=True))
print(tf.sparse.sparse_dense_matmul(s, tf.ones([3, 2]), adjoint_a=True))

s5 = tf.SparseTensor(indices=[[0, 2], [0, 1]], values=[1., 2.], dense_shape=[3, 4])
print(s5)
try:
    tf.sparse.to_dense(s5)
except tf.errors.InvalidArgumentError as ex:
    print(str(ex).split("\n")[0])
s6 = tf.sparse.reorder(s5)
print(tf.sparse.to_dense(s6))
print(tf.sparse.to_dense(s5, validate_indices=False, default_value=-1.0))

print(s.indices.dtype, s.values.dtype, s.dense_shape.numpy(), s.shape, s.dtype)
d = tf.sparse.from_dense(tf.constant([[1, 0, 0], [0, 0, 7]]))
print(d)
print(tf.sparse.reduce_sum(s), tf.sparse.reduce_sum(s, axis=1), tf.sparse.reduce_sum(s, axis=0, keepdims=True))
print(tf.sparse.add(s, tf.ones([3, 4])))
t = tf.sparse.add(s, tf.SparseTensor(indices=[[0, 1], [0, 2]], values=[5., 6.], dense_shape=[3, 4]))
print(t.indices.numpy().tolist(), t.values.numpy().tolist())


@tf.function
def dense_of(i, v):
    sp = tf.SparseTensor(indices=i, values=v, dense_shape=[2, 2])
    return tf.sparse.to_dense(sp)


print(dense_of(tf.constant([[0, 0], [1, 1]], tf.int64), tf.constant([4, 5])))

try:
    tf.SparseTensor(indices=[0, 1], values=[1], dense_shape=[2])
except ValueError as ex:
    print("ValueError:", ex)
try:
    tf.SparseTensor(indices=[[0, 1]], values=[1, 2], dense_shape=[2, 2])
except ValueError as ex:
    print("ValueError:", ex)
