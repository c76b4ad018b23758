import tensorflow as tf
# Seed 001 (tf.function guide, Korean), "알려진 문제" > "Python 전역 및 자유
# 변수에 의존" (Known issues > Depending on Python global and free
# variables): a Function keeps the value a global had when it was traced.


@tf.function
def buggy_add():
  return 1 + foo

@tf.function
def recommended_add(foo):
  return 1 + foo

foo = 1
print("Buggy:", buggy_add())
print("Correct:", recommended_add(foo))

print("Updating the value of `foo` to 100!")
foo = 100
print("Buggy:", buggy_add())  # Did not change!
print("Correct:", recommended_add(foo))
