# Tracebacks mark the failing expression's columns, as CPython 3.11 does
# (PEP 657): ^ under a call, ~ and ^ under a binary operation's operands and
# operator or a subscript's value and brackets, nothing when the expression
# is the whole line, the first line of a multi-line one. Each case prints
# traceback.format_exc() of one error. Expected output: CPython 3.11.7; File
# lines are printed with the file's base name (CPython prints the script's
# absolute path).
import os
import traceback


def show(text):
    for line in text.rstrip("\n").split("\n"):
        if line.startswith('  File "'):
            parts = line.split('"')
            line = '  File "' + os.path.basename(parts[1]) + '"' + parts[2]
        print(line)


class Box:
    def __init__(self, items):
        self.items = items

    def get(self, i):
        return self.items[i]


def half(x):
    return x / 0


def nested_call():
    return abs(half(1)) + 1


def binary_op():
    a, b = 1, "s"
    return (a + 1) * b + 2


def subscript():
    xs = [1, 2, 3]
    return xs[1] + xs[ 10 ]


def method_call():
    box = Box([1])
    return box.get(5) + 1


def multi_line_call():
    return max(1,
               half(2),
               3)


def missing_attribute():
    box = Box([])
    return box.size + 1


def stores():
    xs = [1]
    xs[0] = 2
    xs[3] = abs(-1)


def unpacking():
    a, b = [half]
    return a


def comparison():
    return len("ab") < "c" or True


def assertion(x):
    assert x > 1, "x is %d" % x


def raise_on_a_line(x):
    if x: raise ValueError("x is %d" % x)


def augmented():
    box = Box(1)
    box.count += 1


def in_lambda():
    twice = lambda v: v + v * "s"
    return twice(2)


def whole_line():
    half(3)


for case in [nested_call, binary_op, subscript, method_call, multi_line_call, missing_attribute, stores, unpacking,
             comparison, lambda: assertion(1), lambda: raise_on_a_line(2), augmented, in_lambda, whole_line]:
    try:
        case()
    except Exception:
        show(traceback.format_exc())
