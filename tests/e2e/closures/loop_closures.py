# Closures over loop variables. Python binds late: a lambda made in a loop and
# called after it sees the variable's last value, at module level and in a
# function called from Python code, which TensorFlow runs as written (agc
# runs the def's plain form there). A traced tf.function runs AutoGraph's
# conversion instead, whose loop body gives each iteration a variable of its
# own unless the variable is live after the loop (pyct's liveness assumes a
# lambda is used where it is made: tensorflow/tensorflow#56089), so there each
# lambda keeps its iteration's value, while a nested def binds late.
# loop_closures.expected is what TensorFlow prints.
import tensorflow as tf

fs = []
for i in range(3):
    fs.append(lambda: i)
print('module', [f() for f in fs])


def lambdas():
    fs = []
    for i in range(3):
        fs.append(lambda: i)
    return [f() for f in fs]


def pairs():
    fs = []
    for i in range(2):
        for k in range(2):
            fs.append(lambda: (i, k))
    return [f() for f in fs]


def defs():
    fs = []
    for i in range(3):
        def g():
            return i * 10
        fs.append(g)
    return [f() for f in fs]


if True:
    # A def in a block of the module's code is a function like any other.
    def in_block():
        fs = []
        for i in range(3):
            fs.append(lambda: i * 2)
        return [f() for f in fs]


print('function', lambdas(), pairs(), defs(), in_block())


@tf.function
def traced(x):
    print('traced', lambdas(), pairs(), defs(), in_block())
    return x


traced(tf.constant(0))
tf.config.run_functions_eagerly(True)
traced(tf.constant(0))
tf.config.run_functions_eagerly(False)
