# agc's explained retraces (issue 17): an agc extension, so this output is
# agc's own, not TF's. f.experimental_agc_retrace_reasons() lists why each
# trace after the first was made, compared with the closest earlier trace by
# the signature cache's own rule; TF's retracing warning keeps its text and
# gets agc's explanation as a line after it.
import tensorflow as tf


@tf.function
def scale(x, n):
    print("tracing scale", x.shape, x.dtype, n)
    return x * n


scale(tf.constant([1.0, 2.0, 3.0]), 3)
scale(tf.constant([1.0, 2.0, 3.0]), 3)
scale(tf.constant([1.0, 2.0, 3.0, 4.0]), 3)
scale(tf.constant([1.0, 2.0, 3.0, 4.0]), 4)
scale(tf.constant([1, 2, 3, 4]), 5)
print(scale.experimental_get_tracing_count())
for reason in scale.experimental_agc_retrace_reasons():
    print("scale:", reason)


@tf.function
def step(cfg, batch):
    print("tracing step")
    return batch[0] * cfg["lr"]


step({"lr": 0.1, "opt": "sgd"}, (tf.constant(1.0), [1, 2]))
step({"lr": 0.2, "opt": "sgd"}, (tf.constant(1.0), [1, 2]))
step({"lr": 0.2, "opt": "sgd"}, (tf.constant(1.0), [1, 5]))
step({"lr": 0.2, "opt": "sgd"}, (tf.constant([1.0, 2.0]), [1, 5]))
step({"lr": 0.2}, (tf.constant(1.0), [1, 2]))
for reason in step.experimental_agc_retrace_reasons():
    print("step:", reason)


class Model:
    def __init__(self, w):
        self.w = w


@tf.function
def apply(model, *args, **kwargs):
    print("tracing apply", len(args), sorted(kwargs))
    return model.w


m = Model(2.0)
apply(m, 1)
apply(Model(2.0), 1)
apply(m, 1, 2)
apply(m, 1, 2, scale=3)
for reason in apply.experimental_agc_retrace_reasons():
    print("apply:", reason)


@tf.function(reduce_retracing=True)
def total(x):
    print("tracing total", x.shape)
    return tf.reduce_sum(x)


total(tf.constant([1.0, 2.0]))
total(tf.constant([1.0, 2.0, 3.0]))
total(tf.constant([1.0, 2.0, 3.0, 4.0]))
total(tf.constant([[1.0]]))
print(total.experimental_get_tracing_count())
for reason in total.experimental_agc_retrace_reasons():
    print("total:", reason)
print(total.experimental_agc_retrace_reasons())


@tf.function
def once(x):
    return x + 1


once(tf.constant(1))
once(tf.constant(2))
print(once.experimental_agc_retrace_reasons())
