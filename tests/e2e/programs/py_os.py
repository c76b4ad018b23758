# Python's os and os.path: path strings, a scratch directory under /tmp
# (made, listed, removed), the environment, and the OSError family's texts.
# Expected output: CPython 3.11.
import os
import os.path
from os.path import join, splitext

print(os.path.join("a", "b", "c.txt"), join("/a/", "b"), join("a", "/b", "c"), join("", "x"), join("a", ""))
for p in ["/usr/lib/x.tar.gz", "x", "/", "a/b/", "//a//b", ".bashrc", "a/.b.c", "..", "a/b..", ""]:
    print(repr(p), os.path.basename(p), os.path.dirname(p), os.path.split(p), splitext(p))
for p in ["a/./b/../c", "/../x", "//a/b", "///a", "", "a/..", "../../x/", "./"]:
    print(repr(p), repr(os.path.normpath(p)))
print(os.path.isabs("/x"), os.path.isabs("x"))
print(os.path.abspath("/a/b/../c"), os.path.abspath("x") == os.path.join(os.getcwd(), "x"))
print(os.path.expanduser("~") == os.environ["HOME"], os.path.expanduser("~/x") == os.environ["HOME"] + "/x")
print(os.path.expanduser("a~"), os.path.expanduser("~no_such_user_agc/x"))
print(os.sep, os.path.sep, repr(os.linesep), os.pathsep, os.curdir, os.pardir, os.name)
print(os.cpu_count() >= 1)

print(os.getenv("AGC_SURELY_UNSET_VARIABLE"), os.getenv("AGC_SURELY_UNSET_VARIABLE", "dflt"))
print(os.getenv("HOME") == os.environ["HOME"], "HOME" in os.environ, "AGC_SURELY_UNSET_VARIABLE" in os.environ)
print(os.environ.get("AGC_SURELY_UNSET_VARIABLE", 5))
os.environ["AGC_TEST_VARIABLE"] = "set"
print(os.environ["AGC_TEST_VARIABLE"], os.getenv("AGC_TEST_VARIABLE"))

# This file itself: a file of a known size (the test runs in its directory).
print(os.path.isfile("py_os.py"), os.path.isdir("py_os.py"), os.path.getsize("py_os.py") > 2000)
print(os.path.exists(os.path.join(os.getcwd(), "py_os.py")), "py_os.py" in os.listdir("."), "py_os.py" in os.listdir())

root = os.path.join("/tmp", "agc_py_os_test_" + str(os.getpid()))
print(os.path.exists(root), os.path.isdir(root))
os.mkdir(root)
print(os.path.exists(root), os.path.isdir(root), os.path.isfile(root), os.listdir(root))
nested = os.path.join(root, "a", "b", "c")
os.makedirs(nested)
os.makedirs(nested, exist_ok=True)
print(os.path.isdir(nested), os.listdir(os.path.join(root, "a")))
os.mkdir(os.path.join(root, "d"))
print(sorted(os.listdir(root)))

for bad in [lambda: os.mkdir(root), lambda: os.makedirs(nested), lambda: os.remove(os.path.join(root, "nope")),
            lambda: os.remove(os.path.join(root, "a")), lambda: os.mkdir(os.path.join(root, "x", "y")),
            lambda: os.listdir(os.path.join(root, "nope")),
            lambda: os.listdir("py_os.py"), lambda: os.mkdir("py_os.py/x"), lambda: os.path.getsize(os.path.join(root, "nope")),
            lambda: os.rmdir(os.path.join(root, "a")), lambda: os.environ["AGC_SURELY_UNSET_VARIABLE"],
            lambda: os.path.join(1, "a"), lambda: os.path.join("a", 1), lambda: os.path.basename(3),
            lambda: os.getenv(1)]:
    try:
        bad()
    except OSError as e:
        print(type(e).__name__, isinstance(e, OSError), str(e).replace(root, "ROOT"))
    except Exception as e:
        print(type(e).__name__ + ":", e)

try:
    os.mkdir(root)
except FileExistsError:
    print("caught FileExistsError")

os.rmdir(os.path.join(root, "d"))
os.rmdir(nested)
os.rmdir(os.path.join(root, "a", "b"))
os.rmdir(os.path.join(root, "a"))
os.rmdir(root)
print(os.path.exists(root))
