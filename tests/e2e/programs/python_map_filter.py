# Python 3's map and filter: lazy iterator objects (as itertools' count and
# cycle), used up after one pass, map over several iterables stopping at the
# shortest, both over endless iterators, and inside a tf.function (where
# AutoGraph leaves them to Python). Expected: CPython 3.11's output for the
# Python part, TensorFlow's for the tf.function.
import itertools

import tensorflow as tf

calls = []


def double(x):
  calls.append(x)
  return 2 * x


m = map(double, [1, 2, 3])
print(type(m), type(filter(None, [])))
print(repr(m).startswith("<map object at 0x"), str(filter(None, [])).startswith("<filter object at 0x"))
print(calls)  # nothing called yet: map is lazy
print(next(m), calls)
print(list(m), calls)
print(list(m), next(m, "done"))

print(list(map(lambda a, b, c: a + b * c, [1, 2, 3, 4], (10, 20, 30), range(100))))
print(list(map(pow, [2, 3], [5])))
print(next(map(lambda n: n * n, itertools.count(7))))
squares = map(lambda n: n * n, itertools.count())
print([next(squares) for _ in range(5)], next(squares))
print(list(itertools.islice(filter(lambda n: n % 3 == 0, itertools.count(1)), 4)))
print(list(zip(map(str, itertools.count()), "ab")))

f = filter(None, [0, 1, "", "a", None, [], [0], False, 2.5])
print(list(f), list(f))
evens = filter(lambda n: n % 2 == 0, range(10))
print(next(evens), next(evens), list(evens))
print(sum(map(len, ["ab", "cde"])), sorted(map(abs, [-3, 1, -2])), max(filter(None, [0, 4, 2])))
print(" ".join(map(str, [1, 2.5, None])), tuple(map(int, "123")), set(map(lambda c: c.upper(), "aba")) == {"A", "B"})
print(dict(map(lambda kv: (kv[0], kv[1] * 10), {"x": 1, "y": 2}.items())))
a, b = map(float, ["1.5", "2"])
print(a, b, [*map(abs, [-1, -2])])
print(3 in map(double, [1, 1.5, 5]), 4 in filter(None, [1, 2]))
for i, v in enumerate(map(lambda s: s * 2, "xy")):
  print(i, v)
it = iter(map(str, [1]))
print(it is iter(it), list(it))
print(isinstance(map(str, []), map), isinstance(filter(None, []), filter), isinstance([], map))

try:
  map(str)
except TypeError as e:
  print("TypeError:", e)
try:
  map(str, 5)
except TypeError as e:
  print("TypeError:", e)
try:
  filter(None, 3)
except TypeError as e:
  print("TypeError:", e)
try:
  list(map(5, [1]))
except TypeError as e:
  print("TypeError:", e)
try:
  next(filter(None, []))
except StopIteration:
  print("StopIteration")


@tf.function
def scaled_sum(x):
  total = tf.constant(0.0)
  for y in map(lambda s: x * s, [1.0, 2.0, 3.0]):
    total += y
  kept = list(filter(lambda s: s > 1, [0, 1, 2, 3]))
  return total, tf.stack(list(map(lambda k: x * k, kept)))


print(scaled_sum(tf.constant(2.0)))
