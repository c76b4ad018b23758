# Functions and classes defined twice at module level, as notebooks and
# guides do: Python rebinds the name, so calls between the definitions see
# the first and later ones the second, objects keep the class they were made
# from, and a tf.function defined again is a new function with its own trace
# cache. redefinitions.expected is what TensorFlow prints.
import tensorflow as tf


def greet():
    return 'first'


def caller():
    return 'caller sees ' + greet()


print(greet(), caller())


def greet():
    return 'second'


print(greet(), caller())


class Model:
    def call(self):
        return 'model v1'


old_model = Model()


class Model:
    def call(self):
        return 'model v2'


print(old_model.call(), Model().call())


# A method and a function whose names would spell alike.
class A:
    def b_c(self):
        return 'A.b_c'


class A_b:
    def c(self):
        return 'A_b.c'


print(A().b_c(), A_b().c())


@tf.function
def step(x):
    print('tracing the first step')
    return x + 1


first_step = step
print(step(tf.constant(1)))


@tf.function
def step(x):
    print('tracing the second step')
    return x * 10


print(step(tf.constant(1)))
print(step(tf.constant(2)))
print(first_step(tf.constant(5)))
