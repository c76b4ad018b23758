import tensorflow as tf

# Text preprocessing into token ids: lowercase, punctuation to spaces, split
# into words, a vocabulary lookup by comparison, and word bigrams.
corpus = tf.constant([
    "The quick brown fox!",
    "A quick, QUICK dog...",
    "Foxes & dogs.",
])
VOCAB = ["<unk>", "the", "quick", "brown", "fox", "a", "dog", "dogs", "end"]


def normalize(lines):
  lines = tf.strings.lower(lines)
  lines = tf.strings.regex_replace(lines, r"[^a-z0-9 ]", " ")
  return tf.strings.strip(lines)


@tf.function
def to_ids(lines):
  tokens = tf.strings.split(normalize(lines))
  vocab = tf.constant(VOCAB)
  match = tf.equal(tf.expand_dims(tokens.flat_values, 1), tf.expand_dims(vocab, 0))
  found = tf.reduce_any(match, axis=1)
  ids = tf.where(found, tf.argmax(tf.cast(match, tf.int32), axis=1, output_type=tf.int32), 0)
  return tf.RaggedTensor.from_row_splits(ids, tokens.row_splits).to_tensor(), tokens.row_lengths()


normalized = normalize(corpus)
print(normalized)
print(tf.strings.reduce_join(normalized, separator=" | "))
tokens = tf.strings.split(normalized)
print(tokens)
ids, lengths = to_ids(corpus)
print(ids)
print(lengths)
print(tf.strings.ngrams(tokens, 2, separator="_"))
for row in tokens.to_list():
  print(len(row), row[0])
