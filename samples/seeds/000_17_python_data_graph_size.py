import tensorflow as tf
# Seed 000 (tf.function guide, Spanish), "Bucle sobre datos de Python"
# (Looping over Python data): a loop over a Python list is unrolled while
# tracing, so the graph grows with the data. (The guide's measure_graph_size
# takes *args; it is called with one argument, which the sample names. The
# tf.data half of the example is not a sample: see README.md.)


def measure_graph_size(f, data):
  g = f.get_concrete_function(data).graph
  print("{}({}) contains {} nodes in its graph".format(
      f.__name__, ', '.join(map(str, [data])), len(g.as_graph_def().node)))

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
