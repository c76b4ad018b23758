# Python's timeit with callables (agc cannot run a statement given as text).
# Expected output: CPython 3.11 (only what does not depend on the timings).
import timeit

calls = []


def work():
    calls.append(1)


t = timeit.timeit(work, number=1000)
print(type(t).__name__, t >= 0.0, len(calls))
t = timeit.timeit(stmt=work, setup=lambda: calls.clear(), number=7)
print(len(calls))
times = timeit.repeat(work, repeat=3, number=10)
print(type(times).__name__, len(times), all(x >= 0.0 for x in times), len(calls))
print(timeit.timeit(number=5) >= 0.0, timeit.timeit("pass", number=5) >= 0.0)
ticks = []


def fake_timer():
    ticks.append(1)
    return float(len(ticks))


print(timeit.timeit(work, timer=fake_timer, number=3))
print(timeit.repeat(work, timer=fake_timer, repeat=2, number=1))
timer = timeit.default_timer
a = timer()
b = timeit.default_timer()
print(b >= a)
try:
    timeit.timeit(stmt=5)
except ValueError as e:
    print("ValueError:", e)
