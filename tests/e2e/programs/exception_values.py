# Exception classes and instances as values print as Python prints them:
# the tf.function guide's assert_raises helper formats the class it is given
# ('{}'.format(error_class)), TF's error classes with their module path, and
# a KeyError raised by a dict lookup keeps the key in its args.
# exception_values.expected is what TensorFlow prints.
import tensorflow as tf


def assert_raises(fn, error_class):
    try:
        fn()
    except error_class as e:
        print('Caught expected exception \n  {}:'.format(error_class))
        print(type(e).__name__, e.args if isinstance(e, LookupError) else e.error_code)
    else:
        print('Expected {} to be raised but no error was raised!'.format(error_class))


@tf.function
def divide(a, b):
    return a // b


assert_raises(lambda: {}['missing'], KeyError)
assert_raises(lambda: tf.reshape(tf.constant([1, 2]), [3]), tf.errors.InvalidArgumentError)
assert_raises(lambda: divide(4, 2), ZeroDivisionError)
print('{}'.format(TypeError), str(ValueError), repr(tf.errors.OpError), tf.errors.NotFoundError)
print([TypeError, ValueError('v', 1)], (ZeroDivisionError,), {'k': KeyError})
print(issubclass(tf.errors.InvalidArgumentError, tf.errors.OpError), tf.errors.InvalidArgumentError.__name__)
try:
    {'a': 1}['b']
except KeyError as e:
    print(str(e), repr(e), e.args, '{!r}'.format(e))
try:
    {'a': 1}.pop(('x', 2))
except LookupError as e:
    print(repr(e), e)


@tf.function
def describe(x):
    print('{} {!r} {}'.format(TypeError, KeyError('k'), tf.errors.UnimplementedError))
    return x


describe(tf.constant(0))
