# A loop of Python-level operations (a method call, subscripts, arithmetic,
# abs) a million times: what generated code's per-operation costs show in,
# such as the traceback positions it marks (docs/performance.md).
# usage: agc run bench/python_level_loop.py
import time


class Acc:
    def __init__(self):
        self.total = 0

    def add(self, v):
        self.total = self.total + v


def work(n):
    acc = Acc()
    xs = [1, 2, 3, 4]
    for i in range(n):
        acc.add(xs[i % 4] * 2 - abs(-i) // 3)
    return acc.total


start = time.perf_counter()
print(work(1000000))
print("seconds", round(time.perf_counter() - start, 3))
