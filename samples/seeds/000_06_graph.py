import tensorflow as tf
# Seed 000 (tf.function guide, Spanish), "Obtención de gráficos" (Obtaining
# graphs): a concrete function's tf.Graph and its GraphDef's nodes.


@tf.function
def double(a):
  print("Tracing with", a)
  return a + a

double_strings = double.get_concrete_function(tf.constant("a"))

graph = double_strings.graph
for node in graph.as_graph_def().node:
  print(f'{node.input} -> {node.name}')
