import tensorflow as tf
# Seed 001 (tf.function guide, Korean), "알려진 문제" > "Python 전역 및 자유
# 변수에 의존" (Known issues > Depending on Python global and free
# variables): a global tf.Variable updated with assign() is seen by the trace.


@tf.function
def variable_add():
  return 1 + foo

foo = tf.Variable(1)
print("Variable:", variable_add())

print("Updating the value of `foo` to 100!")
foo.assign(100)
print("Variable:", variable_add())
