# tf.keras's attention layers as a program uses them: a small transformer-ish
# functional model (Embedding(mask_zero=True) -> MultiHeadAttention with a
# residual Add -> LayerNormalization -> GlobalAveragePooling1D -> Dense) with
# Keras's weight names, parameter counts and summary; its attention scores
# under the padding mask and the causal one; Attention (dot and concat) and
# AdditiveAttention with masks; EinsumDense; Keras's errors; a few fit steps.
# Expected output: TensorFlow 2.15's text. The numbers were recomputed
# independently of agc with NumPy by tests/e2e/reference/keras_attention.py
# (run it with /usr/bin/python3): the seeded initializers' draws are TF's
# stateless Philox uniform on the seed [seed, 0] (that script checks its
# Philox against the TF guide's stateless_normal for seed [1, 2]), then the
# layers' math written out in float32: Keras clones a seeded initializer for
# each projection, so the query, key and value kernels are the same draw; the
# padding mask ANDs the query's and the value's masks, and masked scores get
# -1e9 before the softmax, so a padded query attends evenly (0.2) to all five.
# TF wraps an error raised inside a layer's call() in "Exception encountered
# when calling layer ..." with the call's arguments; `layer_error` prints the
# layer's own text, which is the part this test checks.
import numpy as np
import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers


def rounded(t, digits=4):
    t = tf.convert_to_tensor(t)
    return [[round(float(v), digits) for v in row] for row in tf.reshape(t, [-1, t.shape[-1]]).numpy()]


def layer_error(fn):
    try:
        fn()
    except (ValueError, TypeError) as e:
        text = str(e)
        if text.startswith("Exception encountered"):
            text = text.split("\n\n")[1]
        print(type(e).__name__ + ":", text)


tokens = tf.constant([[3, 7, 1, 0, 0], [5, 2, 9, 4, 6]])
inputs = keras.Input(shape=(5,), dtype="int32", name="tokens")
embed = layers.Embedding(12, 8, mask_zero=True, name="embed",
                         embeddings_initializer=keras.initializers.RandomUniform(-1.0, 1.0, seed=1))
mha = layers.MultiHeadAttention(num_heads=2, key_dim=4, name="mha",
                                kernel_initializer=keras.initializers.GlorotUniform(seed=2),
                                bias_initializer=keras.initializers.Constant(0.1))
x = embed(inputs)
attended = mha(x, x)
y = layers.Add(name="residual")([x, attended])
y = layers.LayerNormalization(name="norm")(y)
y = layers.GlobalAveragePooling1D(name="pool")(y)
outputs = layers.Dense(3, name="head", kernel_initializer=keras.initializers.GlorotUniform(seed=3))(y)
model = keras.Model(inputs, outputs, name="tiny_transformer")
print(x.shape, attended.shape, outputs.shape)
print([(w.name, tuple(w.shape)) for w in mha.weights])
print(mha.count_params())  # 3 * (8 * 2 * 4 + 2 * 4) + 2 * 4 * 8 + 8
model.summary()
print(rounded(model(tokens)))

# The same draw for the query, key and value kernels (a seeded initializer cloned).
print(bool(tf.reduce_all(mha.weights[0] == mha.weights[2])), bool(tf.reduce_all(mha.weights[0] == mha.weights[4])))

# The scores of the first head: padded keys (3, 4) get nothing, padded queries attend evenly.
e = embed(tokens)
out, scores = mha(e, e, return_attention_scores=True)
print(out.shape, scores.shape)
print(rounded(scores[0, 0]))
# use_causal_mask: no query attends to a later key.
causal = mha(e, e, use_causal_mask=True, return_attention_scores=True)[1]
print(rounded(causal[1, 1]))
# An explicit attention_mask ANDs with the padding masks: here keys 0 and 1 only.
only_first_two = tf.constant([[[True, True, False, False, False]] * 5] * 2)
print(rounded(mha(e, e, attention_mask=only_first_two, return_attention_scores=True)[1][1, 0]))
print(mha.compute_output_shape((None, 5, 8), (None, 4, 8)))

# Luong attention: scores q.v; the value mask hides value 1, the query mask zeroes row 2.
q = tf.constant([[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]])
v = tf.constant([[[1.0, 2.0], [3.0, 4.0]]])
att = layers.Attention()
print(rounded(att([q, v])))
out, weights = att([q, v], mask=[tf.constant([[True, True, False]]), tf.constant([[True, False]])],
                   return_attention_scores=True)
print(rounded(out), rounded(weights))
print(rounded(att([q, q], use_causal_mask=True)))
cat = layers.Attention(use_scale=True, score_mode="concat", name="cat")
print(rounded(cat([q, v, q[:, :2]])), [w.name for w in cat.weights])
# Dropout only while training.
drop = layers.Attention(dropout=0.5)
print(bool(tf.reduce_all(drop([q, v]) == att([q, v]))), drop([q, v], training=True).shape)

# Bahdanau attention: scores sum(scale * tanh(q + v)).
bahdanau = layers.AdditiveAttention(name="bahdanau")
bahdanau([q, v])
bahdanau.set_weights([np.array([0.5, -1.0], dtype="float32")])
print([(w.name, tuple(w.shape)) for w in bahdanau.weights])
print(rounded(bahdanau([q, v])))
print(rounded(layers.AdditiveAttention(use_scale=False)([q, v])))

# EinsumDense: the weights' shapes read off the equation.
dense = layers.EinsumDense("abc,cd->abd", output_shape=(None, 4), bias_axes="d", name="proj")
print(dense(keras.Input(shape=(5, 8))).shape, [(w.name, tuple(w.shape)) for w in dense.weights])
heads = layers.EinsumDense("...b,bcd->...cd", output_shape=(2, 3), bias_axes="cd")
print(heads(tf.ones([4, 6])).shape, [tuple(w.shape) for w in heads.weights])

layer_error(lambda: att(q))
layer_error(lambda: att([q]))
layer_error(lambda: att([q, v], mask=[None]))
layer_error(lambda: layers.Attention(score_mode="mul"))
layer_error(lambda: layers.EinsumDense("ab,bc", output_shape=4)(tf.ones([2, 3])))
layer_error(lambda: layers.EinsumDense("ab,bc->ad", output_shape=4)(tf.ones([2, 3])))
layer_error(lambda: mha.compute_output_shape((None, 5, 8), (None, 4, 6)))

# A few SGD steps through the traced model: the masked attention's gradients train it.
model.compile(optimizer=keras.optimizers.SGD(0.1),
              loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
history = model.fit(tokens, tf.constant([0, 2]), epochs=5, verbose=0)
print(history.history["loss"][-1] < history.history["loss"][0])
