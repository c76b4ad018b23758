# Seed 003, "Comment déplacer une partie du modèle vers le processeur ?": the
# string preprocessing stays in model_func on the CPU, the compute-heavy
# bert_layer moves to tpu_func, saved under the alias tpu_func. Saved to
# $OUT, with model_func as the serving signature.
import os
import tensorflow as tf


class LanguageModel(tf.Module):
  def __init__(self):
    self.embedding = tf.Variable(tf.random.stateless_normal([1000, 16], seed=[5, 6]))

  @tf.function(input_signature=[tf.TensorSpec([None], tf.int64)])
  def tpu_func(self, word_ids):
    return self.bert_layer(word_ids)

  @tf.function(input_signature=[tf.TensorSpec([], tf.string)])
  def model_func(self, input_string):
    word_ids = self.preprocess(input_string)
    return self.tpu_func(word_ids)

  # Stand-ins for the definitions the seed omits.
  def preprocess(self, input_string):
    words = tf.strings.split(input_string)
    return tf.cast(tf.strings.length(words), tf.int64) * 37 % 1000

  def bert_layer(self, word_ids):
    return tf.reduce_mean(tf.gather(self.embedding, word_ids), axis=0)


model = LanguageModel()
print(model.model_func(tf.constant("hello tpu world")).shape)
tf.saved_model.save(model, os.getenv("OUT"), signatures=model.model_func,
                    options=tf.saved_model.SaveOptions(function_aliases={'tpu_func': model.tpu_func}))
