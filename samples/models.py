# Realistic model functions (not from the seeds): an RNN over time with a TensorArray, greedy decoding with `break`, a GradientTape training loop, list accumulation in a tensor loop, and `continue` with an early `return`.
import tensorflow as tf


# --- (1) An Elman RNN unrolled with a tensor loop -------------------------

@tf.function
def rnn_forward(x, W, U, b, h0):
  """Runs h_t = tanh(x_t W + h_{t-1} U + b); x is [time, batch, features], h0 is [batch, units]."""
  T = tf.shape(x)[0]
  states = tf.TensorArray(tf.float32, size=T)
  h = h0
  for t in tf.range(T):
    h = tf.tanh(x[t] @ W + h @ U + b)
    states = states.write(t, h)
  return states.stack(), h

time_steps, batch, features, units = 5, 2, 3, 4
all_states, last_state = rnn_forward(
    tf.random.normal([time_steps, batch, features]),
    tf.random.normal([features, units]),
    tf.random.normal([units, units]),
    tf.zeros([units]),
    tf.zeros([batch, units]))
print(all_states.shape, last_state.shape)


# --- (2) Greedy decoding that stops early when every sequence has finished ---

@tf.function
def greedy_decode(transitions, start_tokens, end_token, max_len):
  # transitions: [vocab, vocab] scores of the next token given the current one.
  tokens = start_tokens
  finished = tf.equal(tokens, end_token)
  scores = tf.zeros(tf.shape(tokens))
  outputs = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
  step = tf.constant(0)
  while step < max_len:
    logits = tf.gather(transitions, tokens)
    log_probs = tf.nn.log_softmax(logits)
    next_tokens = tf.argmax(log_probs, axis=-1, output_type=tf.int32)
    best = tf.reduce_max(log_probs, axis=-1)
    scores += tf.where(finished, tf.zeros_like(best), best)
    tokens = tf.where(finished, tf.fill(tf.shape(tokens), end_token), next_tokens)
    outputs = outputs.write(step, tokens)
    finished = finished | tf.equal(tokens, end_token)
    step += 1
    if tf.reduce_all(finished):
      break
  return tf.transpose(outputs.stack()), scores, step

vocab = 6
transitions = tf.random.normal([vocab, vocab])
print(greedy_decode(transitions, tf.constant([0, 1, 2]), 5, tf.constant(10)))


# --- (3) A training loop that updates tf.Variables with a GradientTape ---

true_w = tf.constant([[2.0], [-1.0], [0.5]])
features_data = tf.random.normal([64, 3])
labels_data = features_data @ true_w + 0.3

w = tf.Variable(tf.zeros([3, 1]))
b = tf.Variable(0.0)

@tf.function
def fit(features, labels, num_steps, learning_rate):
  loss = tf.constant(0.0)
  for step in tf.range(num_steps):
    with tf.GradientTape() as tape:
      predictions = tf.matmul(features, w) + b
      loss = tf.reduce_mean(tf.square(predictions - labels))
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(learning_rate * dw)
    b.assign_sub(learning_rate * db)
    if step % 50 == 0:
      tf.print("step", step, "loss", loss)
  return loss

print(fit(features_data, labels_data, tf.constant(200), 0.1))
print(w.numpy().ravel(), b.numpy())


# --- (4) Appending to a Python list inside a tensor loop -----------------

@tf.function
def running_means(x):
  outputs = []
  total = tf.constant(0.0)
  for i in tf.range(tf.shape(x)[0]):
    total += x[i]
    outputs.append(total / tf.cast(i + 1, tf.float32))
  return tf.stack(outputs)

print(running_means(tf.constant([1.0, 2.0, 3.0, 6.0])))


# --- (5) `continue` and an early `return` inside a loop ------------------

@tf.function
def positive_sum_until(values, limit):
  total = tf.constant(0.0)
  for v in values:
    if v < 0:
      continue
    total += v
    if total > limit:
      return limit
  return total

print(positive_sum_until(tf.constant([1.0, -5.0, 2.0, 3.0]), tf.constant(100.0)))
print(positive_sum_until(tf.constant([1.0, -5.0, 2.0, 3.0]), tf.constant(2.5)))
