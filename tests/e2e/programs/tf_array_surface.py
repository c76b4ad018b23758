# The tf.* array and linear algebra surface of issue 14: making arrays,
# moving and writing elements, masks, sorting and searching, matrix
# diagonals and bands, norms and factorizations, and the node names TF's
# composite functions give in a traced graph. Expected output: TensorFlow
# 2.13's (TF's docstring examples where they exist), computed by hand with
# NumPy in the op's dtype; factorizations in float64, whose printing hides
# the last bits in which LAPACK-style algorithms may differ.
import tensorflow as tf

# Making arrays.
print(tf.eye(2))
print(tf.eye(2, 3, dtype=tf.int32))
print(tf.eye(2, batch_shape=[2]))
print(tf.linspace(10.0, 12.0, 3))
print(tf.linspace(0.0, 1.0, 5))
print(tf.linspace([0.0, 5.0], [10.0, 40.0], 5, axis=0))
print(tf.linspace([0.0, 5.0], [10.0, 40.0], 5, axis=-1))
X, Y = tf.meshgrid([1, 2, 3], [4, 5])
print(X)
print(Y)
X, Y = tf.meshgrid([1, 2, 3], [4, 5], indexing='ij')
print(X)
print(tf.broadcast_to([1, 2, 3], [2, 3]))
try:
    tf.broadcast_to([1, 2, 3], [2, 2])
except tf.errors.InvalidArgumentError:
    print('InvalidArgumentError')

# Moving elements.
x = tf.constant([[1, 2, 3], [4, 5, 6]])
print(tf.reverse(x, [1]))
print(tf.roll(x, shift=1, axis=1))
print(tf.roll(x, shift=[1, -1], axis=[0, 1]))
print(tf.repeat(['a', 'b', 'c'], repeats=[3, 0, 2], axis=0))
print(tf.repeat([[1, 2], [3, 4]], repeats=[2, 3], axis=0))
print(tf.repeat([[1, 2], [3, 4]], repeats=[2, 3], axis=1))
print(tf.repeat(3, repeats=4))
print(tf.repeat([[1, 2], [3, 4]], repeats=2))
paddings = [[1, 1], [2, 2]]
print(tf.pad(x, paddings, 'REFLECT'))
print(tf.pad(x, paddings, 'SYMMETRIC'))
print(tf.pad(x, paddings, 'constant'))
try:
    tf.pad(x, paddings, 'WRAP')
except ValueError as e:
    print('ValueError:', e)

# Writing by index.
print(tf.scatter_nd(tf.constant([[4], [3], [1], [7]]), tf.constant([9, 10, 11, 12]), [8]))
z = tf.zeros([8], dtype=tf.int32)
print(tf.tensor_scatter_nd_update(z, [[1], [3], [4], [7]], [9, 10, 11, 12]))
print(tf.tensor_scatter_nd_add(z + 1, [[1], [3], [4], [7]], [9, 10, 11, 12]))
print(tf.tensor_scatter_nd_sub(z, [[1], [1]], [5, 6]))

# Masks.
print(tf.boolean_mask([0, 1, 2, 3], [True, False, True, False]))
print(tf.boolean_mask([[1, 2], [3, 4], [5, 6]], [True, False, True]))
print(tf.boolean_mask([[1, 2], [3, 4]], [[True, False], [False, True]]))
print(tf.boolean_mask(tf.constant([[1, 2], [3, 4]]), [False, True], axis=1))
print(tf.sequence_mask([1, 3, 2], 5))
print(tf.sequence_mask([[1, 3], [2, 0]]))
print(tf.sequence_mask([1, 2], dtype=tf.float32))

