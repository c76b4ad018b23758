# Generator expressions are generators, as in Python: the first iterable is
# evaluated where the expression is, the rest one item at a time as it is
# iterated; any/all/next stop early (an endless source works); a returned
# one reads its variables when it runs (late binding); it is used up after
# one pass. List comprehensions also walk a generator one item at a time.
# Expected: CPython 3.11.7.
def gen_of(xs, k):
    return (x * k for x in xs if x != 2)

def log_and(x, log):
    log.append(x)
    return x

g = gen_of([1, 2, 3], 10)
print(type(g).__name__)
print(list(g), list(g))
log = []
print(any(log_and(x, log) > 1 for x in [1, 5, 7, 9]))
print(log)
def counter():
    n = 0
    while True:
        yield n
        n += 1
print(next(x for x in counter() if x * x > 50))
print(sum(x + y for x in range(3) for y in range(2)))
print(",".join(str(v) for v in (3, 4)))
k = 2
h = (k * v for v in range(3))
k = 5
print(list(h))


def lines(log):
    log.append("made")
    return (f"{i}:{w}" for i, w in enumerate(["a", "b"]) if w)


log = []
g = lines(log)
print(log, next(g), list(g), next(g, "done"))
print(all(x < 3 for x in counter()))
print(sorted((y, x) for x in "ab" for y in range(2)))
print(max(len(w) for w in ["tf", "agc", "x"]), min((v for v in [4, 2, 8]), default=0))
print(type(x for x in []).__name__, tuple(x for x in ()))


def noisy(n):
    for i in range(n):
        print("make", i)
        yield i


# A list comprehension over a generator takes one item at a time too.
print([print("use", i) or i for i in noisy(2)])
