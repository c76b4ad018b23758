# tf.keras's recurrent layers as a program uses them: SimpleRNN, GRU, LSTM,
# RNN over a cell, Bidirectional and TimeDistributed; return_sequences,
# return_state, go_backwards, masks, a tf.function with an unknown time dim,
# Keras's weight names and an error.
# Expected output: TensorFlow 2.15's text (checkpoint keys by Keras's
# tracking: forward_layer/backward_layer, then each layer's cell); every value
# is worked out by hand in the comments (initializers "ones"/"identity" and no activation make a
# SimpleRNN a running sum: h_t = h_{t-1} + x_t).
import os
import tempfile

import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

x = tf.constant([[[1.0], [2.0], [3.0]]])  # batch 1, 3 steps, 1 feature


def running_sum(**kwargs):
    return layers.SimpleRNN(1, activation=None, kernel_initializer="ones", recurrent_initializer="identity",
                            **kwargs)


# Outputs 1, 3, 6; the state is the last output.
rnn = running_sum(return_sequences=True, return_state=True, name="acc")
seq, state = rnn(x)
print(seq.numpy().tolist(), state.numpy().tolist())
print([w.name for w in rnn.weights])

# go_backwards reads 3, 2, 1 and returns the outputs in that order: 3, 5, 6.
print(running_sum(return_sequences=True, go_backwards=True)(x).numpy().tolist())

# A masked step keeps the state and repeats the previous output: 1, 1, 1 + 3.
mask = tf.constant([[True, False, True]])
print(running_sum(return_sequences=True)(x, mask=mask).numpy().tolist())

# An initial state of 10: 11, 13, 16.
print(running_sum()(x, initial_state=tf.constant([[10.0]])).numpy().tolist())

# LSTM and GRU weights: Keras's names, shapes and the forget gate's bias of ones.
lstm = layers.LSTM(2, name="lstm")
lstm(tf.zeros([1, 3, 4]))
print([(w.name, tuple(w.shape)) for w in lstm.weights])
print(lstm.cell.bias.numpy().tolist())
gru = layers.GRU(2, name="gru", return_state=True)
out, h = gru(tf.zeros([1, 3, 4]))
print([(w.name, tuple(w.shape)) for w in gru.weights], out.shape, h.shape)

# keras.layers.RNN over a cell.
wrapped = layers.RNN(layers.SimpleRNNCell(1, activation=None, kernel_initializer="ones",
                                          recurrent_initializer="identity"), name="wrapped")
print(wrapped(x).numpy().tolist(), wrapped.weights[0].name)

# Bidirectional: forward 1, 3, 6; backward 3, 5, 6 reversed back to 6, 5, 3.
bi = layers.Bidirectional(running_sum(return_sequences=True, name="acc2"))
print(bi(x).numpy().tolist())
print([w.name for w in bi.weights][:2], bi.forward_layer.name, bi.backward_layer.name)
print(layers.Bidirectional(running_sum(name="acc3"), merge_mode="sum")(x).numpy().tolist())  # 6 + 6

# TimeDistributed(Dense): the same Dense at every step, named after the wrapper.
td = layers.TimeDistributed(layers.Dense(2, kernel_initializer="ones"))
print(td(x).numpy().tolist(), [w.name for w in td.weights])


# A tf.function with an unknown time dim runs one loop for every length.
running_layer = running_sum(name="traced")


@tf.function(input_signature=[tf.TensorSpec([None, None, 1])])
def last_sum(xs):
    return running_layer(xs)


print(last_sum(x).numpy().tolist(), last_sum(tf.ones([2, 5, 1])).numpy().tolist())

# summary(): Bidirectional(LSTM(4)) over 3 features holds 2 * 4 * 4 * (3 + 4 + 1)
# = 256 weights, GRU(2) over its 8 outputs 3 * 2 * (8 + 2) + 2 * 3 * 2 = 72.
model = keras.Sequential([layers.Bidirectional(layers.LSTM(4, return_sequences=True), input_shape=(None, 3), name="bi"),
                          layers.GRU(2, name="gru2"), layers.Dense(1, name="out")], name="seq")
model.summary()

# save_weights/load_weights: Bidirectional tracks its two copies, an RNN its cell.
d = tempfile.mkdtemp()
saved = keras.Sequential([layers.Bidirectional(layers.LSTM(2), input_shape=(3, 1))])
saved.save_weights(os.path.join(d, "bi"))
for key, shape in tf.train.list_variables(os.path.join(d, "bi")):
    print(key, shape)
loaded = keras.Sequential([layers.Bidirectional(layers.LSTM(2), input_shape=(3, 1))])
loaded.load_weights(os.path.join(d, "bi"))
print(bool(tf.reduce_all(loaded(x) == saved(x))))

try:
    layers.LSTM(2, name="bad")(tf.zeros([2, 3]))
except ValueError as e:
    print("ValueError:", e)
