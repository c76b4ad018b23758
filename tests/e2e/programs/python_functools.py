# functools.partial and reduce as CPython computes them (the same file runs
# under /usr/bin/python3).
import functools


def power(base, exp=2, scale=1):
    return scale * base ** exp


square = functools.partial(power, exp=2)
cube = functools.partial(power, exp=3, scale=10)
print(square(4), cube(2), cube(2, scale=1), functools.partial(power, 3)(exp=4))
add3 = functools.partial(lambda a, b, c: a + b + c, 1, 2)
print(add3(3), list(map(functools.partial(power, exp=0.5), [4, 9])))
print(functools.reduce(lambda a, b: a * b, [1, 2, 3, 4]), functools.reduce(lambda a, b: a + b, [], 10))
print(functools.reduce(lambda acc, x: acc + [x * 2], range(4), []), functools.reduce(max, [3, 9, 2]))
print(functools.reduce(lambda a, b: a + b, ["a", "b", "c"], None if False else ""))
for call in [lambda: functools.reduce(lambda a, b: a, []), lambda: functools.reduce(max, [1], 0, 1),
             lambda: functools.partial(3)]:
    try:
        call()
    except TypeError as e:
        print("TypeError:", e)
