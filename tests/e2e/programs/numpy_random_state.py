# np.random.RandomState: instances with their own MT19937, bit for bit as
# NumPy's legacy RandomState draws (rand, randn, randint, random_sample,
# uniform, normal, choice, shuffle, permutation, seed), independent of each
# other and of the module functions (the global instance). Expected: NumPy
# 1.24's output (CPython 3.11).
import numpy as np

rs = np.random.RandomState(0)
print(rs.rand(3))
print(rs.randn(2, 2))
print(rs.randint(10, size=5), rs.randint(3, 9), rs.randint(0, 256, size=4, dtype=np.uint8))
print(rs.random_sample(2), rs.random(), rs.uniform(-1, 1, size=2), rs.normal(5.0, 0.1))
print(rs.standard_normal(3))
print(rs.choice(5, 3), rs.choice([10, 20, 30]), rs.choice(4, 4, replace=False), rs.choice(3, 5, p=[0.1, 0.3, 0.6]))
items = [1, 2, 3, 4, 5]
rs.shuffle(items)
print(items, rs.permutation(6), rs.permutation(np.array([[1, 2], [3, 4], [5, 6]])))

# Two instances with one seed draw the same; the module's state is apart.
np.random.seed(0)
a = np.random.RandomState(42)
b = np.random.RandomState(42)
print(a.rand(2), np.random.rand(2), b.rand(2))
a.seed(7)
print(a.randint(100, size=3), np.random.RandomState(7).randint(100, size=3))
print(np.random.RandomState([1, 2, 3]).rand(), np.random.RandomState(seed=5).randn())
print(isinstance(a, np.random.RandomState), len(np.random.RandomState().rand(4)))
try:
    np.random.RandomState(-1)
except ValueError as e:
    print("ValueError:", e)
try:
    a.randint(5, 2)
except ValueError as e:
    print("ValueError:", e)
