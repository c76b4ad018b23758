# type() of TF's values names TF 2.15's classes (EagerTensor, SymbolicTensor
# while tracing, ResourceVariable), subclasses of tf.Tensor / tf.Variable;
# Python's range takes an eager integer tensor by __index__, while converted
# code's range (AutoGraph's range_) makes a tensor a tf.range.
import tensorflow as tf

t = tf.constant([1, 2])
v = tf.Variable(1.0)
print(type(t), type(t).__name__, type(v).__name__)
print(isinstance(t, tf.Tensor), isinstance(t, type(t)), issubclass(type(t), tf.Tensor), type(t) is tf.Tensor)
print(isinstance(v, type(t)), issubclass(type(v), tf.Variable))
print(list(range(tf.constant(3))), [i * 2 for i in range(tf.constant(1), tf.constant(3))])


@tf.function
def total(n):
    print("traced with", type(n).__name__)
    s = 0
    for i in range(n):
        s += i
    return s


print(total(tf.constant(4)))
try:
    range(tf.constant(2.0))
except TypeError as e:
    print("TypeError:", e)
