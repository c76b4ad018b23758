# An error raised inside a layer's call() comes out as Keras 2 (TF 2.15)
# shows it: the same exception class, its message inside "Exception
# encountered when calling layer ..." with the call's arguments, added once
# by the innermost failing layer. Errors Keras raises before call() (the
# InputSpec checks) are left to the enclosing layer.
import tensorflow as tf
from tensorflow import keras


class Broken(keras.layers.Layer):
    def call(self, x, training=False):
        return tf.matmul(x, tf.ones([5, 2]))


class Outer(keras.Model):
    def __init__(self):
        super().__init__()
        self.inner = Broken(name="inner")

    def call(self, inputs, scale=2.0):
        return self.inner(inputs) * scale


class Picky(keras.layers.Layer):
    def call(self, inputs, **kwargs):
        raise KeyError("no such feature: " + str(kwargs.get("feature")))


class CodedError(Exception):
    def __init__(self, code, detail):
        super().__init__(detail)
        self.code = code


class Custom(keras.layers.Layer):
    def call(self, inputs):
        raise CodedError(7, "custom failure")


def show(fn):
    try:
        fn()
    except Exception as e:
        print(type(e).__name__)
        print(e)
        print("--")


show(lambda: Broken(name="broken")(tf.ones([2, 3])))
show(lambda: Outer()(tf.ones([2, 3]), training=True))
show(lambda: Picky(name="picky")([tf.ones([1]), {"a": tf.zeros([2, 2])}]))
show(lambda: Picky(name="picky_kw")(tf.ones([1]), feature="age"))
show(lambda: Custom(name="custom")(tf.ones([1])))
model = keras.Sequential([keras.layers.Dense(4), keras.layers.Conv2D(2, 3)], name="seq")
show(lambda: model(tf.ones([2, 3])))
show(lambda: keras.layers.Dense(2, name="d")(tf.ones([3])))
