# tf.RaggedTensorSpec and tf.SparseTensorSpec: their repr (TypeSpec's: the
# class name and its serialization), tf.type_spec_from_value, equality, an
# input_signature of composite specs (one trace for every compatible value;
# an incompatible one is TF's ValueError), get_concrete_function with a
# spec, and the specs' constructor errors in TF's words.
import tensorflow as tf

print(tf.RaggedTensorSpec(shape=[2, None], dtype=tf.int32))
print(repr(tf.RaggedTensorSpec([None, None, 3], tf.float32, ragged_rank=1)))
spec = tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32, ragged_rank=1)
print(spec.shape, spec.dtype, spec.ragged_rank, spec.row_splits_dtype)
print(tf.SparseTensorSpec(shape=[None, 4], dtype=tf.float32))
print(tf.SparseTensorSpec([3]))
print(tf.type_spec_from_value(tf.ragged.constant([[1, 2], [3]])))
print(tf.type_spec_from_value(tf.ragged.constant([[[0, 1]], [[1, 2], [3, 4]]], ragged_rank=1)))
print(tf.type_spec_from_value(tf.SparseTensor(indices=[[0, 0]], values=[1.0], dense_shape=[2, 2])))
print(tf.type_spec_from_value(tf.constant([1, 2])))
print(spec == tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32), spec == tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int64))


@tf.function(input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32, ragged_rank=1)])
def total(rt):
    print("tracing total", rt.shape)
    return tf.reduce_sum(rt.values)


print(total(tf.ragged.constant([[1, 2], [3]])))
print(total(tf.ragged.constant([[1], [2], [3, 4], []])))
print("traces:", total.experimental_get_tracing_count())
print(total.pretty_printed_concrete_signatures())
try:
    total(tf.ragged.constant([[1.0], [2.0]]))
except ValueError as e:
    print("ValueError:", e)


@tf.function(input_signature=[tf.SparseTensorSpec(shape=[None, 3], dtype=tf.float32)])
def row_sums(sp):
    print("tracing row_sums", sp.shape)
    return tf.sparse.to_dense(sp)


print(row_sums(tf.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])))
print(row_sums(tf.SparseTensor([[2, 1]], [5.0], [3, 3])))
print("traces:", row_sums.experimental_get_tracing_count())


@tf.function
def scale(rt, k):
    return rt.values * k


cf = scale.get_concrete_function(tf.RaggedTensorSpec(shape=[None, None], dtype=tf.float32, ragged_rank=1), 2.0)
print(cf(tf.ragged.constant([[1.0], [2.0, 3.0]])))
print(cf.structured_input_signature)
print(scale(tf.ragged.constant([[4.0, 5.0]]), 2.0))
print("traces:", scale.experimental_get_tracing_count())

try:
    tf.RaggedTensorSpec(shape=[2], dtype=tf.int32, ragged_rank=1)
except ValueError as e:
    print("ValueError:", e)
try:
    tf.RaggedTensorSpec(dtype=tf.int32)
except ValueError as e:
    print("ValueError:", e)
try:
    tf.RaggedTensorSpec([None, None], tf.int32, ragged_rank="1")
except TypeError as e:
    print("TypeError:", e)
try:
    tf.type_spec_from_value({"a": 1})
except TypeError as e:
    print("TypeError:", e)

# get_concrete_function() with no arguments: the input_signature's trace
# (a method's too).


class Scaler(tf.Module):
    def __init__(self):
        self.w = tf.Variable(2.0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def scale(self, x):
        return x * self.w


scaler = Scaler()
scale_fn = scaler.scale.get_concrete_function()
print(scale_fn.structured_input_signature)
print(scale_fn(tf.constant([1.0, 2.0])))
