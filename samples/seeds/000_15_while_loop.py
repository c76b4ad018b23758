import tensorflow as tf
# xfail: agc's tanh (Eigen's rational approximation) differs from TF's CPU kernel in the last digits (TF's is correctly rounded for the first 4 of the 5 elements and matches Eigen's for the 5th), from the second printed line on
# Seed 000 (tf.function guide, Spanish), "Transformaciones de AutoGraph"
# (AutoGraph transformations): a while loop on a tensor condition becomes a
# tf.while_loop, and tf.print runs on every iteration. The guide's input is
# tf.random.uniform([5]) without a seed; the sample uses the values it drew,
# as the loop's first tf.print shows them, so every printed value can be
# compared with the seed's.


@tf.function
def f(x):
  while tf.reduce_sum(x) > 1:
    tf.print(x)
    x = tf.tanh(x)
  return x

print(repr(f(tf.constant([0.224704742, 0.895507693, 0.0398198366, 0.98112452, 0.278468847]))))
