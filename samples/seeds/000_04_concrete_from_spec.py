import tensorflow as tf
# xfail: TF 2.3 (seed 000) retraced for a TensorSpec argument equal to a traced tensor's spec; newer TF and agc reuse the string trace, so the second 'Tracing with' line is not printed
# Seed 000 (tf.function guide, Spanish), "Obtener funciones concretas"
# (Obtaining concrete functions): get_concrete_function on a TensorSpec. The
# cells before had traced `double` for strings (the first two calls here).


@tf.function
def double(a):
  print("Tracing with", a)
  return a + a

print(double(tf.constant("a")))
double_strings = double.get_concrete_function(tf.constant("a"))

# You can also call get_concrete_function on an InputSpec
double_strings_from_inputspec = double.get_concrete_function(tf.TensorSpec(shape=[], dtype=tf.string))
print(double_strings_from_inputspec(tf.constant("c")))
