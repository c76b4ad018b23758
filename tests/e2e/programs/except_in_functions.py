# try/except inside converted functions: AutoGraph leaves try/except alone,
# so it runs in Python while the function is traced, and any class may be
# named: a built-in one (read through ag__.ld in the converted code), a
# user's, a tuple, a class held in a variable or passed as an argument.
# except_in_functions.expected is what TensorFlow prints.
import tensorflow as tf


class ConfigError(LookupError):
    pass


def check(x, limit):
    if x > limit:
        raise ConfigError('too big: {}'.format(x))
    return x


def expect(fn, error_class):
    try:
        fn()
        print('no error')
    except error_class as e:
        print('expected', type(e).__name__, e)


@tf.function
def traced(x):
    try:
        raise ValueError('bad')
    except ValueError:
        print('caught ValueError while tracing')
    try:
        check(5, 3)
    except ConfigError as e:
        print('caught', type(e).__name__, e)
    try:
        {}['k']
    except (TypeError, KeyError) as e:
        print('caught', type(e).__name__, e)
    errors = (ZeroDivisionError, IndexError)
    try:
        [][1]
    except errors as e:
        print('caught', type(e).__name__, e)
    try:
        check(1, 3)
    except ConfigError:
        print('wrong: nothing was raised')
    expect(lambda: check(9, 3), LookupError)
    expect(lambda: 1 // 0, ArithmeticError)
    return x + 1


print(traced(tf.constant(1)))
print(traced(tf.constant(2)))


def not_a_class():
    try:
        raise ValueError('x')
    except 3:
        pass


try:
    not_a_class()
except TypeError as e:
    print('TypeError', e)
