# np.unique as NumPy 1.24 computes and prints it: the flattened sorted unique
# values, then return_index (first occurrences), return_inverse and
# return_counts in NumPy's order; NaNs as one value (equal_nan=True) or not;
# bool, int, float and bytes arrays; empty input. Expected: NumPy 1.24's
# output (CPython 3.11).
import numpy as np

print(np.unique([3, 1, 2, 3, 1]), np.unique(np.array([[1, 1], [2, 3]])))
u, idx = np.unique([5, 2, 5, 7, 2], return_index=True)
print(u, idx, idx.dtype)
u, inv = np.unique([5, 2, 5, 7, 2], return_inverse=True)
print(u, inv, u[inv])
u, cnt = np.unique([b"b", b"a", b"b", b"c"], return_counts=True)
print(u, cnt)
res = np.unique([2.5, -1.0, 2.5, 0.0], return_index=True, return_inverse=True, return_counts=True)
print(type(res).__name__, len(res))
for r in res:
    print(repr(r))
print(np.unique([1.0, np.nan, 2.0, np.nan]), np.unique([1.0, np.nan, np.nan], equal_nan=False))
print(np.unique([np.nan, 1.0, np.nan], return_index=True, return_counts=True))
print(repr(np.unique(np.array([True, False, True]))), repr(np.unique(np.array([3, 3], dtype=np.int32))))
print(repr(np.unique(np.array([0.5, 0.25, 0.5], dtype=np.float32))))
print(np.unique(np.array([b"x", b"ab", b"x"])), np.unique([b"b", b"a"], return_inverse=True)[1])
print(repr(np.unique([])), np.unique([], return_counts=True))
print(repr(np.unique(np.array(7))), np.unique(np.array([[4, 4, 1]]), return_inverse=True)[1].shape)
try:
    np.unique([1, 2], return_index=True, bogus=1)
except TypeError as e:
    print("TypeError:", e)
