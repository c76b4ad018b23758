# contextlib: contextmanager over a generator (finally on exit and on an
# exception, an except that swallows, a replaced exception, the
# RuntimeErrors), suppress, nullcontext, closing. Expected: CPython 3.11's.
import contextlib
import time
from contextlib import contextmanager

@contextlib.contextmanager
def timer(name):
    print("start", name)
    try:
        yield name.upper()
    finally:
        print("end", name)

with timer("a") as t:
    print("inside", t)

try:
    with timer("b"):
        raise ValueError("bad")
except ValueError as e:
    print("propagated", e)

@contextmanager
def swallow():
    try:
        yield
    except KeyError as e:
        print("swallowed", repr(e))

with swallow():
    {}["k"]
print("after swallow")

with contextlib.suppress(ZeroDivisionError, KeyError):
    1 / 0
print("suppressed")
try:
    with contextlib.suppress(KeyError):
        1 / 0
except ZeroDivisionError as e:
    print("not suppressed:", e)

with contextlib.nullcontext(5) as v:
    print("null", v)

class Res:
    def close(self):
        print("closed")
with contextlib.closing(Res()) as r:
    print(type(r).__name__)

@contextmanager
def bad():
    yield 1
    yield 2
try:
    with bad():
        pass
except RuntimeError as e:
    print(e)

@contextmanager
def replace():
    try:
        yield
    except ValueError:
        raise TypeError("replaced")
try:
    with replace():
        raise ValueError("orig")
except TypeError as e:
    print("got", e)
