# AutoGraph's optional features named in the decorator, as
# tf.function(experimental_autograph_options=...) takes them: the function is
# converted with them, so an assert on a tensor becomes a graph assertion,
# == and != go through ag__.eq / ag__.not_eq, and print with a tensor prints
# its value each time the graph runs (without BUILTIN_FUNCTIONS it prints the
# symbolic tensor once, while tracing). autograph_features.expected is what
# TensorFlow prints.
import tensorflow as tf

Feature = tf.autograph.experimental.Feature


@tf.function(experimental_autograph_options=Feature.ASSERT_STATEMENTS)
def checked(x):
    assert x > 0, 'x must be positive'
    return x * 2


print(checked(tf.constant(3)))
try:
    checked(tf.constant(-1))
except tf.errors.InvalidArgumentError as e:
    print(type(e).__name__)
try:
    checked(-1)
except AssertionError as e:
    print(type(e).__name__, e)


@tf.function(experimental_autograph_options=(Feature.EQUALITY_OPERATORS,))
def compare(a, b):
    return a == b, a != b, 1 == 1.0


print(compare(tf.constant([1, 2]), tf.constant([1, 3])))


@tf.function(experimental_autograph_options=[Feature.BUILTIN_FUNCTIONS])
def shout(x):
    print('value:', x, 'step', 1)
    print('tracing shout')
    return x + 1


shout(tf.constant([1.5, 2.0]))
shout(tf.constant([3.0, 4.0]))


@tf.function
def quiet(x):
    print('value:', x)
    return x


quiet(tf.constant(1))
quiet(tf.constant(2))
print(str(Feature.ALL), repr(Feature.LISTS))
