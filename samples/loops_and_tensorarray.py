# From seeds 000/001 (tf.function guide): "Loops", "Looping over Python data", "Accumulating values in a loop" (tf.TensorArray); the last three functions are variations of those loops.
import tensorflow as tf


# --- Looping over Python data --------------------------------------------

def measure_graph_size(f, *args):
  g = f.get_concrete_function(*args).graph
  print("{}({}) contains {} nodes in its graph".format(
      f.__name__, ', '.join(map(str, args)), len(g.as_graph_def().node)))

@tf.function
def train(dataset):
  loss = tf.constant(0)
  for x, y in dataset:
    loss += tf.abs(y - x) # Some dummy computation.
  return loss

small_data = [(1, 1)] * 3
big_data = [(1, 1)] * 10
measure_graph_size(train, small_data)
measure_graph_size(train, big_data)

measure_graph_size(train, tf.data.Dataset.from_generator(
    lambda: small_data, (tf.int32, tf.int32)))
measure_graph_size(train, tf.data.Dataset.from_generator(
    lambda: big_data, (tf.int32, tf.int32)))


# --- Accumulating values in a loop ---------------------------------------

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

dynamic_rnn(rnn_step,
            tf.random.uniform([batch_size, seq_len, feature_size]),
            tf.zeros([batch_size, feature_size]))


# --- Variations ----------------------------------------------------------

# A TensorArray with dynamic size filled in a while loop.
@tf.function
def cumulative_sums(x):
  n = tf.shape(x)[0]
  sums = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
  total = tf.constant(0.0)
  i = tf.constant(0)
  while i < n:
    total += x[i]
    sums = sums.write(i, total)
    i += 1
  return sums.stack()

print(cumulative_sums(tf.constant([1.0, 2.0, 3.0, 4.0])))


# A dataset loop that keeps a running maximum and counts elements.
@tf.function
def dataset_stats(dataset):
  count = 0
  largest = tf.constant(-1)
  for x in dataset:
    count += 1
    largest = tf.maximum(largest, x)
  return count, largest

print(dataset_stats(tf.data.Dataset.range(5).map(lambda v: tf.cast(v, tf.int32))))


# A Python loop over a list of layer sizes: unrolled at trace time.
@tf.function
def stacked_dense(x, weights):
  for w in weights:
    x = tf.nn.relu(tf.matmul(x, w))
  return x

print(stacked_dense(tf.ones([1, 2]), [tf.ones([2, 3]), tf.ones([3, 1])]))
