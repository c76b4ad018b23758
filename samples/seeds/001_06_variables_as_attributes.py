import tensorflow as tf
# Seed 001 (tf.function guide, Korean), "알려진 문제" > "Python 객체에 의존"
# (Known issues > Depending on Python objects): tf.Variable attributes can be
# mutated without retracing, and the trace sees the new values.


class BetterModel:

  def __init__(self):
    self.bias = tf.Variable(0.)
    self.weight = tf.Variable(2.)

@tf.function
def evaluate(model, x):
  return model.weight * x + model.bias

x = tf.constant(10.)
better_model = BetterModel()
print(evaluate(better_model, x))

print("Adding bias!")
better_model.bias.assign_add(5.0)  # Note: instead of better_model.bias += 5
print(evaluate(better_model, x))  # This works!
