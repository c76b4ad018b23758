"""The expected output of the NumPy e2e programs (tests/e2e/programs/numpy_*.py).

    /usr/bin/python3 scripts/numpy_expected.py tests/e2e/programs/numpy_values.py \
        > tests/e2e/programs/numpy_values.expected

Runs the program with this machine's NumPy 1.24 (whose printing, promotion,
reductions and legacy random numbers the programs check) and, since
TensorFlow is not installed here, a stand-in `tensorflow` module for the few
tf.* calls those programs make. The stand-in follows TensorFlow 2's rules,
each stated where it is implemented: literal dtypes (float32, int32), NumPy
arrays keeping theirs, the eager conversion's compatible casts, Tensor's
str/repr around NumPy's, `.numpy()` returning a copy (a NumPy scalar for
rank 0), tf.function converting NumPy arguments, and tf.test.compute_gradient
with gradient_checker_v2's algorithm (its theoretical Jacobian by the complex
step, exact for the polynomial functions the programs differentiate). It is
an oracle for those programs only, not a TensorFlow.
"""
import builtins
import numpy as np
import runpy
import sys
import types


class DType:
    def __init__(self, name, np_type):
        self.name = name
        self.as_numpy_dtype = np_type

    def __repr__(self):
        return "tf." + self.name

    def __str__(self):
        return "<dtype: '%s'>" % self.name

    def __eq__(self, other):
        return isinstance(other, DType) and other.name == self.name

    def __hash__(self):
        return hash(self.name)

    @property
    def is_floating(self):
        return np.issubdtype(self.as_numpy_dtype, np.floating)

    @property
    def is_integer(self):
        return np.issubdtype(self.as_numpy_dtype, np.integer)


_DTYPES = {}
for _n, _t in [("float32", np.float32), ("float64", np.float64), ("int32", np.int32), ("int64", np.int64),
               ("bool", np.bool_), ("string", np.object_), ("int8", np.int8), ("uint8", np.uint8),
               ("complex128", np.complex128)]:  # complex: compute_gradient's complex step only
    _DTYPES[np.dtype(_t)] = DType(_n, _t)


def _dtype_of(arr):
    if arr.dtype.kind in "SO":
        return _DTYPES[np.dtype(np.object_)]
    return _DTYPES[arr.dtype]


def _literal_array(value):
    """TF's conversion of Python values: floats float32, ints int32 (int64 when too big), strs bytes."""
    arr = np.array(value)
    if arr.dtype == np.float64:
        return arr.astype(np.float32)
    if arr.dtype == np.int64:
        if arr.size == 0 or (arr.min() >= -2**31 and arr.max() < 2**31):
            return arr.astype(np.int32)
        return arr
    if arr.dtype.kind == "U":
        return np.array(np.vectorize(lambda s: s.encode())(arr) if arr.ndim else arr.item().encode(), dtype=object)
    return arr


def _compatible(desired, have):
    """TF's IsCompatible: integers to integers, numbers to floats."""
    d, h = np.dtype(desired), np.dtype(have)
    if d == h:
        return True
    if d.kind in "iu" and h.kind in "iu":
        return True
    return d.kind == "f" and h.kind in "iuf"


def _to_array(value, dtype=None):
    if isinstance(value, Variable):
        value = value._t
    if isinstance(value, Tensor):
        if dtype is not None and dtype != value.dtype:
            raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r"
                             % (dtype.name, value.dtype.name, value))
        return value._a
    if isinstance(value, (np.ndarray, np.generic)):
        arr = np.asarray(value)
        if dtype is not None and arr.dtype != dtype.as_numpy_dtype:
            if not _compatible(dtype.as_numpy_dtype, arr.dtype):
                raise TypeError("Cannot convert %r to EagerTensor of dtype %s" % (value, _tf_string(dtype)))
            arr = arr.astype(dtype.as_numpy_dtype)
        return arr
    arr = _literal_array(value)
    if dtype is not None and arr.dtype != dtype.as_numpy_dtype:
        arr = np.array(value, dtype=dtype.as_numpy_dtype)
    return arr


