# tf.data elements that are RaggedTensors: a map returning one (tf.strings.split
# of each row), its element_spec (a RaggedTensorSpec), iteration giving eager
# RaggedTensors, and maps taking a RaggedTensor element. Printed forms are TF's.
import tensorflow as tf

ds = tf.data.Dataset.from_tensor_slices([["a b", "c"], ["d", "e f g"]])
words = ds.map(lambda s: tf.strings.split(s))
print(words.element_spec)
for w in words:
    print(w, w.shape)
upper = words.map(lambda rt: tf.strings.upper(rt))
print(upper.element_spec)
for w in upper:
    print(w)
counts = words.map(lambda rt: rt.row_lengths())
for c in counts:
    print(c)
pairs = words.map(lambda rt: (rt.values, rt))
for v, rt in pairs:
    print(v, rt)


@tf.function
def count_words(ds):
    n = tf.constant(0, tf.int64)
    for rt in ds:
        n += tf.size(rt.values, out_type=tf.int64)
    return n


print(count_words(words))
