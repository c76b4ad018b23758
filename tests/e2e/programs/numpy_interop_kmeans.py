# NumPy in, NumPy out, in the style of TensorFlow's "NumPy API on
# TensorFlow" and "Introduction to Tensors" guides: data made with NumPy,
# handed to tf.functions (NumPy arrays convert to tensors, keeping their
# dtype), results brought back with .numpy() and post-processed with NumPy.
# The computation is k-means on three blobs: a tf.function assigns points to
# the nearest centroid, another computes the new centroids with
# tf.math.unsorted_segment_sum; NumPy tracks the inertia, counts clusters,
# finds outliers with np.where and assembles a report with np.concatenate.
#
# Expected output: TensorFlow's (NumPy 1.24's printing), recomputed with
# NumPy alone by tests/e2e/reference/numpy_interop_kmeans.py.
import numpy as np
import tensorflow as tf

np.random.seed(7)
blobs = [np.random.randn(8, 2) * 0.6 + center for center in ([3.0, 3.0], [-2.0, -1.0], [2.5, -3.0])]
points = np.concatenate(blobs).astype(np.float32)
print("points:", points.shape, points.dtype)
print(np.round(points[:4], 2))

# NumPy arrays become tensors of the same dtype.
print(tf.constant(points).dtype, tf.constant(np.arange(3)).dtype, tf.constant(np.ones(2)).dtype)


def squared_distances(points, centroids):
  # [n, k] by broadcasting [n, 1, 2] against [1, k, 2].
  diff = points[:, tf.newaxis, :] - centroids[tf.newaxis, :, :]
  return tf.reduce_sum(tf.square(diff), axis=-1)


@tf.function
def assign(points, centroids):
  distances = squared_distances(points, centroids)
  return tf.argmin(distances, axis=1, output_type=tf.int32), tf.reduce_min(distances, axis=1)


@tf.function
def update(points, assignment, k):
  sums = tf.math.unsorted_segment_sum(points, assignment, num_segments=k)
  counts = tf.math.unsorted_segment_sum(tf.ones_like(points[:, :1]), assignment, num_segments=k)
  return sums / tf.maximum(counts, 1.0)


K = 3
centroids = points[[0, 1, 2]]  # a poor start: three points of the same blob
history = []
for step in range(6):
  assignment, distances = assign(points, centroids)
  inertia = float(np.sum(distances.numpy()))
  history.append(inertia)
  new_centroids = update(points, assignment, K).numpy()
  moved = np.abs(new_centroids - centroids).max()
  print(f"step {step}: inertia {inertia:8.3f}, max move {moved:.3f}")
  centroids = new_centroids
  if moved < 1e-4:
    break

print("traces:", assign.experimental_get_tracing_count(), update.experimental_get_tracing_count())
labels = assignment.numpy()
print("labels:", labels, labels.dtype)
print("cluster sizes:", np.bincount(labels, minlength=K))
print("centroids:")
print(np.round(centroids, 3))
print("inertia never increased:", bool(np.all(np.diff(history) <= 0)))

# Clusters renumbered from left to right.
order = np.argsort(centroids[:, 0])
print("left to right:", order, np.round(centroids[order], 2).tolist())
relabel = np.argsort(order)
labels = relabel[labels]
print("labels:", labels)

# Points farther than 1.4 from their centroid.
dist = np.sqrt(distances.numpy())
far = np.where(dist > 1.4)[0]
print("far points:", far, np.round(dist[far], 3))
print("mean distance per cluster:", np.round(np.array([dist[labels == c].mean() for c in range(K)]), 3))

# Soft assignments: a softmax over negative squared distances, in NumPy.
soft = tf.nn.softmax(-squared_distances(points, centroids[order]), axis=1).numpy()
print("soft:", soft.shape, soft.dtype, "rows sum to 1:", bool(np.allclose(soft.sum(axis=1), 1.0)))
confident = np.where(soft.max(axis=1) > 0.99, labels, -1)
print("confident:", confident)
print("agree with hard labels:", bool(np.array_equal(np.argmax(soft, axis=1), labels)))
report = np.concatenate([labels[:, np.newaxis], np.round(dist * 100).astype(np.int64)[:, np.newaxis]], axis=1)
print(report[:5])
print("report:", report.shape, report.dtype, "mean distance x100:", report[:, 1].mean())
