# collections: defaultdict, Counter, OrderedDict (dict flavors), namedtuple
# (defaults, _fields/_asdict/_replace/_make, binding errors), deque (maxlen,
# rotate). Expected: CPython 3.11's.
import collections
from collections import defaultdict, Counter, OrderedDict, namedtuple, deque

d = defaultdict(list)
for word in ["apple", "avocado", "banana", "blueberry", "cherry"]:
    d[word[0]].append(word)
print(d)
print(dict(d), len(d), "a" in d, "z" in d)
counts = collections.defaultdict(int)
for ch in "mississippi":
    counts[ch] += 1
print(counts)
print(sorted(counts.items()))
try:
    defaultdict(None)["x"]
except KeyError as e:
    print("KeyError", e)
try:
    defaultdict(3)
except TypeError as e:
    print(e)

c = Counter("abracadabra")
print(c)
print(c.most_common(2))
print(c["a"], c["z"], len(c))
c.update(["a", "z"])
print(c.most_common(3), c.total())
c.subtract({"a": 10})
print(c)
print(Counter({"x": 3, "y": 1}), Counter(), Counter(cats=4, dogs=2))
print(sorted(Counter("aab").elements()))

od = OrderedDict()
od["b"] = 1
od["a"] = 2
od["c"] = 3
print(od)
od.move_to_end("b")
print(list(od.keys()))
od.move_to_end("c", last=False)
print(od)
print(od.popitem(), od.popitem(last=False), od)
print(OrderedDict())
try:
    {}.popitem()
except KeyError as e:
    print(e)

Point = namedtuple("Point", ["x", "y"])
p = Point(1, y=2)
print(p, p.x, p[1], len(p), p == Point(1, 2))
x, y = p
print(x + y, Point._fields, p._asdict())
print(p._replace(x=10), Point._make([5, 6]))
P3 = collections.namedtuple("P3", "a b, c", defaults=[0])
print(P3(1, 2), P3(1, 2, 3))
for bad in [lambda: Point(1), lambda: Point(1, 2, 3), lambda: Point(1, 2, z=3), lambda: P3()]:
    try:
        bad()
    except TypeError as e:
        print(e)
try:
    namedtuple("Bad", ["_x"])
except ValueError as e:
    print(e)

q = deque([1, 2, 3], maxlen=3)
q.append(4)
print(q, len(q), q[0], q[-1], 3 in q, q.maxlen)
q.appendleft(0)
print(q, q.popleft(), q.pop(), q)
dq = deque()
dq.extend(range(5))
dq.rotate(2)
print(dq, list(dq), dq.count(1))
try:
    deque().pop()
except IndexError as e:
    print(e)
print(deque(), type(d).__name__, type(c).__name__)
