# Generators in Python code (AutoGraph never converts them; TF runs them as
# written): next/send/throw/close, yield from, return values, finally clauses
# on close and on throw, PEP 479, generators as __iter__, in a traced loop.
# Expected: CPython 3.11's output (TF's for the tensor line).
import tensorflow as tf

def fib(limit):
    a, b = 0, 1
    while a < limit:
        yield a
        a, b = b, a + b
    return "done"

print(list(fib(20)))

def echo():
    received = None
    while True:
        received = yield received
        if received == "stop":
            return

g = echo()
print(next(g))
print(g.send("hello"))
print(g.send(3))
try:
    g.send("stop")
except StopIteration as e:
    print("stopped", repr(str(e)))

def guarded():
    try:
        yield 1
        yield 2
    finally:
        print("cleanup")

g = guarded()
print(next(g))
g.close()
print("closed")
for x in guarded():
    print(x)

def lines():
    yield from ["a", "b"]
    yield from range(2)

print(list(lines()))

class Batches:
    def __init__(self, data, n):
        self.data = data
        self.n = n
    def __iter__(self):
        for i in range(0, len(self.data), self.n):
            yield self.data[i:i + self.n]

print(list(Batches([1, 2, 3, 4, 5], 2)))

@tf.function
def total(xs):
    s = tf.constant(0)
    for b in fib(10):
        s += b
    return s
print(total(1))

def bad():
    yield 1
    raise ValueError("boom")

try:
    for v in bad():
        print(v)
except ValueError as e:
    print("caught", e)

def stopper():
    yield 1
    raise StopIteration

try:
    list(stopper())
except RuntimeError as e:
    print(e)

g = fib(3)
print(type(g).__name__)
print(sorted(fib(10), reverse=True), sum(fib(10)), max(fib(10)))
print(dict(zip("ab", fib(5))))
g = guarded()
next(g)
try:
    g.throw(ValueError("inj"))
except ValueError as e:
    print("thrown back", e)

def f():
    try:
        print("body")
    finally:
        raise ValueError("x")
try:
    f()
except ValueError as e:
    print("caught", e)

def g2():
    for i in range(3):
        try:
            if i == 1:
                continue
            print("i", i)
        finally:
            print("fin", i)
g2()


# A generator defined inside a function: it keeps the enclosing function's
# cells (and sees later rebindings), outlives the call that made it, and may
# be made many times.
def counter_factory(step):
    seen = []

    def count_up(n):
        for i in range(n):
            seen.append(i)
            yield i * step

    def take_all():
        return list(count_up(3)), list(seen)

    gen = count_up(2)
    step = step * 10
    return gen, take_all


g, take_all = counter_factory(2)
print(next(g), next(g))
print(take_all())


def tree_walk(tree):
    def walk(node, depth):
        name, children = node
        yield "  " * depth + name
        for child in children:
            yield from walk(child, depth + 1)

    return walk(tree, 0)


for line in tree_walk(("root", [("a", [("a1", [])]), ("b", [])])):
    print(line)
