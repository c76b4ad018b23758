# Conditional expressions over tensors: AutoGraph converts the outermost one
# of a nest into ag__.if_exp (a tf.cond) and leaves those inside its
# branches as Python's, so an inner one whose condition is a tensor is
# TF's OperatorNotAllowedInGraphError; side by side both convert.
# conditional_expressions.expected is what TensorFlow prints.
import tensorflow as tf


def last_line(e):
  # TF wraps an error raised while tracing as "in user code:" and the frames
  # that raised it (TF's own files among them); its last line is the error.
  msg = str(e)
  if msg.startswith('in user code:'):
    return msg.strip().split('\n')[-1].strip()
  return f'{type(e).__name__}: {msg}'


@tf.function
def pick(x, a, flag):
  return x if a > 0 else (x * 2 if flag else x * 3)


print(pick(tf.constant(1.0), tf.constant(-1), True))
print(pick(tf.constant(1.0), tf.constant(1), False))


@tf.function
def side_by_side(x, a, b):
  return (x if a > 0 else -x) + (x * 2 if b > 0 else x * 3)


print(side_by_side(tf.constant(1.0), tf.constant(-1), tf.constant(1)))


@tf.function
def nested(x, a, b):
  return x if a > 0 else (x * 2 if b > 0 else x * 3)


try:
  nested(tf.constant(1.0), tf.constant(1), tf.constant(0))
except TypeError as e:
  print(last_line(e))