# Sorting and searching.
y, idx = tf.unique([1, 1, 2, 4, 4, 4, 7, 8, 8])
print(y)
print(idx)
print(tf.unique(['b', 'a', 'b']).idx)
print(tf.sort([1, 10, 26.9, 2.8, 166.32, 62.3]))
print(tf.sort([1, 10, 26.9, 2.8, 166.32, 62.3], direction='DESCENDING'))
print(tf.sort([[3, 1], [-5, 0]], axis=0))
print(tf.argsort([1, 10, 26.9, 2.8, 166.32, 62.3]))
print(tf.argsort([3, 1, 3, 1]))
print(tf.argsort([3, 1, 3, 1], direction='DESCENDING'))
values, indices = tf.math.top_k([1, 3, 2, 3], k=2)
print(values)
print(indices)
top = tf.math.top_k([[1.0, 9.0, 2.0], [4.0, 4.0, 4.0]], k=2)
print(top.values)
print(top.indices)
print(tf.searchsorted([0.0, 3.0, 9.0, 9.0, 10.0], [2.0, 9.0, 11.0]))
print(tf.searchsorted([0.0, 3.0, 9.0, 9.0, 10.0], [2.0, 9.0, 11.0], side='right'))
print(tf.searchsorted([[0, 3, 9], [1, 2, 3]], [[2, 9], [2, 4]]))

# Diagonals, bands and norms.
m = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])
print(tf.linalg.band_part(m, 0, -1))
print(tf.linalg.band_part(m, 1, 0))
print(tf.linalg.diag([1, 2]))
print(tf.linalg.diag([1, 2], k=1))
print(tf.linalg.diag_part(m))
print(tf.linalg.diag_part(m, k=(-1, 1)))
print(tf.linalg.set_diag(m, [0.0, 0.0, 0.0]))
print(tf.linalg.trace(m))
print(tf.linalg.matrix_transpose(tf.zeros([2, 3, 4])).shape)
print(tf.norm([3.0, 4.0]))
n = tf.constant([[1.0, -2.0], [3.0, 4.0]])
print(tf.norm(n, ord=1, axis=[0, 1]))
print(tf.norm(n, ord=float('inf'), axis=[-2, -1]))
print(tf.norm(n, ord='fro', axis=(0, 1)))
print(tf.norm([1.0, -2.0, 2.0], ord=1))
print(tf.norm([2.0, 0.0], ord=3))
print(tf.norm(n, axis=1, keepdims=True))
try:
    tf.norm(n, ord='fro')
except ValueError as e:
    print('ValueError:', e)

# Factorizations.
a = tf.constant([[4.0, 7.0], [2.0, 6.0]], dtype=tf.float64)
print(tf.linalg.inv(a))
print(tf.linalg.det(tf.constant([[[1.0, 2.0], [0.0, 1.0]], [[0.0, 1.0], [1.0, 0.0]], [[1.0, 2.0], [2.0, 4.0]]])))
print(tf.linalg.solve(a, tf.constant([[1.0], [2.0]], dtype=tf.float64)))
print(tf.linalg.cholesky(tf.constant([[4.0, 2.0], [2.0, 5.0]], dtype=tf.float64)))
q, r = tf.linalg.qr(tf.constant([[3.0, 1.0], [4.0, 2.0]], dtype=tf.float64))
print(q)
print(r)
try:
    tf.linalg.inv(tf.constant([[1.0, 2.0], [2.0, 4.0]]))
except tf.errors.InvalidArgumentError:
    print('InvalidArgumentError')

# Tensors and groups.
print(tf.is_tensor(tf.constant(1)), tf.is_tensor(1), tf.is_tensor(tf.Variable(1.0)))
print(tf.group(tf.constant(1)))
print(tf.identity(tf.Variable([1, 2])))


# Node names in a traced graph.
@tf.function
def names(v):
    print(tf.eye(2))
    print(tf.linspace(0.0, 1.0, 3))
    print(tf.sort(v))
    print(tf.math.top_k(v, k=1).indices)
    print(tf.boolean_mask(v, v > 0.0))
    print(tf.sequence_mask([1, 2], 3))
    print(tf.linalg.trace(tf.reshape(v, [2, 2])))
    print(tf.norm(v))
    print(tf.repeat(v, 2))
    print(tf.pad(v, [[1, 1]], 'REFLECT'))
    print(tf.unique(v).y)
    return v


names(tf.constant([1.0, -2.0, 3.0, 4.0]))
