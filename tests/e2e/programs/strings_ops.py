import tensorflow as tf

# tf.strings' elementwise functions, with the outputs of TF's docstrings.
print(repr(tf.strings.lower("CamelCase string and ALL CAPS")))
print(repr(tf.strings.upper("CamelCase string and ALL CAPS")))
print(repr(tf.strings.strip(["\nTensorFlow", "     The python library    "]).numpy()))
print(repr(tf.strings.regex_replace("Text with tags.<br /><b>contains html</b>", "<[^>]+>", " ")))
print(repr(tf.strings.regex_full_match(["TF lib", "lib TF"], ".*lib$")))
print(repr(tf.strings.regex_full_match(["TF lib", "lib TF"], ".*TF$")))
print(tf.strings.regex_replace(["a1b22c333"], "[0-9]+", "#", replace_global=False))
print(tf.strings.regex_replace("2024-05-17", r"(\d+)-(\d+)-(\d+)", r"\3/\2/\1"))
print(tf.strings.regex_replace(["aaa"], tf.constant("a"), tf.constant("b")))

print(tf.strings.substr(['Hello', 'World'], 1, 3))
print(tf.strings.substr(['Hello', 'World'], [1, 2], [2, 3]))
print(tf.strings.substr("Hello", -3, 2))
print(tf.strings.substr("h\u00e9llo w\u00f6rld", 1, 4, unit="UTF8_CHAR"))
print(tf.strings.substr("h\u00e9llo w\u00f6rld", -5, 3, unit="UTF8_CHAR"))

x = [['abc', '123'], ['def', '456']]
print(repr(tf.strings.reduce_join(x).numpy()))
print(repr(tf.strings.reduce_join(x, axis=-1).numpy()))
print(repr(tf.strings.reduce_join(x, axis=-1, separator=" ").numpy()))
print(tf.strings.reduce_join(x, axis=0, keepdims=True))
print(tf.strings.reduce_join(x, axis=[0, 1], separator="."))

print(repr(tf.strings.ngrams(["A", "B", "C", "D"], 2).numpy()))
print(repr(tf.strings.ngrams(["TF", "and", "keras"], 1).numpy()))
print(tf.strings.ngrams(["a", "b", "c"], [1, 2], separator="_"))
print(tf.strings.ngrams(["a", "b"], 3, pad_values="#"))
print(tf.strings.ngrams(["a", "b"], 3, pad_values=("<s>", "</s>"), padding_width=1))
print(tf.strings.ngrams(["a", "b"], 3, preserve_short_sequences=True))


@tf.function
def clean(s):
  s = tf.strings.lower(tf.strings.strip(s))
  s = tf.strings.regex_replace(s, "[^a-z ]", "")
  return tf.strings.substr(s, 0, 5), tf.strings.regex_full_match(s, "h.*")


print(clean(tf.constant(["  Hello, World! ", "GOOD-bye "])))

# Errors: TF's types and messages.
try:
  tf.strings.substr("abc", 5, 1)
except tf.errors.InvalidArgumentError as e:
  print(type(e).__name__, e.message)
try:
  tf.strings.substr("abc", 4, 1, unit="UTF8_CHAR")
except tf.errors.InvalidArgumentError as e:
  print(type(e).__name__, e.message)
try:
  tf.strings.substr("abc", 1, 1, unit="CHAR")
except ValueError as e:
  print(type(e).__name__, e)
try:
  tf.strings.regex_replace("abc", "(", "x")
except tf.errors.InvalidArgumentError as e:
  print(type(e).__name__, e.message)
try:
  tf.strings.reduce_join(x, axis=2)
except tf.errors.OutOfRangeError as e:
  print(type(e).__name__, e.message)
try:
  tf.strings.ngrams(["a"], 0)
except ValueError as e:
  print(type(e).__name__, e)
try:
  tf.strings.ngrams(["a"], 2, padding_width=1)
except ValueError as e:
  print(type(e).__name__, e)