def _tf_string(dtype):
    return {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)


class TensorShape:
    def __init__(self, dims):
        self.dims = tuple(dims)

    def __str__(self):
        return str(self.dims)

    def __repr__(self):
        return "TensorShape(%s)" % list(self.dims)

    def __iter__(self):
        return iter(self.dims)

    def __len__(self):
        return len(self.dims)

    def __getitem__(self, i):
        return self.dims[i]


def _numpy_text(arr, is_repr):
    text = repr(arr[()] if arr.ndim == 0 else arr) if is_repr else str(arr)
    return "\n" + text if "\n" in text else text


class Tensor:
    """An eager tensor: a NumPy array of a TF dtype."""
    __array_priority__ = 100

    def __init__(self, arr):
        self._a = np.asarray(arr)

    dtype = property(lambda self: _dtype_of(self._a))
    shape = property(lambda self: TensorShape(self._a.shape))
    ndim = property(lambda self: self._a.ndim)

    def numpy(self):
        # A copy; a rank-0 tensor's value is a NumPy scalar (bytes for a string).
        return self._a[()] if self._a.ndim == 0 else self._a.copy()

    def __array__(self, dtype=None):
        return self._a if dtype is None else self._a.astype(dtype)

    def __str__(self):
        return "tf.Tensor(%s, shape=%s, dtype=%s)" % (_numpy_text(self._a, False), self.shape, self.dtype.name)

    def __repr__(self):
        return "<tf.Tensor: shape=%s, dtype=%s, numpy=%s>" % (self.shape, self.dtype.name, _numpy_text(self._a, True))

    def __float__(self):
        return float(self._a)

    def __int__(self):
        return int(self._a)

    def __bool__(self):
        return bool(self._a)

    def __len__(self):
        return len(self._a)

    def __getitem__(self, key):
        return Tensor(self._a[key])

    def __iter__(self):
        return (Tensor(x) for x in self._a)

    def _binary(self, other, fn, reverse=False):
        # Tensor's operators convert the other operand with this tensor's dtype.
        o = _to_array(other, self.dtype)
        x, y = (o, self._a) if reverse else (self._a, o)
        r = np.asarray(fn(x, y))
        if r.dtype.kind == "f" and self._a.dtype.kind == "f":
            r = r.astype(self._a.dtype)
        return Tensor(r)


for _name, _fn in [("add", np.add), ("sub", np.subtract), ("mul", np.multiply), ("truediv", np.true_divide),
                   ("floordiv", np.floor_divide), ("mod", np.mod), ("pow", np.power), ("matmul", np.matmul)]:
    setattr(Tensor, "__%s__" % _name, lambda self, o, f=_fn: self._binary(o, f))
    setattr(Tensor, "__r%s__" % _name, lambda self, o, f=_fn: self._binary(o, f, True))
for _name, _fn in [("lt", np.less), ("le", np.less_equal), ("gt", np.greater), ("ge", np.greater_equal),
                   ("eq", np.equal), ("ne", np.not_equal)]:
    setattr(Tensor, "__%s__" % _name, lambda self, o, f=_fn: self._binary(o, f))
Tensor.__neg__ = lambda self: Tensor(-self._a)
Tensor.__hash__ = None


class Variable:
    def __init__(self, initial_value, dtype=None):
        self._t = Tensor(_to_array(initial_value, dtype).copy())

    dtype = property(lambda self: self._t.dtype)
    shape = property(lambda self: self._t.shape)

    def numpy(self):
        return self._t.numpy()

    def assign(self, value):
        self._t = Tensor(_to_array(value, self.dtype).copy())
        return self

    def __repr__(self):
        return "<tf.Variable 'Variable:0' shape=%s dtype=%s, numpy=%s>" % (
            self.shape, self.dtype.name, _numpy_text(self._t._a, True))

    def __array__(self, dtype=None):
        return self._t.__array__(dtype)


