# TF1 graph mode through tf.compat.v1: a graph built under as_default(),
# placeholders fed through feed_dict (tensors and "name:0" keys), variables
# initialized by global_variables_initializer(), fetches as nested
# structures, and TF's errors for a missing feed, a bad shape and a closed
# session.
import tensorflow.compat.v1 as tf

g = tf.Graph()
with g.as_default():
    x = tf.placeholder(tf.float32, shape=(None, 3), name="x")
    w = tf.Variable(tf.ones([3, 2]), name="w")
    b = tf.Variable([0.5, -0.5])
    y = tf.matmul(x, w) + b
    s = tf.reduce_sum(y)
    print(x)
    print(y)
    print(w)
    print(tf.executing_eagerly())
    init = tf.global_variables_initializer()
    print(init)
    print([v.name for v in tf.global_variables()])

print(tf.executing_eagerly())
with tf.Session(graph=g) as sess:
    try:
        sess.run(y, feed_dict={x: [[1, 2, 3]]})
    except tf.errors.FailedPreconditionError as e:
        print("FailedPreconditionError: uninitialized", "from Container: localhost" in str(e))
    print(sess.run(init))
    print(sess.run(y, feed_dict={x: [[1, 2, 3]]}))
    print(sess.run(y, feed_dict={x: [[1, 2, 3], [0, 0, 1]]}))
    ys, total = sess.run([y, s], feed_dict={x: [[1, 1, 1]]})
    print(ys, total)
    out = sess.run({"y": y, "pair": (s, w)}, feed_dict={"x:0": [[2, 2, 2]]})
    print(out["y"], out["pair"][0])
    print(out["pair"][1])
    print(type(total).__name__)
    try:
        sess.run(y)
    except tf.errors.InvalidArgumentError as e:
        print("InvalidArgumentError:", str(e).split("\n")[0])
    try:
        sess.run(y, feed_dict={x: [1, 2, 3]})
    except ValueError as e:
        print("ValueError:", e)
    print(sess.run(g.get_tensor_by_name("x:0"), feed_dict={x: [[7, 8, 9]]}))
try:
    sess.run(y, feed_dict={x: [[1, 2, 3]]})
except RuntimeError as e:
    print("RuntimeError:", e)

# Legacy graph mode: a graph's tensors are dict keys by identity.
h = tf.Graph()
with h.as_default():
    p = tf.placeholder(tf.int32, shape=[], name="p")
    q = p * 2
    print({p: 1, q: 2}[q])
    print(tf.get_default_graph().get_operation_by_name("p"))
    try:
        tf.get_default_graph().get_tensor_by_name("nope:0")
    except KeyError as e:
        print("KeyError:", e)
print(tf.Session(graph=h).run(q, feed_dict={p: 21}))
try:
    tf.placeholder(tf.float32)
except RuntimeError as e:
    print("RuntimeError:", e)

# The default session: Tensor.eval, Operation.run, Variable.initializer, and
# an assignment whose value is read after it.
k = tf.Graph()
with k.as_default():
    v = tf.Variable(10.0, name="v")
    inc = v.assign_add(5.0)
    twice = v * 2.0
    print(v.initializer)
    print(twice.op.name, twice.op.type, twice.graph is not None)
    try:
        twice.eval()
    except ValueError as e:
        print("ValueError:", e)
with tf.Session(graph=k) as sess:
    v.initializer.run()
    print(tf.get_default_session() is sess)
    print(twice.eval(), inc.eval(), v.eval(), sess.run(twice))
print(tf.get_default_session())
sess = tf.InteractiveSession(graph=k)
sess.run(v.initializer)
print(twice.eval())
sess.close()
try:
    tf.Session(graph=3)
except TypeError as e:
    print("TypeError:", e)
try:
    tf.Session(graph=k).run(3)
except TypeError as e:
    print("TypeError:", e)
for bad in ["p:x", "p:"]:
    try:
        h.get_tensor_by_name(bad)
    except ValueError as e:
        print("ValueError:", e)
