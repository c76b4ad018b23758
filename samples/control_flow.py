# From seeds 000/001 (tf.function guide): "AutoGraph transformations", "Conditionals", "Loops"; the other functions reuse if/elif/else and while shapes found in the seeds.
import tensorflow as tf


# --- AutoGraph transformations: a simple loop ----------------------------

@tf.function
def f(x):
  while tf.reduce_sum(x) > 1:
    tf.print(x)
    x = tf.tanh(x)
  return x

f(tf.random.uniform([5]))

print(tf.autograph.to_code(f.python_function))


# --- Conditionals --------------------------------------------------------

@tf.function
def fizzbuzz(n):
  for i in tf.range(1, n + 1):
    print('Tracing for loop')
    if i % 15 == 0:
      print('Tracing fizzbuzz branch')
      tf.print('fizzbuzz')
    elif i % 3 == 0:
      print('Tracing fizz branch')
      tf.print('fizz')
    elif i % 5 == 0:
      print('Tracing buzz branch')
      tf.print('buzz')
    else:
      print('Tracing default branch')
      tf.print(i)

fizzbuzz(tf.constant(5))
fizzbuzz(tf.constant(20))


# --- Early returns (the recursive_fn shape: `if ...: return ... else: return ...`) ---

@tf.function
def sign(x):
  if x > 0:
    return 1.0
  if x < 0:
    return -1.0
  return 0.0

print(sign(tf.constant(3.0)))
print(sign(tf.constant(-2.0)))
print(sign(tf.constant(0.0)))


@tf.function
def sign_elif(x):
  if x > 0:
    return tf.constant(1)
  elif x < 0:
    return tf.constant(-1)
  else:
    return tf.constant(0)

print(sign_elif(tf.constant(5)))
print(sign_elif(tf.constant(-5)))


# A Python-valued condition (like `mode == tf.estimator.ModeKeys.TRAIN` in the
# RevNet model_fn): only one branch is traced, and a branch may return early.
@tf.function
def scale_for_mode(x, mode):
  if mode == 'train':
    y = x * 0.5
    return y
  return x

print(scale_for_mode(tf.constant(4.0), 'train'))
print(scale_for_mode(tf.constant(4.0), 'eval'))


# --- if without else, updating a value (the body of the while loop above) ---

@tf.function
def squash_once(x):
  if tf.reduce_sum(x) > 1:
    tf.print(x)
    x = tf.tanh(x)
  return x

print(squash_once(tf.constant([0.5, 0.9, 0.3])))


# --- while with an if/else inside (next_collatz as a loop) ---------------

@tf.function
def collatz_steps(x):
  steps = tf.constant(0)
  while x != 1:
    if x % 2 == 0:
      x = x // 2
    else:
      x = 3 * x + 1
    steps += 1
  return steps

print(collatz_steps(tf.constant(6)))
print(collatz_steps(tf.constant(27)))


# --- a Python loop over range with if/else (the optimizer-alternation driver) ---

@tf.function
def alternate(x):
  for i in range(10):
    if i % 2 == 0:
      x = x + 1
    else:
      x = x * 2
  return x

print(alternate(tf.constant(0)))


# --- conditional expressions and boolean operators -----------------------

@tf.function
def activation(x, use_relu):
  return tf.nn.relu(x) if use_relu else tf.tanh(x)

print(activation(tf.constant([-1.0, 2.0]), True))
print(activation(tf.constant([-1.0, 2.0]), False))


@tf.function
def in_range(x):
  if x > 0 and x < 10:
    tf.print('in range')
    result = True
  elif x < 0 or x > 100:
    tf.print('far out')
    result = False
  else:
    tf.print('between')
    result = not x > 50
  return result

print(in_range(tf.constant(5)))
print(in_range(tf.constant(500)))
print(in_range(tf.constant(20)))
