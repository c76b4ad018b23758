# A call whose arguments cannot bind raises TypeError where it runs, as in
# Python: what runs before it runs, and a handler around it catches it (agc
# warns at transpile time about such a call unless a handler around it
# catches TypeError, as each one here does). Expected: CPython 3.11.7.
def scale(x, factor=2):
    return x * factor


def inner_handled():
    out = []
    try:
        scale(1, 2, 3)
    except TypeError as e:
        out.append(str(e))
    try:
        scale(x=1, y=2)
    except Exception as e:
        out.append(type(e).__name__ + ": " + str(e))
    out.append(scale(4))
    return out


def fails_midway(log):
    log.append("before")
    try:
        scale()
    except TypeError:
        log.append("handler")
        raise
    log.append("after")


print(inner_handled())
log = []
try:
    fails_midway(log)
except TypeError as e:
    print("caught:", e)
print(log)


def outer():
    def helper(a, b):
        return a + b

    try:
        return helper(1)
    except TypeError as e:
        return "helper: " + str(e)


print(outer())
