import tensorflow as tf

# tf.strings.split and tf.RaggedTensor, with the outputs of TF's docstrings.
print(repr(tf.strings.split('hello world').numpy()))
rt = tf.strings.split(['hello world', 'a b c'])
print(rt)
print(tf.strings.split(['1<>2<><>3'], sep='<>'))
print(tf.strings.split(['a,b,c', 'd'], sep=',', maxsplit=1))
print(tf.strings.split(['  lead and  trail  ', ''], maxsplit=1))
print(rt.to_list())
print(rt.shape, rt.dtype, rt.ragged_rank)
print(rt.row_splits)
print(rt.values)
print(rt.flat_values)
print(rt.row_lengths())
print(rt.nrows())
print(rt[0])
print(rt[-1])
print(rt[1:])
print(rt[:1])
print(rt.to_tensor())
print(rt.to_tensor(default_value="?"))
print(isinstance(rt, tf.RaggedTensor))

digits = tf.ragged.constant([[3, 1, 4, 1], [], [5, 9, 2], [6], []])
print(digits)
print(repr(digits.row_lengths()))
print(digits.shape)
print(digits.to_tensor())
print(digits.to_list())
print(tf.RaggedTensor.from_row_splits(values=[3, 1, 4, 1, 5, 9, 2, 6], row_splits=[0, 4, 4, 7, 8, 8]))
print(tf.RaggedTensor.from_row_lengths(values=[3, 1, 4, 1, 5, 9, 2, 6], row_lengths=[4, 0, 3, 1, 0]))
print(tf.RaggedTensor.from_value_rowids(values=[3, 1, 4, 1, 5, 9, 2, 6], value_rowids=[0, 0, 0, 0, 2, 2, 2, 3],
                                        nrows=5))
print(tf.ragged.constant([[1, 2], [3, 4]]))
print(tf.ragged.constant([[1.5, 2.0], [3.25]]))
print(tf.ragged.constant([['a', 'b'], ['c']]))
nested = tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6], [], [7]]])
print(nested)
print(nested.shape, nested.ragged_rank)
print(nested.values)
print(nested[1])
print(nested.to_tensor())
print(tf.ragged.constant([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25],
                          [1]]))
words = tf.strings.split(["the quick brown fox", "jumps"])
print(tf.strings.upper(words))
print(tf.strings.ngrams(words, 2))


@tf.function
def token_counts(lines):
  tokens = tf.strings.split(lines)
  return tokens.row_lengths(), tokens.to_tensor(default_value="<pad>")


print(token_counts(tf.constant(["a b c", "d", "e f"])))

try:
  rt[2]
except tf.errors.InvalidArgumentError as e:
  print(type(e).__name__)
try:
  tf.ragged.constant([[1, [2]], [3]])
except ValueError as e:
  print(type(e).__name__, e)
