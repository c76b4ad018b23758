"""The output of tests/e2e/programs/text_generation_top_k.py, recomputed
independently of agc with NumPy in float32: the same vocabulary and bigram
table, the same logits, top-k masking and repetition penalty. With k=1 the
only token a categorical draw can pick is the top one, so the reference
takes the argmax, and checks that no decision is a near tie (which float32
rounding in another implementation could flip). Run with any Python 3 that
has NumPy:
    python3 tests/e2e/reference/text_generation_top_k.py
"""
import collections

import numpy as np

corpus = """the cat sat on the mat . the dog sat on the rug . the cat saw the dog .
the dog ran to the cat . a cat ran on the mat . the dog saw a bird ."""
words = corpus.split()
vocab = ["<unk>"] + sorted(set(words))
word_to_id = {w: i for i, w in enumerate(vocab)}
V = len(vocab)
print("vocabulary:", V, vocab[:6])
table = np.zeros((V, V), np.float32)
for (a, b), n in collections.Counter(zip(words, words[1:])).items():
    table[word_to_id[a], word_to_id[b]] = n
smoothed = table + np.float32(0.1)
embedding = np.log(smoothed / smoothed.sum(axis=1, keepdims=True))
i = np.arange(V, dtype=np.float32)
projection = np.eye(V, dtype=np.float32) + np.float32(0.05) * np.sin(np.float32(7.0) * i[:, None] + np.float32(3.0) * i[None, :])
print("embedding:", (V, V), "projection:", (V, V))


def encode(text):
    return [word_to_id.get(w, 0) for w in text.split()]


def next_logits(tokens):
    return embedding[tokens[:, -1]] @ projection


def checked_argmax(logits):
    order = np.argsort(-logits, axis=-1, kind="stable")
    rows = np.arange(len(logits))
    gap = logits[rows, order[:, 0]] - logits[rows, order[:, 1]]
    assert gap.min() > 1e-4, gap
    return order[:, 0]


prompts = ["the cat", "a dog", "the bird"]
print("encoded:", [encode(p) for p in prompts])
logits = next_logits(np.array([encode(p) for p in prompts]))
probs = np.exp(logits - logits.max(axis=1, keepdims=True))
probs /= probs.sum(axis=1, keepdims=True)
for prompt, p in zip(prompts, probs):
    ids = np.argsort(-p, kind="stable")[:3]
    assert min(p[ids[0]] - p[ids[1]], p[ids[1]] - p[ids[2]], p[ids[2]] - np.sort(p)[-4]) > 1e-4
    choices = ", ".join(f"{vocab[k]} {p[k]:.3f}" for k in ids)
    print(f"{prompt!r:>11} -> {choices}")

tokens = np.array([encode(p) for p in prompts], np.int32)
for _ in range(6):
    seen = np.zeros((len(tokens), V), np.float32)
    for r, row in enumerate(tokens):
        seen[r, row] = 1
    tokens = np.concatenate([tokens, checked_argmax(next_logits(tokens) - np.float32(2.0) * seen)[:, None]], axis=1)
print(tokens.shape, "<dtype: 'int32'>")
texts = [" ".join(vocab[k] for k in row) for row in tokens]
for t in texts:
    print(t)
print("tf.Tensor(\n" + str(np.array([t.encode() for t in texts], dtype=object)) + f", shape=({len(texts)},), dtype=string)")
print(texts)
print("greedy == top-1 sampling:", True)
print("traces:", 1)
print("characters:", [len(t) for t in texts])
