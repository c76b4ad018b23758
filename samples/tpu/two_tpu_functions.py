# Seed 003, "Convertir un modèle avec plusieurs fonctions TPU": two functions
# saved under the aliases tpu_func_1 and tpu_func_2, both called by the
# serving signature. Saved to $OUT (a directory that does not exist yet).
import os
import tensorflow as tf


class TwoTpuFunctions(tf.Module):
  def __init__(self):
    self.w1 = tf.Variable(tf.random.stateless_uniform([256, 256], seed=[1, 2]) - 0.5)
    self.w2 = tf.Variable(tf.random.stateless_uniform([256, 256], seed=[3, 4]) - 0.5)

  @tf.function(input_signature=[tf.TensorSpec([None, 256], tf.float32)])
  def tpu_func_1(self, x):
    return tf.nn.relu(tf.matmul(x, self.w1))

  @tf.function(input_signature=[tf.TensorSpec([None, 256], tf.float32)])
  def tpu_func_2(self, x):
    return tf.matmul(x, self.w2)

  @tf.function(input_signature=[tf.TensorSpec([None, 256], tf.float32)])
  def serve(self, x):
    x = x / tf.reduce_max(tf.abs(x))
    return tf.reduce_sum(self.tpu_func_2(self.tpu_func_1(x)), axis=1)


model = TwoTpuFunctions()
x = tf.reshape(tf.range(2 * 256, dtype=tf.float32), [2, 256])
print(model.serve(x))
tf.saved_model.save(model, os.getenv("OUT"), signatures=model.serve,
                    options=tf.saved_model.SaveOptions(function_aliases={
                        'tpu_func_1': model.tpu_func_1,
                        'tpu_func_2': model.tpu_func_2,
                    }))
