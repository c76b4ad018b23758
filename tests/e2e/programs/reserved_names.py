# Python names that the generated C++ uses for itself (the module's run() and
# init(), main, kFile, kSource, C++ keywords) are ordinary names in Python.
# Expected output: CPython 3.11's.
def run(x):
    return x + 1


def init():
    return "init"


def main(double):
    return double * 2


kFile = 3
kSource = "source"
module = [run(kFile), init(), main(21), kSource]
print(module)
