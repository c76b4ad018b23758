import tensorflow as tf
# Seed 001 (tf.function guide, Korean), "알려진 문제" > "Python 객체에 의존"
# (Known issues > Depending on Python objects): the same object passed again
# reuses its trace even after its (non-Variable) attributes changed.


class SimpleModel(tf.Module):
  def __init__(self):
    # These values are *not* tf.Variables.
    self.bias = 0.
    self.weight = 2.

@tf.function
def evaluate(model, x):
  return model.weight * x + model.bias

simple_model = SimpleModel()
x = tf.constant(10.)
print(evaluate(simple_model, x))

print("Adding bias!")
simple_model.bias += 5.0
print(evaluate(simple_model, x))  # Didn't change :(
