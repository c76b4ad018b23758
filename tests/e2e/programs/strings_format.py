import tensorflow as tf

# tf.strings.format, with the outputs of TF's docstring examples and
# string_format_op_test.py.
print(tf.strings.format("tensor: {}, suffix", tf.range(5)))
print(tf.strings.format("a: {}, b: {}, suffix", (tf.range(2), tf.range(1, 4, 2))))
print(tf.strings.format("tensor: {}, suffix", tf.range(10)).numpy().decode())
tensor_one = tf.reshape(tf.range(100), [10, 10])
formatted = tf.strings.format("first: {}, second: {}, suffix", (tensor_one, tf.range(10)))
print(formatted.numpy().decode())
print(formatted.shape, formatted.dtype)
print(tf.strings.format("{}", tf.range(10), summarize=-1))
print(tf.strings.format("{}", tf.range(10), summarize=1))
print(tf.strings.format("v=%s", tf.constant([1, 2]), placeholder="%s"))
print(tf.strings.format("{} and {}", [7, 2.5]))
print(tf.strings.format("{}", [tf.constant([True, False])]))
print(tf.strings.format("no placeholders", []))
print(tf.strings.format("{}", tf.Variable([1.0, 2.5])))


@tf.function
def describe(x):
  return tf.strings.format("x: {} (n={})", (x, tf.size(x)), summarize=2)


print(describe(tf.range(6)))
print(describe(tf.constant([[1.5, 2.0], [3.0, 4.0]])))

try:
  tf.strings.format("{} {}", tf.range(10))
except ValueError as e:
  print(type(e).__name__, e)
try:
  tf.strings.format("{}", (tf.range(2), tf.range(3)))
except ValueError as e:
  print(type(e).__name__, e)
