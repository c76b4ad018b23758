# Python's builtins between numbers and text (chr, ord, hex, oct, bin, format)
# with their errors. Expected output: CPython 3's.
# The last line prints TF dtypes (tf.DType: str "<dtype: ...>", repr "tf.float32").
import tensorflow as tf
print(chr(65), chr(233), chr(0x1F600), ord("a"), ord("é"), ord(chr(0x1F600)))
print(hex(255), hex(-255), oct(8), bin(5), bin(-5), hex(0), bin(True))
print(format(3.14159, ".2f"), format(42), format(42, ">5"), format("x", "^3"))
for bad in [lambda: chr(-1), lambda: chr(1.5), lambda: ord("ab"), lambda: ord(5), lambda: hex(1.5), lambda: format(1, 2)]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)

# How types, builtins and dtypes print (Python's and TF's __repr__/__str__).
print(type(ValueError), ValueError, type(3), int, str, float, list)
print(len, print)
print(tf.float32, repr(tf.float32), [tf.float32, tf.int32], {"d": tf.string})
