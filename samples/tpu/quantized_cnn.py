# A small convolutional network quantized as the seed quantizes its dense
# model: tpu_func is a 3x3 convolution, a 3x3 depthwise one (MobileNet's
# block) and a 3x3 convolution with stride 2, all SAME, each with its bias
# and a ReLU (ReLU6 after the depthwise one), then a dense layer; saved to $OUT with its
# representative dataset (256 samples {"x": a 1x8x8x3 uniform tensor},
# stateless so the run is reproducible) saved to $DATA. The converter turns
# the convolutions into int8 XlaConvV2s (the depthwise one grouped, a group
# per channel) and the dense layer into an XlaDotV2.
import os
import tensorflow as tf


class Cnn(tf.Module):
  def __init__(self):
    self.k1 = tf.Variable(tf.random.stateless_normal([3, 3, 3, 8], seed=[1, 2]) * 0.3)
    self.b1 = tf.Variable(tf.random.stateless_uniform([8], seed=[3, 4]) - 0.5)
    self.d = tf.Variable(tf.random.stateless_normal([3, 3, 8, 1], seed=[11, 12]) * 0.4)
    self.bd = tf.Variable(tf.random.stateless_uniform([8], seed=[13, 14]) - 0.5)
    self.k2 = tf.Variable(tf.random.stateless_normal([3, 3, 8, 16], seed=[5, 6]) * 0.2)
    self.b2 = tf.Variable(tf.random.stateless_uniform([16], seed=[7, 8]) - 0.5)
    self.w = tf.Variable(tf.random.stateless_normal([256, 4], seed=[9, 10]) * 0.1)

  @tf.function(input_signature=[tf.TensorSpec([None, 8, 8, 3], tf.float32)])
  def tpu_func(self, x):
    h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, self.k1, strides=1, padding="SAME"), self.b1))
    h = tf.nn.relu6(tf.nn.depthwise_conv2d(h, self.d, strides=[1, 1, 1, 1], padding="SAME") + self.bd)
    h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(h, self.k2, strides=2, padding="SAME"), self.b2))
    return tf.matmul(tf.reshape(h, [-1, 256]), self.w)

  @tf.function(input_signature=[tf.TensorSpec([None, 8, 8, 3], tf.float32)])
  def serve(self, x):
    return self.tpu_func(x)


model = Cnn()
tf.saved_model.save(model, os.getenv("OUT"), signatures=model.serve,
                    options=tf.saved_model.SaveOptions(function_aliases={'tpu_func': model.tpu_func}))

representative_dataset = [{"x": tf.random.stateless_uniform(shape=(1, 8, 8, 3), seed=[i, 1])}
                          for i in range(256)]
files = tf.quantization.experimental.TfRecordRepresentativeDatasetSaver(
    path_map={'serving_default': os.getenv("DATA")}
).save({'serving_default': representative_dataset})
print(files['serving_default'].tfrecord_file_path == os.getenv("DATA"))
