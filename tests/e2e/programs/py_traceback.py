# Python's traceback module inside except clauses: format_exc and print_exc
# with limits, nested handlers, and no exception being handled. Expected
# output: CPython 3.11; File lines are printed with the file's base name
# (CPython prints the script's absolute path).
import os
import sys
import traceback


def show(text):
    for line in text.rstrip("\n").split("\n"):
        if line.startswith('  File "'):
            parts = line.split('"')
            line = '  File "' + os.path.basename(parts[1]) + '"' + parts[2]
        print(line)


def inner(x):
    raise ValueError("bad value %d" % x)


def middle(x):
    inner(x + 1)


def outer():
    middle(1)


try:
    outer()
except ValueError:
    show(traceback.format_exc())
    show(traceback.format_exc(limit=1))
    show(traceback.format_exc(limit=2))
    show(traceback.format_exc(limit=-1))
    traceback.print_exc(limit=0, file=sys.stdout)
print(repr(traceback.format_exc()))


def handler():
    try:
        raise KeyError("missing")
    except KeyError:
        show(traceback.format_exc())
        try:
            raise RuntimeError("second")
        except RuntimeError:
            # (CPython would also print the KeyError it happened during: agc does not chain.)
            print(traceback.format_exc().rstrip("\n").split("\n")[-1])
        show(traceback.format_exc())


handler()


class MyError(Exception):
    pass


try:
    raise MyError("custom")
except MyError:
    show(traceback.format_exc())
try:
    raise TypeError()
except TypeError:
    traceback.print_exc(limit=0, file=sys.stdout)
traceback.print_exc(file=sys.stdout)
