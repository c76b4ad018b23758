import tensorflow as tf
# xfail: TF's CPU tanh differs from agc's (Eigen 3.4's rational approximation) in the last digits from the second printed line on; the seed's first step is correctly rounded for elements 1-4 and equals Eigen 3.4's for element 5, but no tanh tried reproduces all 16 lines of any element (correctly rounded; Eigen 3.4's 13/6 rational; newer Eigen's 9/8 rational and its 1-ulp form; each with and without FMA)
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
