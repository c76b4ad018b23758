# printf-style '%' formatting of str, as CPython's: flags, width and precision
# (also from *), mapping keys, every conversion, its errors; scalar tensors and
# variables convert as TF's EagerTensor does (float(), int(), str()). Expected
# output: CPython 3's and TensorFlow 2's.
import tensorflow as tf
x = 3.14159
print("%.2f and %d and %s and %r %5.1f%%" % (x, 7, "a", "b", 2.5))
print("%s" % [1, 2])
print("%(a)s-%(b)03d" % {"a": 1, "b": 2})
print("[%-6s|%6s|%06.2f|%+d|% d|%x|%#X|%o|%e|%g|%c|%c]" % ("ab", "cd", -3.14159, 5, 7, 255, 255, 8, 12345.678, 0.00001, 65, "z"))
print("%*d|%-*d|%.*f" % (5, 42, 4, 7, 2, 1.23456))
t = tf.constant(1.23456)
print("%1.6f" % t, "%d" % tf.constant(7), "%s" % t)
print("loss: %.4f" % tf.Variable(0.5))
print("hello" % [1], "hi" % {"a": 1})
for bad in [lambda: "%d %d" % (1,), lambda: "%d" % (1, 2), lambda: "%d" % "x", lambda: "%f" % "x", lambda: "%x" % 1.5, lambda: "%q" % 1, lambda: "%(a)s" % 1, lambda: "abc %" % 1, lambda: "x" % 5]:
  try:
    bad()
  except (TypeError, ValueError, KeyError) as e:
    print(type(e).__name__, e)
