# The model tests/e2e/embed/embed_test.cpp embeds: `agc emit-cpp --lib`
# writes embed_model.h/.cpp from it (tests/e2e/meson.build), and the test
# calls the header's entry points as an app would.
import tensorflow as tf

SCALE = 2.0
name_seen = __name__
main_block_ran = False
kept = []


class Scaler(tf.Module):
    def __init__(self, k):
        super().__init__()
        self.k = tf.Variable(k)

    @tf.function(input_signature=[tf.TensorSpec(shape=[None, 3], dtype=tf.float32)])
    def scale(self, x):
        return x * self.k

    # Its result is its input: it must not point into the app's buffer.
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def same(self, x):
        return x

    @tf.function
    def __call__(self, x):
        return x + 1.0


class Picker(Scaler):
    @tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([None], tf.int64)])
    def pick(self, i, v):
        return tf.gather(v, i)


scaler = Picker(SCALE)


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def total(x):
    return tf.reduce_sum(x)


@tf.function(input_signature=[tf.TensorSpec(None, tf.string)])
def shout(s):
    return tf.strings.upper(s)


def add(a, b=1):
    return a + b


def remember(x):
    kept.append(x)
    return len(kept)


def recall(i):
    return kept[i]


def fail(x):
    raise ValueError('bad ' + str(x))


def module_name():
    return name_seen


def main_ran():
    return main_block_ran


if __name__ == '__main__':
    main_block_ran = True
    print('the __main__ block ran')
