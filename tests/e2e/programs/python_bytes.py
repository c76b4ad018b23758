# Python's bytes: literals, bytes(), str.encode/bytes.decode with codec
# errors in CPython's words, indexing to ints, slicing, methods shared with
# str, and bytes as TF's .numpy() of string tensors and tf.train records.
import tensorflow as tf

b = b"hello"
print(b, len(b), type(b).__name__, isinstance(b, bytes), isinstance("x", bytes))
print(b.decode())
s = "héllo".encode()
print(s, len(s))
print(s.decode("utf-8"), str(s, "utf-8"))
print("é".encode("latin-1"), b"\xe9".decode("latin_1"))
print(bytes([65, 66]), bytes(3), bytes("abc", "ascii"), bytes())
print(b"a" + b"b", b"ab" == b"ab", b"ab" == "ab", b"a" < b"b", b"ab" >= b"b")
print(b[0], b[-1], b[1:3], b[::-1], list(b))
print(b"ell" in b, 104 in b, b"z" not in b)
print(b * 2, 2 * b)
print(b.split(b"l"), b.upper(), b.startswith(b"he"), b.replace(b"l", b"L"), b",".join([b"a", b"b"]))
print(b.hex(), {b: 1}[b"hello"], b.strip(b"ho"), b.partition(b"l"))
print(repr(b"it's"), b'\xff\x00"', b'a\tb\n')
print(f"{b}", "%s" % b, str(b), bool(b""), bool(b"x"))
for bad in [lambda: b"\xff".decode(), lambda: b"\xe2\x82".decode(), lambda: b"\xc3(".decode(),
            lambda: b"a\x80".decode("ascii"), lambda: "é".encode("ascii"), lambda: "€".encode("latin-1"),
            lambda: b.split("l"), lambda: b"x".decode("nope"), lambda: b[10], lambda: b + "s", lambda: b < "s",
            lambda: bytes([256]), lambda: bytes("x"), lambda: b",".join(["a"]), lambda: b.nope]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__ + ":", e)
print(b"\xff".decode("utf-8", "replace"), b"a\xffb".decode(errors="ignore"), "aé".encode("ascii", "replace"))

# bytes and TensorFlow
t = tf.constant([b"ab", b"\xffx"])
print(t)
print(tf.strings.length(tf.constant(b"abc")).numpy(), tf.constant(b"abc").numpy() == b"abc")
print([w.decode() for w in tf.strings.split(tf.constant("to be")).numpy()])
ex = tf.train.Example(features=tf.train.Features(feature={
    "name": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"cat", "dog".encode("utf-8")])),
}))
record = ex.SerializeToString()
print(type(record).__name__, record[:4])
parsed = tf.io.parse_single_example(record, {"name": tf.io.FixedLenFeature([2], tf.string)})
print(parsed["name"].numpy())
try:
    tf.train.BytesList(value=["dog"])
except TypeError as e:
    print("TypeError:", e)
