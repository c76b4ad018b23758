# tf.io.VarLenFeature: a feature of any length per record parses into a
# SparseTensor ([n, 1] indices for one record; (record, position) pairs and
# [batch, longest] for parse_example), next to FixedLenFeatures.
import os

import tensorflow as tf

path = "/tmp/agc-e2e-varlen-" + str(os.getpid()) + ".tfrecord"
with tf.io.TFRecordWriter(path) as writer:
    for ids, word in [([3, 1, 4], b"pi"), ([], b"none"), ([2, 7], b"e")]:
        example = tf.train.Example(features=tf.train.Features(feature={
            "ids": tf.train.Feature(int64_list=tf.train.Int64List(value=ids)),
            "word": tf.train.Feature(bytes_list=tf.train.BytesList(value=[word])),
        }))
        writer.write(example.SerializeToString())

spec = {"ids": tf.io.VarLenFeature(tf.int64), "word": tf.io.FixedLenFeature([], tf.string)}
print(spec["ids"])
records = list(tf.data.TFRecordDataset(path))
one = tf.io.parse_single_example(records[0], spec)
print(sorted(one.keys()))
print(one["ids"].indices.numpy().tolist(), one["ids"].values.numpy().tolist(), one["ids"].dense_shape.numpy().tolist())
print(tf.sparse.to_dense(one["ids"]).numpy(), one["word"].numpy())
empty = tf.io.parse_single_example(records[1], spec)
print(empty["ids"].values.shape, empty["ids"].dense_shape.numpy())

batch = tf.io.parse_example(tf.stack(records), spec)
print(batch["ids"].indices.numpy().tolist())
print(batch["ids"].values.numpy().tolist(), batch["ids"].dense_shape.numpy().tolist())
print(tf.sparse.to_dense(batch["ids"]).numpy())
print(batch["word"].numpy())


@tf.function
def lengths(serialized):
    parsed = tf.io.parse_example(serialized, spec)
    return tf.sparse.reduce_sum(parsed["ids"], axis=1)


print(lengths(tf.stack(records)))
try:
    tf.io.parse_single_example(records[0], {"word": tf.io.VarLenFeature(tf.int64)})
except tf.errors.InvalidArgumentError as e:
    print("InvalidArgumentError:", e)
os.remove(path)
