# np.bincount, np.argsort and np.diff as NumPy 1.24 computes and prints
# them, with their errors. Expected: NumPy 1.24's output (CPython 3.11).
import numpy as np

print(np.bincount([0, 1, 1, 3]), np.bincount([], minlength=3), np.bincount([1, 2], minlength=4))
print(np.bincount(np.array([2, 0, 2], dtype=np.int32)), np.bincount(np.array([True, False, True])))
print(np.bincount([1, 1, 2], weights=[0.5, 1, 2]), np.bincount([0, 2], weights=np.array([1, 2], np.float32)).dtype)
print(repr(np.bincount(np.arange(4) % 2)))

print(np.argsort([3, 1, 2]), np.argsort([2.0, np.nan, 1.0, -np.inf]), np.argsort(np.array(5)))
print(np.argsort([[3, 1, 2], [0, 5, 4]]))
print(np.argsort([[3, 1, 2], [0, 5, 4]], axis=0))
print(np.argsort([[3, 1], [0, 2]], axis=None), np.argsort([1, 0, 1, 0, 1], kind="stable"))
a = np.array([0.5, -1.0, 2.0], dtype=np.float32)
order = np.argsort(a)
print(order, a[order], order.dtype, np.argsort(order))

print(np.diff([1, 4, 9, 16]), np.diff([1, 4, 9, 16], n=2), np.diff([1, 2], n=0))
print(np.diff(np.array([1.5, 0.5, 4.0], np.float32)), np.diff([True, False, False]))
print(np.diff([[1, 4, 9], [2, 2, 8]]))
print(np.diff([[1, 4, 9], [2, 2, 8]], axis=0), np.diff([5]))

for bad in [lambda: np.bincount([[1]]), lambda: np.bincount([-1]), lambda: np.bincount(3),
            lambda: np.bincount([1], minlength=-1), lambda: np.bincount([1, 2], weights=[1]),
            lambda: np.bincount(np.array([1.0])), lambda: np.argsort(np.zeros((2, 2)), axis=2),
            lambda: np.diff(np.array(3)), lambda: np.diff([1, 2], n=-1), lambda: np.diff([1, 2], axis=1)]:
  try:
    bad()
  except (ValueError, TypeError) as e:
    print(type(e).__name__ if type(e).__name__ != "AxisError" else "ValueError", e)
