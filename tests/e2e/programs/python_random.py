# Python's random module, seeded: the same numbers as CPython 3.11 (the same
# file runs under /usr/bin/python3).
import random

random.seed(42)
print(random.random(), random.random())
print(random.randint(1, 10), random.randrange(100), random.randrange(10, 50, 7), random.randrange(50, 10, -3))
print(random.getrandbits(1), random.getrandbits(31), random.getrandbits(40), random.getrandbits(63))
items = list(range(10))
random.shuffle(items)
print(items)
print(random.choice("abcdef"), random.choice([3, 1, 4]), random.sample(range(100), 5), random.sample(["x", "y", "z"], 2))
print(random.sample(range(1000), 12))
print(random.choices(["a", "b", "c"], k=5), random.choices(["a", "b", "c"], weights=[1, 0, 5], k=6))
print(random.choices(range(4), cum_weights=[0.1, 0.2, 0.5, 1.0], k=4))
print(random.uniform(1, 3), random.gauss(), random.gauss(10, 2), random.gauss(), random.normalvariate(5, 0.5))
random.seed(0)
a = [random.random() for _ in range(3)]
random.seed(0)
b = [random.random() for _ in range(3)]
print(a == b, a)
random.seed(-7)
print(random.random())
random.seed(2**40 + 5)
print(random.random())
random.seed(True)
print(random.random())
for call in [lambda: random.choice([]), lambda: random.randrange(0), lambda: random.randrange(5, 5),
             lambda: random.randrange(1, 10, 0), lambda: random.sample([1, 2], 3), lambda: random.randint(1.5, 3),
             lambda: random.choices([1, 2], weights=[0, 0]), lambda: random.choices([1], [1], cum_weights=[1]),
             lambda: random.getrandbits(-1), lambda: random.shuffle((1, 2))]:
    try:
        call()
    except (ValueError, TypeError, IndexError) as e:
        print(type(e).__name__ + ":", e)
