import tensorflow as tf
# Seed 000 (tf.function guide, Spanish), "Controlar el retroceso"
# (Controlling retracing): each new Python argument value retraces; tensor
# arguments of one dtype and shape reuse one trace.


def train_one_step():
  pass

@tf.function
def train(num_steps):
  print("Tracing with num_steps = ", num_steps)
  tf.print("Executing with num_steps = ", num_steps)
  for _ in tf.range(num_steps):
    train_one_step()

print("Retracing occurs for different Python arguments.")
train(num_steps=10)
train(num_steps=20)

print()
print("Traces are reused for Tensor arguments.")
train(num_steps=tf.constant(10))
train(num_steps=tf.constant(20))
