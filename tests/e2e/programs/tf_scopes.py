# TensorFlow's context managers in `with` statements: tf.name_scope names
# the nodes of a trace (a graph's scopes are unique names) and, eagerly, the
# variables; tf.device is recorded; tf.control_dependencies orders ops after
# stateful ones; tf.init_scope lifts out of the trace. Expected output:
# TensorFlow 2's.
import tensorflow as tf
@tf.function
def scoped(x):
    with tf.name_scope("layer") as scope:
        print(scope)
        y = x * 2.0
        print(y)
        with tf.name_scope("inner"):
            print(y + 1.0)
    with tf.name_scope("layer") as scope:
        print(scope)
    with tf.device("/CPU:0"):
        print(y - 1.0)
    with tf.init_scope():
        print(tf.constant(3.0) * 2.0)
    return y


scoped(tf.constant(1.0))
with tf.name_scope("outer") as s:
    print(s)
    v = tf.Variable(1.0, name="v")
print(v.name)

counter = tf.Variable(1.0)


@tf.function
def ordered():
    a = counter.assign_add(1.0)
    with tf.control_dependencies([a]):
        b = counter.read_value() * 10.0
    return b


print(ordered())
try:
    tf.device("nonsense")
except ValueError as e:
    print(e)
try:
    tf.name_scope(3)
except ValueError as e:
    print(e)
