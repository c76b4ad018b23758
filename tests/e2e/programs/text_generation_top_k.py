# Text generation with top-k sampling, in the style of TensorFlow's "Text
# generation with an RNN" guide's sampling loop: a tiny fixed language model
# (an embedding matrix and an output projection as tf.Variables, weights
# from a bigram count table so the text reads as words), a generation loop
# that takes the logits of the last token, keeps the k best with
# tf.math.top_k, masks the others, samples with tf.random.categorical, and
# decodes the tokens with a Python vocabulary list and tf.strings.
#
# With k=1 the categorical draw can only pick the top token, and with a
# repetition penalty the choices still change from step to step, so the
# output is TensorFlow's whatever its random stream. Expected output: TF's,
# recomputed with NumPy by tests/e2e/reference/text_generation_top_k.py.
import collections

import tensorflow as tf

corpus = """the cat sat on the mat . the dog sat on the rug . the cat saw the dog .
the dog ran to the cat . a cat ran on the mat . the dog saw a bird ."""
words = corpus.split()
vocab = ["<unk>"] + sorted(set(words))
word_to_id = {w: i for i, w in enumerate(vocab)}
VOCAB_SIZE = len(vocab)
print("vocabulary:", VOCAB_SIZE, vocab[:6])

# Bigram counts -> smoothed log-probabilities as the embedding (one row per
# token); the projection is the identity plus a small fixed perturbation.
counts = collections.Counter(zip(words, words[1:]))
table = [[0.0] * VOCAB_SIZE for _ in range(VOCAB_SIZE)]
for (a, b), n in counts.items():
  table[word_to_id[a]][word_to_id[b]] = float(n)
bigrams = tf.constant(table)
log_probs = tf.math.log((bigrams + 0.1) / tf.reduce_sum(bigrams + 0.1, axis=1, keepdims=True))
embedding = tf.Variable(log_probs, name="embedding")
i = tf.range(VOCAB_SIZE, dtype=tf.float32)
perturbation = 0.05 * tf.sin(7.0 * i[:, tf.newaxis] + 3.0 * i[tf.newaxis, :])
projection = tf.Variable(tf.eye(VOCAB_SIZE) + perturbation, name="projection")
print("embedding:", embedding.shape, "projection:", projection.shape)

ids_to_words = tf.constant(vocab)


def encode(text):
  return [word_to_id.get(w, 0) for w in text.split()]


def decode(ids):
  return tf.strings.reduce_join(tf.gather(ids_to_words, ids), separator=" ", axis=-1)


@tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32)])
def next_logits(tokens):
  # tokens: [batch, time] int32; the model sees only the last token.
  last = tokens[:, -1]
  hidden = tf.nn.embedding_lookup(embedding, last)
  return tf.matmul(hidden, projection)


def top_k_mask(logits, k):
  values, _ = tf.math.top_k(logits, k=k)
  threshold = values[:, -1:]
  return tf.where(logits < threshold, tf.fill(tf.shape(logits), float("-inf")), logits)


def generate(prompts, steps, k, penalty=2.0, temperature=1.0):
  tokens = tf.constant([encode(p) for p in prompts], dtype=tf.int32)
  for step in range(steps):
    logits = next_logits(tokens) / temperature
    # Penalize every token already in the sequence.
    seen = tf.reduce_max(tf.one_hot(tokens, VOCAB_SIZE), axis=1)
    logits -= penalty * seen
    masked = top_k_mask(logits, k)
    next_ids = tf.random.categorical(masked, num_samples=1, dtype=tf.int32, seed=42)
    tokens = tf.concat([tokens, next_ids], axis=1)
  return tokens


prompts = ["the cat", "a dog", "the bird"]
print("encoded:", [encode(p) for p in prompts])

# The three best continuations of each prompt and their probabilities.
probs = tf.nn.softmax(next_logits(tf.constant([encode(p) for p in prompts])))
top = tf.math.top_k(probs, k=3)
for prompt, p, ids in zip(prompts, top.values.numpy(), top.indices.numpy()):
  choices = ", ".join(f"{vocab[i]} {q:.3f}" for i, q in zip(ids, p))
  print(f"{prompt!r:>11} -> {choices}")

tokens = generate(prompts, steps=6, k=1)
print(tokens.shape, tokens.dtype)
for row in tokens.numpy():
  print(" ".join(vocab[i] for i in row))
print(decode(tokens))
print([s.decode("utf-8") for s in decode(tokens).numpy()])

# Greedy decoding (argmax of the same penalized logits) agrees with k=1.
greedy = tf.constant([encode(p) for p in prompts], dtype=tf.int32)
for _ in range(6):
  logits = next_logits(greedy) - 2.0 * tf.reduce_max(tf.one_hot(greedy, VOCAB_SIZE), axis=1)
  greedy = tf.concat([greedy, tf.argmax(logits, axis=-1, output_type=tf.int32)[:, tf.newaxis]], axis=1)
print("greedy == top-1 sampling:", bool(tf.reduce_all(greedy == tokens)))
print("traces:", next_logits.experimental_get_tracing_count())
lengths = tf.strings.length(decode(tokens))
print("characters:", lengths.numpy().tolist())
