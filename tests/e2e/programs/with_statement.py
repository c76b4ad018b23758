# Python's `with` statement (PEP 343): entry, exit on every way out of the
# body, exceptions passed to __exit__ and swallowed by a true result, several
# managers in one statement. Expected output: CPython 3.11's (Debian 12's).
class Manager:
    def __init__(self, name, swallow=False):
        self.name = name
        self.swallow = swallow

    def __enter__(self):
        print("enter", self.name)
        return self.name.upper()

    def __exit__(self, typ, value, tb):
        print("exit", self.name, typ is None, value)
        return self.swallow


with Manager("a") as m:
    print("body", m)

with Manager("outer") as o, Manager("inner") as i:
    print("both", o, i)

with Manager("swallowing", swallow=True):
    raise ValueError("swallowed")
print("after swallow")

try:
    with Manager("passing"):
        raise KeyError("k")
except KeyError as e:
    print("caught", repr(e))

try:
    with Manager("outer2"), Manager("inner2", swallow=True):
        raise IndexError("only the inner one sees it")
    print("inner swallowed it")
except IndexError:
    print("not reached")


def early(n):
    for k in range(3):
        with Manager("loop" + str(k)):
            if k == n:
                return k
            if k == 0:
                continue
            print("not continued", k)
    return -1


print(early(1))


def breaker():
    while True:
        with Manager("w"):
            break
    print("broke")


breaker()


class NoExit:
    def __enter__(self):
        return 1


try:
    with NoExit():
        pass
except TypeError as e:
    print("TypeError", e)


class RaisingExit:
    def __enter__(self):
        return self

    def __exit__(self, typ, value, tb):
        raise RuntimeError("from __exit__")


try:
    with RaisingExit():
        raise ValueError("replaced")
except RuntimeError as e:
    print("RuntimeError", e)
