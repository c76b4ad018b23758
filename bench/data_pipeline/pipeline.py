# Issue 14's tf.data benchmark, as TF2 Python: converted at build time by
# `agc emit-cpp --lib` (bench/meson.build) and timed by data_pipeline_bench.cpp
# against the same pipeline written as a plain C++ loop;
# torch_dataloader.py is PyTorch's DataLoader over the same records.
import tensorflow as tf


def make_pipeline(features, labels):
    ds = tf.data.Dataset.from_tensor_slices((features, labels))
    ds = ds.shuffle(10000, seed=1)
    ds = ds.map(lambda x, y: (x * 2.0 + 1.0, y))
    return ds.batch(256)


def consume(ds):
    batches = 0
    for x, y in ds:
        batches += 1
    return batches


def checksum(ds):
    batches = 0
    total = tf.constant(0, tf.int64)
    for x, y in ds:
        batches += 1
        total += tf.reduce_sum(y) * batches
    return batches, total
