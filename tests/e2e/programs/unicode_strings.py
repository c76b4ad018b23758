import tensorflow as tf

# tf.strings' Unicode functions, with the outputs of TF's docstrings.
words = [u'G\xf6\xf6dnight', u'\U0001f60a']
print(tf.strings.unicode_decode(words, 'UTF-8').to_list())
print(tf.strings.unicode_split(words, 'UTF-8').to_list())
codes = tf.ragged.constant([[71, 246, 246, 100, 110, 105, 103, 104, 116], [128522]])
print(tf.strings.unicode_encode(codes, 'UTF-8'))
print(tf.strings.unicode_encode([104, 105], 'UTF-8'))
print(tf.strings.unicode_encode([[104, 105], [111, 107]], 'UTF-8'))
print(repr(tf.strings.bytes_split('hello').numpy()))
print(tf.strings.bytes_split(['hello', '123']))
print(tf.strings.unicode_decode(u'h\xe9', 'UTF-8'))
print(tf.strings.unicode_split(u'h\xe9', 'UTF-8'))
print(tf.strings.unicode_decode([[u'ab', u'\xe9'], [u'', u'c']], 'UTF-8'))
print(tf.strings.unicode_split([[u'ab', u'\xe9'], [u'', u'c']], 'UTF-8'))
# Invalid UTF-8: one replacement character per maximal ill-formed subsequence.
bad = tf.stack([tf.strings.join(['a', tf.strings.substr(u'\xe9', 1, 1), 'b']), tf.strings.substr(u'\u20ac', 0, 2),
                tf.strings.join([tf.strings.substr(u'\xe9', 0, 1), 'x'])])
print(bad)
print(tf.strings.unicode_decode(bad, 'UTF-8'))
print(tf.strings.unicode_decode(bad, 'UTF-8', errors='ignore'))
print(tf.strings.unicode_decode(bad, 'UTF-8', replacement_char=63))
print(tf.strings.unicode_decode(u'a\tb', 'UTF-8', replace_control_characters=True))
print(tf.strings.unicode_encode([104, -1, 1114112, 105], 'UTF-8'))


@tf.function
def char_counts(s):
  return tf.strings.unicode_split(s, 'UTF-8').row_lengths()


print(char_counts(tf.constant(words)))

try:
  tf.strings.unicode_decode(bad, 'UTF-8', errors='strict')
except tf.errors.InvalidArgumentError as e:
  print(type(e).__name__, e.message)
try:
  tf.strings.unicode_encode(5, 'UTF-8')
except ValueError as e:
  print(type(e).__name__, e)
