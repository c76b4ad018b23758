# Seed 003, "L'exemple suivant quantifie le modèle avec la clé de signature
# serving_default et l'alias de fonction tpu_func": a model whose tpu_func
# is two dense layers, saved to $OUT, and the seed's representative dataset
# (256 samples {"x": a 3x3 uniform tensor}, stateless here so the run is
# reproducible) saved with TfRecordRepresentativeDatasetSaver to $DATA.
import os
import tensorflow as tf


class Model(tf.Module):
  def __init__(self):
    self.w = tf.Variable(tf.random.stateless_uniform([3, 64], seed=[5, 6]) - 0.5)
    self.b = tf.Variable(tf.random.stateless_uniform([64], seed=[7, 8]) - 0.5)
    self.v = tf.Variable(tf.random.stateless_uniform([64, 2], seed=[9, 10]) - 0.5)

  @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
  def tpu_func(self, x):
    h = tf.nn.relu(tf.matmul(x, self.w) + self.b)
    return tf.matmul(h, self.v)

  @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
  def serve(self, x):
    return self.tpu_func(x)


model = Model()
tf.saved_model.save(model, os.getenv("OUT"), signatures=model.serve,
                    options=tf.saved_model.SaveOptions(function_aliases={'tpu_func': model.tpu_func}))

representative_dataset = [{"x": tf.random.stateless_uniform(shape=(3, 3), seed=[i, 0])}
                          for i in range(256)]
files = tf.quantization.experimental.TfRecordRepresentativeDatasetSaver(
    path_map={'serving_default': os.getenv("DATA")}
).save({'serving_default': representative_dataset})
print(files['serving_default'].tfrecord_file_path == os.getenv("DATA"))
