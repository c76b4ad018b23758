"""The numbers tests/e2e/programs/data_pipeline_training.py prints,
recomputed independently of agc in float32 with NumPy: the same seeded
NumPy data and weights, TF's shuffle order from tf_shuffle.py (TF's
ShuffleDatasetV3 over Philox), the network's forward and backward pass
written out by hand, and plain SGD. Run with any Python 3 that has NumPy:
    python3 tests/e2e/reference/data_pipeline_training.py
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tf_shuffle import ShuffledDataset, get_seed  # noqa: E402

N, BATCH, EPOCHS, HIDDEN, LR = 200, 32, 8, 8, np.float32(0.1)

np.random.seed(1234)
labels = np.random.randint(0, 2, size=N)
centers = np.array([[2.0, 1.0], [-1.0, -2.0]])
features = (np.random.randn(N, 2) * 1.2 + centers[labels]).astype(np.float32)
print("features:", features.shape, features.dtype, "labels:", labels.shape, labels.dtype)
print("class counts:", np.bincount(labels))
mean, std = features.mean(axis=0), features.std(axis=0)
normalized = (features - mean) / std
print("(TensorSpec(shape=(2,), dtype=tf.float32, name=None), TensorSpec(shape=(), dtype=tf.int64, name=None))")
batches = -(-N // BATCH)
print("batches per epoch:", batches)
print("first batch:", (BATCH, 2), (BATCH,), "<dtype: 'int32'>")

w1 = (np.random.randn(2, HIDDEN) * 0.5).astype(np.float32)
b1 = np.zeros(HIDDEN, np.float32)
w2 = (np.random.randn(HIDDEN, 2) * 0.5).astype(np.float32)
b2 = np.zeros(2, np.float32)


def forward(x):
    pre = x @ w1 + b1
    h = np.maximum(pre, 0)
    return pre, h, h @ w2 + b2


shuffle = ShuffledDataset(range(N), N, *get_seed(7))
list(shuffle.iterate())  # train_ds.take(1) makes an iterator: one reshuffle
for epoch in range(EPOCHS):
    order = list(shuffle.iterate())
    losses = []
    for i in range(0, N, BATCH):
        idx = order[i:i + BATCH]
        x, y = normalized[idx], labels[idx]
        pre, h, logits = forward(x)
        shifted = logits - logits.max(axis=1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        losses.append(np.float32(-log_probs[np.arange(len(idx)), y].mean()))
        g = np.exp(log_probs)
        g[np.arange(len(idx)), y] -= 1
        g /= np.float32(len(idx))
        dw2, db2 = h.T @ g, g.sum(axis=0)
        dh = (g @ w2.T) * (pre > 0)
        dw1, db1 = x.T @ dh, dh.sum(axis=0)
        w1, b1, w2, b2 = w1 - LR * dw1, b1 - LR * db1, w2 - LR * dw2, b2 - LR * db2
    print(f"epoch {epoch + 1}: loss {np.mean(losses):.4f} over {len(losses)} batches")

print("traces:", 2)  # batches of 32, then the last one of N % 32
print("steps:", EPOCHS * batches)
correct = int((forward(normalized)[2].argmax(axis=1) == labels).sum())
print(f"accuracy: {correct / N:.3f} ({correct}/{N})")
