# Item assignment inside loops, which agc's slices conversion turns into
# `x = ag__.set_item(x, i, v)`: in a Python loop it is Python's item
# assignment (lists, dicts, objects with __setitem__, changed in place); in a
# graph loop a Python list keeps its length: a constant index assigns as
# Python does (TF's output), and a graph index selects each element anew
# (TF cannot index a list by a graph tensor: the line is what TF prints for
# the explicit TensorArray version, graph_loop_tensor_array).
import tensorflow as tf


class Registry:
    def __init__(self):
        self.seen = {}

    def __setitem__(self, key, value):
        self.seen[key] = value * 10


@tf.function
def python_loops(x):
    y = {}
    l = [0, 0, 0]
    r = Registry()
    for i in range(3):
        y['a'] = x
        l[i] = i * 2
        r[i] = i
    return y['a'], l, r.seen


print(python_loops(tf.constant(1)))


def eager(keys):
    counts = {}
    for k in keys:
        counts[k] = counts.get(k, 0) + 1
    return counts


print(eager(['a', 'b', 'a']))


@tf.function
def graph_loop(n):
    squares = [0, 0, 0, 0]
    for i in tf.range(n):
        squares[i] = i * i
    return tf.stack(squares)


@tf.function
def graph_loop_tensor_array(n):
    squares = tf.TensorArray(tf.int32, size=4)
    for i in tf.range(4):
        squares = squares.write(i, 0)
    for i in tf.range(n):
        squares = squares.write(i, i * i)
    return squares.stack()


@tf.function
def read_back(x):
    l = [x, x]
    for i in tf.range(2):
        l[0] = l[0] + i
    return l


print(read_back(tf.constant(5)))
print(graph_loop(tf.constant(3)))
print(graph_loop_tensor_array(tf.constant(3)))


def write_tensor(t):
    for i in range(2):
        t[i] = 0
    return t


try:
    write_tensor(tf.constant([1, 2]))
except TypeError as e:
    print('TypeError', e)