def constant(value, dtype=None):
    return Tensor(_to_array(value, dtype).copy())


def convert_to_tensor(value, dtype=None):
    if isinstance(value, Tensor) and dtype is None:
        return value
    return Tensor(_to_array(value, dtype))


def function(fn):
    # tf.function converts NumPy arguments to tensors (_convert_numpy_inputs).
    def call(*args):
        return fn(*[Tensor(np.asarray(a)) if isinstance(a, (np.ndarray, np.generic)) else a for a in args])
    return call


def _elementwise(np_fn):
    return lambda x: Tensor(np_fn(_to_array(x)))


def zeros(shape, dtype=None):
    return Tensor(np.zeros(np.asarray(shape), dtype=(dtype or _DTYPES[np.dtype(np.float32)]).as_numpy_dtype))


def reshape(x, shape):
    return Tensor(_to_array(x).reshape(np.asarray(shape)))


def range_(n):
    return Tensor(np.arange(n, dtype=np.int32))


def matmul(a, b):
    return Tensor(np.matmul(_to_array(a), _to_array(b, convert_to_tensor(a).dtype)))


def reduce_sum(x, axis=None):
    a = _to_array(x)
    return Tensor(np.sum(a, axis=axis).astype(a.dtype))


def _compute_gradient(f, x, delta=None):
    """gradient_checker_v2.compute_gradient: per argument, the theoretical
    Jacobian (here by the complex step: f's derivative along each input
    element, exact for polynomials) and the numeric one by central differences
    of float32/float64 evaluations, as TF computes it."""
    if not isinstance(x, (list, tuple)):
        raise ValueError("`x` must be a list or tuple of values convertible to a Tensor (arguments to `f`), "
                         "not a %s" % type(x))
    if delta is None:
        delta = 1.0 / 1024
    xs = [_to_array(v) for v in x]
    y = _to_array(f(*[Tensor(v) for v in xs]))
    theoretical, numeric = [], []
    for param, xp in enumerate(xs):
        jt = np.zeros((y.size, xp.size), dtype=xp.dtype)
        jn = np.zeros((y.size, xp.size), dtype=xp.dtype)
        for col in range(xp.size):
            h = 1e-20
            args = [v.astype(np.complex128) for v in xs]
            args[param].ravel()[col] += 1j * h
            jt[:, col] = (np.imag(_to_array(f(*[Tensor(v) for v in args]))) / h).ravel()
            xv = [v.copy() for v in xs]
            flat = xv[param].ravel()
            original = flat[col]
            flat[col] += delta
            y_pos = _to_array(f(*[Tensor(v) for v in xv]))
            flat[col] = original
            flat[col] -= delta
            y_neg = _to_array(f(*[Tensor(v) for v in xv]))
            scale = np.asarray(2 * delta, dtype=y.dtype)[()]
            jn[:, col] = ((y_pos - y_neg) / scale).ravel()
        theoretical.append(jt)
        numeric.append(jn)
    return tuple(theoretical), tuple(numeric)


tf = types.ModuleType("tensorflow")
tf.Tensor = Tensor
tf.Variable = Variable
tf.constant = constant
tf.convert_to_tensor = convert_to_tensor
tf.function = function
tf.reduce_sum = reduce_sum
tf.zeros = zeros
tf.reshape = reshape
tf.range = range_
tf.matmul = matmul
tf.square = _elementwise(np.square)
tf.test = types.SimpleNamespace(compute_gradient=_compute_gradient)
for _d in _DTYPES.values():
    setattr(tf, _d.name, _d)
sys.modules["tensorflow"] = tf

if __name__ == "__main__":
    sys.argv = sys.argv[1:]
    runpy.run_path(sys.argv[0], run_name="__main__")
