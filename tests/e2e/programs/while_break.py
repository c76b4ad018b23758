# A `while` left by `break` does not test its condition again: AutoGraph's
# break converter tests the break flag first (`not break_ and test`), so a
# condition with side effects runs exactly as often as in Python, whether the
# loop runs in Python (a Python int) or as a graph loop (a tensor, where the
# tf.print in the condition runs once per evaluation). while_break.expected is
# what TensorFlow prints (tf.print writes to stderr, merged here).
import tensorflow as tf

tested = []


def still_positive(x):
    tested.append(x)
    return x > 0


@tf.function
def countdown(x):
    while still_positive(x):
        x -= 1
        if x == 3:
            break
    return x


print(countdown(6), tested)


def loud_positive(x):
    tf.print('testing', x)
    return x > 0


@tf.function
def staged_countdown(x):
    while loud_positive(x):
        x -= 1
        if x == 3:
            break
    return x


print(staged_countdown(tf.constant(6)))
