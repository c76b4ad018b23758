# TF's error classes in except clauses: tf.errors.OpError catches its
# subclasses, OperatorNotAllowedInGraphError is a TypeError, and an OpError
# is no ValueError. tf_errors.expected is what TensorFlow prints.
import tensorflow as tf

try:
    tf.reshape(tf.constant([1, 2, 3]), [2, 2])
except tf.errors.OpError as e:
    print('OpError caught', type(e).__name__, e.error_code)

try:
    try:
        tf.reshape(tf.constant([1, 2, 3]), [2, 2])
    except ValueError:
        print('wrong: an InvalidArgumentError is no ValueError')
except tf.errors.InvalidArgumentError as e:
    print('InvalidArgumentError caught', e.error_code)


@tf.function
def truth(x):
    return bool(x)


try:
    truth(tf.constant(1))
except TypeError as e:
    print('TypeError caught', type(e).__name__)
