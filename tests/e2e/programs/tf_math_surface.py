# The tf.math surface of issue 14: division and shifts, reductions, clipping
# and normalization, segments and counts, special functions, and the node
# names TF's composite functions give in a traced graph. Expected output:
# TensorFlow 2.13's, computed by hand with NumPy in the op's dtype (float64
# where the result goes through a transcendental function, whose last bit
# NumPy's printing would show in float32).
import tensorflow as tf

# Division: truncating toward zero, and floor division (Python's) on ints and floats.
x = tf.constant([-7, -3, 3, 7])
y = tf.constant([2, 2, -2, -2])
print(tf.truncatediv(x, y))
print(tf.truncatemod(x, y))
print(tf.math.floordiv(x, y))
print(tf.math.floormod(x, y))
f = tf.constant([-7.5, 7.5])
print(tf.math.floordiv(f, 2.0))
print(tf.math.floormod(f, 2.0))
print(tf.math.truncatemod(f, 2.0))
print(tf.math.divide_no_nan(3.0, 0.0))
print(tf.math.divide_no_nan(tf.constant([3.0, 2.0]), tf.constant([0.0, 4.0])))
print(tf.math.divide_no_nan(tf.constant([3, 4]), tf.constant([0, 8])))
print(tf.math.squared_difference(tf.constant([1, 2, 3]), tf.constant([3, 2, 1])))
try:
    tf.truncatediv(x, tf.constant([0, 1, 1, 1]))
except tf.errors.InvalidArgumentError:
    print('InvalidArgumentError')

# Logic and shifts (shift amounts clamp to the type's width).
print(tf.math.logical_xor(tf.constant([True, False, True, False]), tf.constant([True, True, False, False])))
print(tf.bitwise.left_shift(tf.constant([1, -8, 255, 1]), tf.constant([3, 1, 4, 40])))
print(tf.bitwise.right_shift(tf.constant([-8, 16, 1, -1]), tf.constant([1, 2, 40, 5])))

# Sums of lists.
a = tf.constant([[1, 2], [3, 4]])
b = tf.constant([[5, 0], [0, 6]])
print(tf.math.accumulate_n([a, b, a]))
print(tf.math.polyval([1.0, 2.5, -4.2], 5.0))
print(tf.math.polyval([2, 1, 0], 3))

# Reductions.
c = tf.constant([[0, 1, 0], [1, 1, 0]])
print(tf.math.count_nonzero(c))
print(tf.math.count_nonzero(c, 0))
print(tf.math.count_nonzero(c, 1, keepdims=True, dtype=tf.int32))
print(tf.math.count_nonzero(tf.constant(['', 'a', '  ', 'b', ''])))
zeros = tf.zeros([2, 3])
print(tf.reduce_logsumexp(zeros))
print(tf.math.reduce_logsumexp(zeros, 1))
print(tf.reduce_logsumexp(tf.constant([1000.0, 1000.0])))
print(tf.math.reduce_logsumexp(tf.constant([-float('inf'), -float('inf')])))
print(tf.math.reduce_euclidean_norm(tf.constant([[1, 2, 3], [1, 1, 1]])))
print(tf.math.reduce_euclidean_norm(tf.constant([[3.0, 4.0], [6.0, 8.0]]), 1, keepdims=True))
m = tf.constant([[1.0, 2.0], [3.0, 4.0]])
print(tf.math.reduce_variance(m))
print(tf.math.reduce_variance(m, 0))
print(tf.math.reduce_variance(m, 1))
print(tf.math.reduce_std(m))
print(tf.math.reduce_std(m, 1))
try:
    tf.math.reduce_variance(tf.constant([1, 2]))
except TypeError as e:
    print('TypeError:', e)

# Clipping and normalization.
t = tf.constant([[-10.0, -1.0, 0.0], [0.0, 2.0, 10.0]])
print(tf.clip_by_value(t, clip_value_min=-1, clip_value_max=1))
print(tf.clip_by_value(tf.constant([[-1, 0, 10], [-1, 0, 10]]), [[2], [1]], 100))
try:
    tf.clip_by_value(tf.constant([1.0, 2.0]), [[0.0, 0.0], [0.0, 0.0]], 1.0)
except ValueError as e:
    print('ValueError:', e)
