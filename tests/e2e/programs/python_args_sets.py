# *args/**kwargs, keyword-only and positional-only parameters, * and ** in
# calls and displays, and sets, with Python's binding errors. Everything above
# the TensorFlow part is plain Python: its expected output is what
# /usr/bin/python3 (3.11) prints for this file without the import and the part
# below the marker. The TensorFlow part's lines follow TF 2.15's rules, as
# each comment there says.
import tensorflow as tf


def f(a, *args, b=1, **kwargs):
  return (a, args, b, kwargs)


def g(a, b=2, /, c=3, *, d, e=5):
  return [a, b, c, d, e]


def h(x, y):
  return x - y


print(f(1))
print(f(1, 2, 3, b=4, z=5, y=6))
print(g(1, d=4))
print(g(1, 2, 3, d=4, e=6))
print(h(*[10, 3]), h(**{'y': 1, 'x': 5}), h(1, *(2,)), h(*(), x=7, **{'y': 2}))
args = (1, 2)
kw = {'b': 9, 'k': 'v'}
print(f(0, *args, 3, *[4], b=8, **{'q': 1}))
print(f(*args, **kw))

ident = lambda q: q
bad_calls = [
    lambda: h(),
    lambda: h(1),
    lambda: h(1, 2, 3),
    lambda: h(1, x=2),
    lambda: h(1, 2, z=3),
    lambda: g(1),
    lambda: g(1, 2, 3, 4, d=0),
    lambda: g(a=1, d=0),
    lambda: h(*5),
    lambda: h(**[1]),
    lambda: h(x=1, **{'x': 2}),
    lambda: print(*1),
    lambda: ident(),
]
for call in bad_calls:
  try:
    call()
  except TypeError as e:
    print('TypeError:', e)


def outer(scale):
  def inner(*values, offset=0):
    return [v * scale + offset for v in values]
  return inner


print(outer(2)(1, 2, 3), outer(3)(*range(3), offset=1))
total = lambda *xs, **named: sum(xs) + sum(named.values())
print(total(1, 2, 3, a=4))


class Acc:
  def __init__(self, *items, start=0):
    self.items = list(items)
    self.start = start

  def add(self, *more, **opts):
    self.items.extend(more)
    return self.start + sum(self.items) * opts.get('times', 1)


acc = Acc(1, 2, start=10)
print(acc.add(3, 4), acc.add(times=2), acc.items)
try:
  acc.add(1, bogus=2, times=1, **{'times': 3})
except TypeError as e:
  print('TypeError:', e)

items = ['a', 'b', 'c']
print(*items, sep=', ')
print(*items)
print(*[1, 2], *(3,), sep='-', end='!\n')
a = [1, 2]
b = (3, 4)
print([*a, *b], (*a,), [0, *a, 9], (*b, *a))
d1 = {'x': 1, 'y': 2}
d2 = {'y': 20, 'z': 30}
print({**d1, **d2}, {'w': 0, **d1, 'x': 100})
try:
  print({**[1]})
except TypeError as e:
  print('TypeError:', e)
try:
  print([*5])
except TypeError as e:
  print('TypeError:', e)

# Sets: small ints print in CPython's table order; strs are printed sorted
# (CPython randomizes their order per process).
s = {3, 1, 2}
print(s, {10, 1}, set(), frozenset({1}), frozenset(), len(s), 2 in s, 5 not in s)
print(sorted({'pear', 'apple', 'fig'}), sorted(set('banana')))
evens = {x * 2 for x in range(6)}
print(evens, {x % 3 for x in [1, 2, 3, 4, 5, 6]})
s.add(4)
s.discard(10)
s.remove(1)
print(s, s.pop(), s)
t = {1, 2, 3}
t.update([3, 4], (5,))
print(t, t | {9}, t & {2, 5, 7}, t - {1, 2}, t ^ {5, 6})
print(t.union([7]), t.intersection({1, 2}, [2]), t.difference([1]), t.symmetric_difference([1, 8]))
print({1, 2} <= {1, 2, 3}, {1, 2} < {1, 2}, {1, 2, 3} >= {3}, {1} > {1}, {1, 2} == {2, 1})
print({1, 2}.issubset([1, 2, 5]), {1, 2}.issuperset([2]), {1}.isdisjoint([2, 3]), {1} == frozenset({1}))
fz = frozenset([3, 1])
print(fz | {5}, {5} | fz, {fz: 'frozen'}[frozenset({1, 3})])
u = {1}
alias = u
u |= {2}
u -= {1}
print(u, alias, u is alias)
print(sum({1, 2, 3}), sorted({3, 1, 2}, reverse=True), list({5, 6}), tuple({7}))
print(isinstance(s, set), isinstance(fz, frozenset), isinstance(fz, set), type(s).__name__, type(fz).__name__)
for bad in [lambda: {[1]}, lambda: {{1}: 2}, lambda: {1}.remove(3), lambda: set().pop(), lambda: {1} < 2,
            lambda: {1} | [1], lambda: set(5), lambda: fz.add(1)]:
  try:
    bad()
  except (TypeError, KeyError, AttributeError) as e:
    print(type(e).__name__ + ':', e)
total_len = 0
for word in sorted({'x', 'yy', 'zzz'}):
  total_len += len(word)
print(total_len)
# ---- TensorFlow


# Each extra positional argument is part of the trace key (TF's FunctionSpec
# binds *args; a Python float keyword is a literal of the key): four calls,
# three traces.
@tf.function
def tf_sum(x, *rest, scale=1.0):
  print('tracing with', len(rest), 'extra')
  s = x
  for r in rest:
    s = s + r
  return s * scale


print(tf_sum(tf.constant(1.0), tf.constant(2.0)))
print(tf_sum(tf.constant(1.0), tf.constant(2.0), tf.constant(3.0)))
print(tf_sum(tf.constant(5.0), tf.constant(2.0)))
print(tf_sum(*[tf.constant(1.0), tf.constant(2.0)], **{'scale': 2.0}))


# Set code inside a tf.function stays Python (AutoGraph converts no set
# operation): it runs once, while tracing.
@tf.function
def tf_count(x):
  seen = {1, 2}
  seen.add(3)
  return x + len(seen | {4})


print(tf_count(tf.constant(1)))
try:
  print({tf.constant(1)})
except TypeError as e:
  # TF's EagerTensor.__hash__ (tensorflow/python/framework/tensor.py).
  print('TypeError:', e)
