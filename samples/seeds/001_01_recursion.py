import tensorflow as tf
# Seed 001 (tf.function guide, Korean, a newer version of seed 000's),
# "재추적 제어" (Controlling retracing) > recursive Functions: a Function may
# call itself; each Python argument value is a trace of its own. The notebook
# displays the cell's last value; the sample prints its repr().


@tf.function
def recursive_fn(n):
  if n > 0:
    return recursive_fn(n - 1)
  else:
    return 1

print(repr(recursive_fn(5)))  # Warning - multiple tracings
