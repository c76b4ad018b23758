# list.sort(key=, reverse=), dict.update(**kwargs), str.splitlines,
# partition/rpartition, rfind, and super(Cls, self) (two-argument super,
# skipping a class of the MRO). Expected: CPython 3.11's output.


class A:
    def f(self):
        return "A"


class B(A):
    def f(self):
        return "B" + super().f()


class C(B):
    def f(self):
        return "C" + super(C, self).f()


class D(C):
    def f(self):
        # Skips C's own f: the lookup starts after C in D's MRO.
        return "D" + super(C, self).f()


print(C().f(), D().f())
try:
    super(D, A()).f()
except TypeError as e:
    print("TypeError:", e)

l = [3, 1, 2]
l.sort(key=lambda v: -v)
print(l)
l.sort(reverse=True)
print(l)
words = ["bb", "a", "cc", "d"]
words.sort(key=len, reverse=True)
print(words)
pairs = [(1, "x"), (0, "y"), (1, "a"), (0, "b")]
pairs.sort(key=lambda p: p[0])
print(pairs)
try:
    l.sort(lambda v: v)
except TypeError as e:
    print("TypeError:", e)

d = {"a": 1}
d.update(b=2)
d.update({"c": 3}, a=5)
d.update([("e", 4)], f=6)
print(d)

text = "first\nsecond\r\nthird\rfourth\n"
print(text.splitlines())
print(text.splitlines(True))
print("".splitlines(), "one".splitlines(), "x\n\ny".splitlines())
print("a.b.c".rfind("."), "abc".rfind("z"), "a.b.c".find("."))
print("key=value=more".partition("="), "key=value=more".rpartition("="))
print("none".partition("="), "none".rpartition("="))
try:
    "x".partition("")
except ValueError as e:
    print("ValueError:", e)


# property, staticmethod and classmethod, read through the class (also
# through another name for it) and through instances.
class K:
    def __init__(self):
        self._v = 3

    @property
    def v(self):
        return self._v * 2

    @staticmethod
    def make(n):
        return n * 2

    @classmethod
    def create(cls, n):
        obj = cls()
        obj._v = n
        return obj


class L(K):
    pass


alias = K
print(alias.make(4), K().make(5), K.make(6), K().v, type(K.v).__name__)
print(type(L.create(5)).__name__, L.create(5).v, L().create(1).v)
try:
    K().v = 4
except AttributeError as e:
    print("AttributeError:", e)


# A property with a setter, in the decorator form and as property(fget, fset);
# a subclass inherits both accessors.
class Celsius:
    def __init__(self, degrees):
        self.degrees = degrees

    @property
    def degrees(self):
        return self._degrees

    @degrees.setter
    def degrees(self, value):
        if value < -273.15:
            raise ValueError("below absolute zero")
        self._degrees = float(value)

    def _get_kelvin(self):
        return self._degrees + 273.15

    def _set_kelvin(self, value):
        self.degrees = value - 273.15

    kelvin = property(_get_kelvin, _set_kelvin)


class Reading(Celsius):
    pass


c = Reading(20)
c.kelvin = 300
print(c.degrees, round(c.kelvin, 2), type(Celsius.degrees).__name__)
try:
    c.degrees = -300
except ValueError as e:
    print("ValueError:", e)
