# tf.autograph.to_code and to_graph at run time: the program carries the converted text
# of its functions and methods, as `agc to-code` prints it (TF's text); a
# tf.function gives its python_function's. A generator (never converted) and
# a nested def (converted with its enclosing function) say why they have none.
# Expected: TF's text for the conversions; agc's own messages for the two
# functions agc cannot show.
import tensorflow as tf


def count_down(x):
  while x > 0:
    x = x - 1
  return x


@tf.function
def doubled(x):
  return x * 2


class Stepper:
  def step(self, x):
    if x > 0:
      x = x - 1
    return x


print(tf.autograph.to_code(count_down))
print(tf.autograph.to_code(doubled) == tf.autograph.to_code(doubled.python_function))
print(tf.autograph.to_code(Stepper().step))


def numbers():
  yield 1


def outer():
  def inner(y):
    return y + 1
  return inner


for f in [numbers, outer()]:
  try:
    tf.autograph.to_code(f)
  except NotImplementedError as e:
    print("NotImplementedError:", e)


# tf.autograph.to_graph: the conversion as a function, eager or traced.
def collatz(n):
  steps = 0
  while n > 1:
    if n % 2 == 0:
      n = n // 2
    else:
      n = 3 * n + 1
    steps += 1
  return steps


g = tf.autograph.to_graph(collatz)
print(g(6), tf.function(g)(tf.constant(27)))
try:
  tf.autograph.to_graph(numbers)
except NotImplementedError as e:
  print("NotImplementedError:", e)
