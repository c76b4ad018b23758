# Appending to a module-level list (or an enclosing function's) inside a loop
# of a converted function mutates that list, as Python does: agc's list
# conversion leaves lists that are not the function's own locals alone.
# global_lists.expected is what TensorFlow prints.
import tensorflow as tf

weights = []
table = [0, 0, 0]


def collect(n):
    for i in range(n):
        weights.append(i * 10)
        table[i] = i + 1
    return len(weights)


print(collect(3), weights, table)


@tf.function
def record(x):
    for i in range(2):
        weights.append(x + i)
    return x


record(tf.constant(5))
print(len(weights), weights[3:])


def outer(n):
    found = []

    def search():
        for i in range(n):
            if i % 2 == 0:
                found.append(i)

    search()
    return found


print(outer(5))
