import tensorflow as tf
# Seed 000 (tf.function guide, Spanish), "Variables": a variable created only
# on the first call (the Count module's lazy self.count). Seed 001 has the
# same example ("tf.Variables 만들기").


class Count(tf.Module):
  def __init__(self):
    self.count = None

  @tf.function
  def __call__(self):
    if self.count is None:
      self.count = tf.Variable(0)
    return self.count.assign_add(1)

c = Count()
print(c())
print(c())
