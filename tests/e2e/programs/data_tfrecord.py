# TFRecord files and tf.train.Example (issue 14): records written with
# tf.io.TFRecordWriter, read back with tf.data.TFRecordDataset, parsed with
# tf.io.parse_single_example (eagerly and inside map) and tf.io.parse_example,
# defaults for missing features, and TF's errors for a missing file and a
# missing required feature. Expected output: TensorFlow 2.11-2.13's.
import tensorflow as tf

path = '/tmp/agc-e2e-data.tfrecord'
with tf.io.TFRecordWriter(path) as writer:
    for i in range(3):
        example = tf.train.Example(features=tf.train.Features(feature={
            'id': tf.train.Feature(int64_list=tf.train.Int64List(value=[i])),
            'xy': tf.train.Feature(float_list=tf.train.FloatList(value=[i * 0.5, -1.0])),
            'name': tf.train.Feature(bytes_list=tf.train.BytesList(value=[('n' + str(i)).encode()])),
        }))
        writer.write(example.SerializeToString())

records = tf.data.TFRecordDataset(path)
print(records)
print(len(list(records)))

features = {
    'id': tf.io.FixedLenFeature([], tf.int64),
    'xy': tf.io.FixedLenFeature([2], tf.float32),
    'name': tf.io.FixedLenFeature([], tf.string),
    'label': tf.io.FixedLenFeature([], tf.int64, default_value=-1),
}
print(features['xy'])
for record in records.take(1):
    one = tf.io.parse_single_example(record, features)
    print(sorted(one.keys()))
    print(one['id'], one['label'])

parsed = records.map(lambda r: tf.io.parse_single_example(r, features))
print(parsed.element_spec)
for p in parsed:
    print(p['id'].numpy(), p['xy'].numpy(), p['name'].numpy(), p['label'].numpy())

batch = next(iter(records.batch(3)))
print(tf.io.parse_example(batch, {'id': tf.io.FixedLenFeature([], tf.int64)})['id'])

try:
    for record in records.take(1):
        tf.io.parse_single_example(record, {'missing': tf.io.FixedLenFeature([], tf.float32)})
except tf.errors.InvalidArgumentError as e:
    print('InvalidArgumentError')
try:
    for record in tf.data.TFRecordDataset('/tmp/agc-e2e-no-such-file.tfrecord'):
        print(record)
except tf.errors.NotFoundError as e:
    print('NotFoundError')
