import tensorflow as tf
# xfail: seed 000 shows TF 2.3's wording ('tf.function-decorated function tried to create variables on non-first call.'); agc gives newer TF's, which 001_07 checks
# Seed 000 (tf.function guide, Spanish), "Variables": a Function that creates
# a tf.Variable on every call is a ValueError.


@tf.function
def f(x):
  v = tf.Variable(1.0)
  v.assign_add(x)
  return v

try:
  f(1.0)
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
