# Nested defs inside tf.function: a helper defined and called in the traced
# body, cond/body defs handed to another function that loops on tensors, a
# lambda passed on, a recursive helper unrolled at trace time; and a closure
# over an eager tensor returned from a plain function and called later.
import tensorflow as tf


def my_while(cond, body, x):
    while cond(x):
        x = body(x)
    return x


def apply_twice(fn, x):
    return fn(fn(x))


@tf.function
def with_helper(x):
    def helper(y):
        return y * 2
    print('tracing with_helper')
    return helper(x) + helper(1)


@tf.function
def count_to(n):
    def cond(i):
        return i < n

    def body(i):
        return i + 1
    return my_while(cond, body, tf.constant(0))


@tf.function
def scaled(x, s):
    return apply_twice(lambda v: v * s, x)


@tf.function
def power(x, k):
    def pw(e):
        if e == 0:
            return tf.ones_like(x)
        return x * pw(e - 1)
    return pw(k)


def make_scale(s):
    return lambda x: x * s


print(with_helper(tf.constant(3)))
print(with_helper(tf.constant(4)))
print(count_to(tf.constant(5)))
print(count_to(tf.constant(-2)))
print(scaled(tf.constant(1.5), tf.constant(2.0)))
print(power(tf.constant(3), 4))
scale = make_scale(tf.constant([1.0, 2.0]))
print(scale(tf.constant(3.0)))
