# itertools' endless iterators (count, cycle, repeat without times) as lazy
# iterator objects, consumed by islice, zip (in lockstep, with strict's
# errors) and a for loop that breaks. Expected: CPython 3.11's.
import itertools
from itertools import count, cycle, repeat, islice
c = count(5)
print(next(c), next(c), c)
print(list(islice(count(0.5, 0.25), 4)), count(1, 2))
print(list(zip(count(), "abc")))
for i, x in zip(itertools.count(1), ["a", "b"]):
    print(i, x)
cy = cycle("ab")
print([next(cy) for _ in range(5)])
print(list(islice(cycle([1, 2, 3]), 2, 9, 2)))
r = repeat("x")
print(next(r), next(r), r, list(repeat(1, 3)))
print(list(zip(range(3), repeat(0))))
print(list(islice(cycle(count()), 3)))
try:
    next(cycle([]))
except StopIteration:
    print("empty cycle stops")
try:
    list(zip([1, 2], [1], strict=True))
except ValueError as e:
    print(e)
try:
    list(zip([1], [1, 2], strict=True))
except ValueError as e:
    print(e)
try:
    list(zip([1, 2], [1, 2], [1], strict=True))
except ValueError as e:
    print(e)
for n in count():
    if n > 2:
        break
    print("n", n)
print(type(count()), type(cycle("a")), type(repeat(1)), isinstance(map(str, count()), map))
