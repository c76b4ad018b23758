# A local read before it is assigned: a function called from Python code runs
# as written (not AutoGraph's conversion, which reads through ag__.ld), so the
# error is CPython's. unbound_locals.expected is what python3 (3.11) prints.


def late(flag):
    if flag:
        y = 1
    return y + 1


print(late(True))
try:
    late(False)
except UnboundLocalError as e:
    print('UnboundLocalError:', e)


def deleted():
    z = 2
    del z
    return z


try:
    deleted()
except UnboundLocalError as e:
    print('UnboundLocalError:', e)

