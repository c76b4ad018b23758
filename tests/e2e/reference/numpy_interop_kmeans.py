"""The output of tests/e2e/programs/numpy_interop_kmeans.py, recomputed
independently of agc with NumPy alone: the program's NumPy lines as they are,
its TensorFlow functions (squared distances, argmin, unsorted_segment_sum,
softmax) written in NumPy float32. Run with a python3 that has NumPy 1.24:
    python3 tests/e2e/reference/numpy_interop_kmeans.py
"""
import numpy as np

np.random.seed(7)
blobs = [np.random.randn(8, 2) * 0.6 + center for center in ([3.0, 3.0], [-2.0, -1.0], [2.5, -3.0])]
points = np.concatenate(blobs).astype(np.float32)
print("points:", points.shape, points.dtype)
print(np.round(points[:4], 2))
print("<dtype: 'float32'> <dtype: 'int64'> <dtype: 'float64'>")


def squared_distances(points, centroids):
    diff = points[:, np.newaxis, :] - centroids[np.newaxis, :, :]
    return np.sum(np.square(diff), axis=-1)


def assign(points, centroids):
    d = squared_distances(points, centroids)
    return np.argmin(d, axis=1).astype(np.int32), np.min(d, axis=1)


def update(points, assignment, k):
    sums = np.zeros((k, points.shape[1]), np.float32)
    counts = np.zeros((k, 1), np.float32)
    for p, a in zip(points, assignment):  # in order, as TF's kernel adds
        sums[a] += p
        counts[a] += 1
    return sums / np.maximum(counts, np.float32(1.0))


K = 3
centroids = points[[0, 1, 2]]
history = []
for step in range(6):
    assignment, distances = assign(points, centroids)
    inertia = float(np.sum(distances))
    history.append(inertia)
    new_centroids = update(points, assignment, K)
    moved = np.abs(new_centroids - centroids).max()
    print(f"step {step}: inertia {inertia:8.3f}, max move {moved:.3f}")
    centroids = new_centroids
    if moved < 1e-4:
        break

print("traces:", 1, 1)
labels = assignment
print("labels:", labels, labels.dtype)
print("cluster sizes:", np.bincount(labels, minlength=K))
print("centroids:")
print(np.round(centroids, 3))
print("inertia never increased:", bool(np.all(np.diff(history) <= 0)))
order = np.argsort(centroids[:, 0])
print("left to right:", order, np.round(centroids[order], 2).tolist())
relabel = np.argsort(order)
labels = relabel[labels]
print("labels:", labels)
dist = np.sqrt(distances)
far = np.where(dist > 1.4)[0]
print("far points:", far, np.round(dist[far], 3))
print("mean distance per cluster:", np.round(np.array([dist[labels == c].mean() for c in range(K)]), 3))
logits = -squared_distances(points, centroids[order])
soft = np.exp(logits - logits.max(axis=1, keepdims=True))
soft /= soft.sum(axis=1, keepdims=True)
print("soft:", soft.shape, soft.dtype, "rows sum to 1:", bool(np.allclose(soft.sum(axis=1), 1.0)))
confident = np.where(soft.max(axis=1) > 0.99, labels, -1)
print("confident:", confident)
print("agree with hard labels:", bool(np.array_equal(np.argmax(soft, axis=1), labels)))
report = np.concatenate([labels[:, np.newaxis], np.round(dist * 100).astype(np.int64)[:, np.newaxis]], axis=1)
print(report[:5])
print("report:", report.shape, report.dtype, "mean distance x100:", report[:, 1].mean())
