import tensorflow as tf
# Seed 000 (tf.function guide, Spanish), "Acumulando valores en un bucle"
# (Accumulating values in a loop): tf.TensorArray collects a loop's values.
# The guide's input is tf.random.uniform without a seed, so its printed values
# cannot be matched: the sample seeds the generator and checks the structure
# (shape, dtype) and that each step's state is the running sum of the inputs.


batch_size = 2
seq_len = 3
feature_size = 4

def rnn_step(inp, state):
  return inp + state

@tf.function
def dynamic_rnn(rnn_step, input_data, initial_state):
  # [batch, time, features] -> [time, batch, features]
  input_data = tf.transpose(input_data, [1, 0, 2])
  max_seq_len = input_data.shape[0]

  states = tf.TensorArray(tf.float32, size=max_seq_len)
  state = initial_state
  for i in tf.range(max_seq_len):
    state = rnn_step(input_data[i], state)
    states = states.write(i, state)
  return tf.transpose(states.stack(), [1, 0, 2])

tf.random.set_seed(5)
input_data = tf.random.uniform([batch_size, seq_len, feature_size])
result = dynamic_rnn(rnn_step, input_data, tf.zeros([batch_size, feature_size]))
print(result.shape, result.dtype)
print(tf.reduce_all(tf.abs(result - tf.cumsum(input_data, axis=1)) < 1e-6))
