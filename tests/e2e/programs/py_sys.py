# sys: argv, platform, maxsize, the standard streams as objects (write,
# flush, print(file=...)), SystemExit past `except Exception`, finally
# clauses on the way out, sys.exit(0) ending the program with status 0.
# Expected: CPython 3.11's output (stdout only: the stderr lines are absent
# from a 2>&1 capture in neither, so stderr is not written here).
import sys
from sys import argv
print(len(argv), sys.argv == argv, sys.platform, sys.maxsize)
n = sys.stdout.write("written\n")
print(n)
print("via file", file=sys.stdout)
sys.stdout.flush()
try:
    sys.exit(3)
except Exception:
    print("wrong: Exception caught SystemExit")
except SystemExit as e:
    print("SystemExit", e.args, e)
try:
    raise KeyboardInterrupt
except Exception:
    print("wrong: Exception caught KeyboardInterrupt")
except BaseException as e:
    print(type(e).__name__, isinstance(e, Exception), isinstance(e, BaseException))
try:
    sys.exit()
except SystemExit as e:
    print("no args", e.args)


def leave():
    try:
        sys.exit(0)
    finally:
        print("finally runs")


leave()
print("not reached")