print(tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0))
print(tf.clip_by_norm(tf.constant([0.3, 0.4]), 1.0))
print(tf.clip_by_norm(tf.constant([[3.0, 4.0], [0.0, 0.5]]), 2.5, axes=[1]))
clipped, norm = tf.clip_by_global_norm([tf.constant([3.0, 0.0]), None, tf.constant([[4.0]])], 2.5)
print(clipped[0])
print(clipped[1])
print(clipped[2])
print(norm)
print(tf.linalg.global_norm([tf.constant([1.0, 2.0]), tf.constant([2.0])]))
print(tf.math.l2_normalize(tf.constant([3.0, 4.0], dtype=tf.float64)))
print(tf.nn.l2_normalize(tf.constant([[3.0, 4.0], [0.0, 0.0]], dtype=tf.float64), axis=1))
print(tf.nn.l2_loss(tf.constant([1.0, 2.0, 3.0])))
mean, variance = tf.nn.moments(tf.constant([[1.0, 2.0], [3.0, 6.0]]), axes=[0])
print(mean)
print(variance)
mean, variance = tf.nn.moments(tf.constant([1.0, 2.0, 3.0, 4.0]), axes=[0], keepdims=True)
print(mean)
print(variance)

# Segments and counts.
s = tf.constant([[1, 2, 3, 4], [-1, -2, -3, -4], [5, 6, 7, 8]])
print(tf.math.segment_sum(s, tf.constant([0, 0, 1])))
print(tf.math.segment_max(s, [0, 0, 2]))
print(tf.math.segment_min(s, [0, 0, 1]))
print(tf.math.segment_prod(s, [0, 1, 1]))
print(tf.math.segment_mean(tf.constant([1.0, 2.0, 4.0]), [0, 0, 1]))
print(tf.math.unsorted_segment_sum(s, tf.constant([0, 1, 0]), num_segments=2))
print(tf.math.unsorted_segment_max(tf.constant([3, 9, 4]), [1, 1, -1], 3))
print(tf.math.unsorted_segment_min(tf.constant([3.0, 9.0]), [0, 0], 2))
print(tf.math.unsorted_segment_prod(tf.constant([3, 9, 4]), [2, 0, 2], 3))
print(tf.math.unsorted_segment_mean(tf.constant([1.0, 2.0, 6.0]), [1, 1, 0], 3))
print(tf.math.unsorted_segment_sqrt_n(tf.constant([1.0, 2.0, 6.0]), [1, 1, 0], 3))
print(tf.math.bincount(tf.constant([1, 1, 2, 5])))
print(tf.math.bincount(tf.constant([1, 1, 2, 5]), minlength=8))
print(tf.math.bincount(tf.constant([1, 1, 2, 5]), maxlength=2))
print(tf.math.bincount(tf.constant([1, 1, 2]), weights=tf.constant([0.5, 1.0, 2.0])))
print(tf.math.bincount(tf.constant([[1, 2, 3, 0], [0, 0, 1, 2]]), axis=-1))
print(tf.math.bincount(tf.constant([[1, 2, 3, 0], [0, 0, 1, 2]]), axis=-1, binary_output=True))
print(tf.math.bincount(tf.constant([], dtype=tf.int32), dtype=tf.float32))
try:
    tf.math.bincount(tf.constant([1, -1]))
except tf.errors.InvalidArgumentError:
    print('InvalidArgumentError')

# Special functions (float64).
d = tf.constant([0.5, 1.0, 3.5], dtype=tf.float64)
print(tf.math.lgamma(d))
print(tf.math.digamma(d))
print(tf.math.erfc(d))
print(tf.math.erfinv(tf.constant([0.0, 0.5, -0.9], dtype=tf.float64)))
print(tf.math.polygamma(tf.constant([0.0, 1.0, 2.0], dtype=tf.float64), d))
print(tf.math.is_nan(tf.constant([1.0, float('nan')])))


# Node names in a traced graph: the composite functions' name scopes.
@tf.function
def names(v):
    print(tf.clip_by_value(v, 0.0, 1.0))
    print(tf.clip_by_value(v, 0.0, 1.0, name='clip'))
    print(tf.math.reduce_logsumexp(v))
    print(tf.math.logical_xor(v > 0.0, v < 1.0))
    print(tf.math.count_nonzero(v))
    print(tf.nn.l2_normalize(v))
    print(tf.math.reduce_std(v))
    print(tf.nn.moments(v, axes=[0]))
    print(tf.math.divide_no_nan(v, v))
    print(tf.math.erfinv(v))
    print(tf.math.segment_sum(v, [0, 0]))
    return v


names(tf.constant([0.5, 2.0]))

# tf.nn.gelu (its docstring's example) and tf.nn.silu / swish.
g = tf.constant([-3.0, -1.0, 0.0, 1.0, 3.0], dtype=tf.float32)
print(tf.nn.gelu(g).numpy())
print(tf.nn.silu(tf.constant([0.0, 1.0])), tf.nn.swish(tf.constant(0.0), beta=2.0))
try:
    tf.nn.gelu(tf.constant([1, 2]))
except ValueError as e:
    print("ValueError:", e)
