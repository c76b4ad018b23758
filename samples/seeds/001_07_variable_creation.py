import tensorflow as tf
# Seed 001 (tf.function guide, Korean), "tf.Variables 만들기" (Creating
# tf.Variables): a Function that creates a new tf.Variable on each call is a
# ValueError (TF >= 2.9's wording; seed 000 shows TF 2.3's).


@tf.function
def f(x):
  v = tf.Variable(1.0)
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
