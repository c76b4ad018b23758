# From seed 003 (Cloud TPU v5e inference converter guide): ToyModel (function alias, function batching), LanguageModel (moving preprocessing to the CPU), my_func (batching tutorial); and f from seed 004 (JIT translation article).
import tensorflow as tf
import os
import tempfile


model_dir = os.path.join(tempfile.mkdtemp(), "toy_model")


# --- Adding a function alias for the TPU function; function batching -----

class ToyModel(tf.keras.Model):
  @tf.function(
      input_signature=[tf.TensorSpec(shape=[None, 10], dtype=tf.float32)])
  def tpu_func(self, x):
    return x * 1.0

  @tf.function(input_signature=[tf.TensorSpec(shape=[None, 10],
                                              dtype=tf.float32)])
  def batch_func(self, x):
    return x * 1.0

model = ToyModel()
save_options = tf.saved_model.SaveOptions(function_aliases={
    'func_on_tpu': model.tpu_func,
    'batch_func': model.batch_func,
})
tf.saved_model.save(model, model_dir, options=save_options)
print(model.tpu_func(tf.ones([2, 10])))
print(model.batch_func(tf.ones([3, 10])))


# Representative dataset for quantization calibration (an iterable of {input_key: value}).
representative_dataset = [{"x": tf.random.uniform(shape=(3, 3))}
                          for _ in range(256)]
print(len(representative_dataset))


# --- Moving part of the model to the CPU -----------------------------------

# Before the refactoring: preprocessing and the BERT layer in one function.
class LanguageModel(tf.keras.Model):
  @tf.function
  def model_func(self, input_string):
    word_ids = self.preprocess(input_string)
    return self.bert_layer(word_ids)

  # Trivial stand-ins for the definitions the seed omits.
  def preprocess(self, input_string):
    words = tf.strings.split(input_string)
    return tf.strings.to_hash_bucket_fast(words, 1000)

  def bert_layer(self, word_ids):
    return tf.cast(word_ids, tf.float32) / 1000.0

print(LanguageModel().model_func(tf.constant("hello tpu world")))


# After: the compute-heavy bert_layer in tpu_func, the string ops stay in model_func.
class LanguageModel(tf.keras.Model):
  @tf.function
  def tpu_func(self, word_ids):
    return self.bert_layer(word_ids)

  @tf.function
  def model_func(self, input_string):
    word_ids = self.preprocess(input_string)
    return self.tpu_func(word_ids)

  # Trivial stand-ins for the definitions the seed omits.
  def preprocess(self, input_string):
    words = tf.strings.split(input_string)
    return tf.strings.to_hash_bucket_fast(words, 1000)

  def bert_layer(self, word_ids):
    return tf.cast(word_ids, tf.float32) / 1000.0

language_model = LanguageModel()
print(language_model.model_func(tf.constant("hello tpu world")))


# --- Batching tutorial ---------------------------------------------------

def my_func(A, B):
    return tf.matmul(A, B)

# Request 1: A (1, 3, 2), B (1, 2, 4); request 2: A (2, 3, 2), B (2, 2, 4).
A1, B1 = tf.ones([1, 3, 2]), tf.ones([1, 2, 4])
A2, B2 = tf.ones([2, 3, 2]), tf.ones([2, 2, 4])
print(my_func(A1, B1).shape)
print(my_func(A2, B2).shape)
# Batched along dimension 0: (3, 3, 2) x (3, 2, 4) -> (3, 3, 4).
print(my_func(tf.concat([A1, A2], axis=0), tf.concat([B1, B2], axis=0)).shape)


# --- Seed 004: eager function with tf.matmul -----------------------------

def f(x):
    a = tf.constant([[2., 0.], [0., 2.]])
    b = tf.constant(1.)
    y = tf.matmul(a, x) + b
    return y
print(f([[1, 2], [3, 4]]))
