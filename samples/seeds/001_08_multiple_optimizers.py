import tensorflow as tf
# Seed 001 (tf.function guide, Korean), "여러 Keras 옵티마이저 프로그램과 함께
# 사용" (Using with multiple Keras optimizers): Adam creates its slot
# variables on its first apply_gradients, so a tf.function traced again for a
# second optimizer would create variables on a non-first trace: ValueError.
# The workaround, one ConcreteFunction per optimizer, then runs cleanly.

opt1 = tf.keras.optimizers.Adam(learning_rate = 1e-2)
opt2 = tf.keras.optimizers.Adam(learning_rate = 1e-3)

@tf.function
def train_step(w, x, y, optimizer):
   with tf.GradientTape() as tape:
       L = tf.reduce_sum(tf.square(w*x - y))
   gradients = tape.gradient(L, [w])
   optimizer.apply_gradients(zip(gradients, [w]))

w = tf.Variable(2.)
x = tf.constant([-1.])
y = tf.constant([2.])

train_step(w, x, y, opt1)
print("Calling `train_step` with different optimizer...")
try:
  train_step(w, x, y, opt2)
  print('Expected ValueError to be raised but no error was raised!')
except ValueError as e:
  print("Caught expected exception \n  <class 'ValueError'>:")
  # TF wraps an error raised while tracing as "in user code:" and the frames
  # that raised it (TF's own files among them); its last line is the error.
  msg = str(e)
  if msg.startswith('in user code:'):
    print(msg.strip().split('\n')[-1].strip())
  else:
    print(f'{type(e).__name__}: {msg}')

opt1 = tf.keras.optimizers.Adam(learning_rate = 1e-2)
opt2 = tf.keras.optimizers.Adam(learning_rate = 1e-3)

# Not a tf.function. (Named train_step_eager, not train_step again: agc does
# not rebind a module-level def defined twice yet, the real-programs issue.)
def train_step_eager(w, x, y, optimizer):
   with tf.GradientTape() as tape:
       L = tf.reduce_sum(tf.square(w*x - y))
   gradients = tape.gradient(L, [w])
   optimizer.apply_gradients(zip(gradients, [w]))

w = tf.Variable(2.)
x = tf.constant([-1.])
y = tf.constant([2.])

# Make a new Function and ConcreteFunction for each optimizer.
train_step_1 = tf.function(train_step_eager).get_concrete_function(w, x, y, opt1)
train_step_2 = tf.function(train_step_eager).get_concrete_function(w, x, y, opt2)
for i in range(10):
  if i % 2 == 0:
    train_step_1(w, x, y) # `opt1` is not used as a parameter.
    train_step_2(w, x, y) # `opt2` is not used as a parameter.
