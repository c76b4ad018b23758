# From seeds 000/001 (tf.function guide): "Variables" / "Creating tf.Variables", "Deleting tf.Variables between Function calls", "Depending on Python global and free variables" (variable_add), "Using with multiple Keras optimizers".
import tensorflow as tf


# --- Creating a new tf.Variable on every call is an error ----------------

# Seed 000 (Spanish) version.
@tf.function
def f(x):
  v = tf.Variable(1.0)
  v.assign_add(x)
  return v

try:
  f(1.0)
except ValueError as e:
  print('Caught expected exception \n  {}:'.format(ValueError))


# Seed 001 (Korean) version.
@tf.function
def f(x):
  v = tf.Variable(1.0)
  return v

try:
  f(1.0)
except ValueError as e:
  print('Caught expected exception \n  {}:'.format(ValueError))


# --- Variables created only on the first call are fine -------------------

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


# --- A concrete function only keeps a weak reference to closed-over variables ---

external_var = tf.Variable(3)
@tf.function
def f(x):
  return x * external_var

traced_f = f.get_concrete_function(4)
print("Calling concrete function...")
print(traced_f(4))

del external_var
print()
print("Calling concrete function after garbage collecting its closed Variable...")
try:
  traced_f(4)
except tf.errors.FailedPreconditionError as e:
  print('Caught expected exception \n  {}:'.format(tf.errors.FailedPreconditionError))


# --- Updating a global through a tf.Variable ------------------------------

@tf.function
def variable_add():
  return 1 + foo

foo = tf.Variable(1)
print("Variable:", variable_add())

print("Updating the value of `foo` to 100!")
foo.assign(100)
print("Variable:", variable_add())


# --- Using with multiple Keras optimizers ---------------------------------

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
except ValueError as e:
  print('Caught expected exception \n  {}:'.format(ValueError))


opt1 = tf.keras.optimizers.Adam(learning_rate = 1e-2)
opt2 = tf.keras.optimizers.Adam(learning_rate = 1e-3)

# Not a tf.function.
def train_step(w, x, y, optimizer):
   with tf.GradientTape() as tape:
       L = tf.reduce_sum(tf.square(w*x - y))
   gradients = tape.gradient(L, [w])
   optimizer.apply_gradients(zip(gradients, [w]))

w = tf.Variable(2.)
x = tf.constant([-1.])
y = tf.constant([2.])

# Make a new Function and ConcreteFunction for each optimizer.
train_step_1 = tf.function(train_step).get_concrete_function(w, x, y, opt1)
train_step_2 = tf.function(train_step).get_concrete_function(w, x, y, opt2)
for i in range(10):
  if i % 2 == 0:
    train_step_1(w, x, y) # `opt1` is not used as a parameter.
  else:
    train_step_2(w, x, y) # `opt2` is not used as a parameter.
