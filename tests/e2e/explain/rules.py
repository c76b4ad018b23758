# Functions that break AutoGraph's rules, one rule each: `agc explain` must
# predict, word for word, what calling each one raises (explain_test.sh).
import tensorflow as tf


@tf.function
def set_in_main_branch_only(x):
  if x > 0:
    y = x
  return y


@tf.function
def returns_in_main_branch_only(x):
  if x > 0:
    x = x + 1
    if x > 5:
      return x
  return -x


@tf.function
def read_before_the_loop_sets_it(n):
  for i in tf.range(n):
    z = y + i
    y = z
  return n


@tf.function
def return_in_a_tensor_loop(n):
  for i in tf.range(n):
    if i > 3:
      return i
  return n


@tf.function
def python_while_broken_by_a_tensor(x):
  while True:
    x = x - 1
    if x < 0:
      break
  return x


@tf.function
def python_for_broken_by_a_tensor(x):
  for i in range(3):
    if x > i:
      break
    x = x + 1
  return x


@tf.function
def python_while_test_becomes_a_tensor(x):
  i = 0
  while i < 3:
    i = i + x
  return i


@tf.function
def int_accumulator_of_floats(x):
  acc = 0
  for v in x:
    acc += v
  return acc


@tf.function(autograph=False)
def unconverted_tensor_if(x):
  if x > 0:
    return x
  return -x


for f, arg in [(set_in_main_branch_only, tf.constant(1)),
               (returns_in_main_branch_only, tf.constant(1)),
               (read_before_the_loop_sets_it, tf.constant(3)),
               (return_in_a_tensor_loop, tf.constant(6)),
               (python_while_broken_by_a_tensor, tf.constant(3)),
               (python_for_broken_by_a_tensor, tf.constant(3)),
               (python_while_test_becomes_a_tensor, tf.constant(1)),
               (int_accumulator_of_floats, tf.constant([1.0, 2.0])),
               (unconverted_tensor_if, tf.constant(1))]:
  try:
    f(arg)
    print(f.__name__, "ran")
  except Exception as e:
    print(f.__name__, "raised", type(e).__name__ + ": " + str(e).split("\n")[0])
