# Python's operator module: the operators as functions, itemgetter,
# attrgetter and methodcaller, and the operators on tensors. Expected output:
# CPython 3.11 (the tensor lines: TensorFlow 2's printing).
import operator
import functools
import tensorflow as tf

print(operator.add(2, 3), operator.sub(2, 3), operator.mul(2, 3), operator.truediv(7, 2))
print(operator.floordiv(-7, 2), operator.mod(-7, 2), operator.pow(2, 10), operator.pow(2.0, -1))
print(operator.neg(5), operator.pos(-5), operator.abs(-2.5), operator.invert(5))
print(operator.eq(1, 1.0), operator.ne(1, 2), operator.lt(1, 2), operator.le(2, 2), operator.gt(1, 2), operator.ge(3, 2))
print(operator.not_([]), operator.truth([0]), operator.is_(None, None), operator.is_not(1, None))
print(operator.and_(6, 3), operator.or_(6, 3), operator.xor(6, 3), operator.lshift(1, 4), operator.rshift(256, 2))
print(operator.add("ab", "cd"), operator.concat([1], [2, 3]), operator.index(7))
print(operator.contains([1, 2, 3], 2), operator.contains("hello", "z"))
d = {"a": 1}
operator.setitem(d, "b", 2)
print(d, operator.getitem(d, "b"))
xs = [1, 2, 3]
operator.delitem(xs, 0)
print(xs)
print(functools.reduce(operator.mul, [1, 2, 3, 4, 5]))

pairs = [(3, "c"), (1, "a"), (2, "b")]
print(sorted(pairs, key=operator.itemgetter(0)))
print(operator.itemgetter(1, 0)(pairs[0]))
print(list(map(operator.itemgetter(1), pairs)))
print(operator.itemgetter("a")({"a": 10}))
print(operator.itemgetter(-1)([0, 1, 2, 3]))


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y
        self.inner = None


p = Point(1, 2)
p.inner = Point(5, 6)
print(operator.attrgetter("x")(p), operator.attrgetter("x", "y")(p), operator.attrgetter("inner.y")(p))
print(operator.methodcaller("upper")("abc"), operator.methodcaller("split", ",")("a,b,c"))
print(operator.methodcaller("replace", "a", "o")("banana"), operator.methodcaller("get", "k", 0)({}))

a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
b = tf.constant([[1.0, 0.0], [0.0, 1.0]])
print(operator.add(a, b).numpy().tolist())
print(operator.matmul(a, b).numpy().tolist())
print(operator.neg(a).numpy().tolist())


@tf.function
def f(x, y):
    return operator.mul(x, y) + operator.matmul(x, y)


print(f(a, b).numpy().tolist())

for bad in [lambda: operator.add(1, "a"), lambda: operator.itemgetter(), lambda: operator.attrgetter(1),
            lambda: operator.methodcaller(1), lambda: operator.getitem([1], 5), lambda: operator.truediv(1, 0),
            lambda: operator.index(1.5), lambda: operator.concat(1, 2), lambda: operator.attrgetter("z")(p),
            lambda: operator.itemgetter(0)()]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__ + ":", e)
