"""TensorFlow's gamma and Poisson samples, computed independently of agc.

Written from TF's kernels (core/kernels/random_op.cc RandomGammaOp,
random_poisson_op.cc PoissonFunctor, stateless_random_gamma_op.cc,
stateless_random_ops.cc GenerateKey, core/lib/random/philox_random.h and
random_distributions.h) and the Philox paper (Salmon et al. 2011). The sample
lines of tests/e2e/programs/random_gamma_poisson.expected come from here; the
libm functions are called through ctypes, as TF's kernels call them (so the
numbers agree to the bit on the machine that runs both). Run with any Python 3:
    python3 tests/e2e/reference/tf_gamma_poisson.py
"""
import ctypes
import math
import struct

M32 = 0xFFFFFFFF
DEFAULT_GRAPH_SEED = 87654321

_libm = ctypes.CDLL("libm.so.6")
for _name in ("log", "log1p", "exp", "pow", "lgamma", "sqrt", "floor"):
    _f = getattr(_libm, _name)
    _f.restype = ctypes.c_double
    _f.argtypes = [ctypes.c_double] * (2 if _name == "pow" else 1)
_libm.sincos.restype = None
_libm.sincos.argtypes = [ctypes.c_double, ctypes.POINTER(ctypes.c_double), ctypes.POINTER(ctypes.c_double)]
log, log1p, exp, cpow, lgamma, sqrt = _libm.log, _libm.log1p, _libm.exp, _libm.pow, _libm.lgamma, _libm.sqrt


def sincos(x):
    s, c = ctypes.c_double(), ctypes.c_double()
    _libm.sincos(x, ctypes.byref(s), ctypes.byref(c))
    return s.value, c.value


def f32(x):
    """x rounded to float32 (static_cast<float>(double)), as a Python float."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def philox_4x32_10(counter, key):
    c, k = list(counter), list(key)
    for r in range(10):
        if r:
            k = [(k[0] + 0x9E3779B9) & M32, (k[1] + 0xBB67AE85) & M32]
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [((p1 >> 32) ^ c[1] ^ k[0]) & M32, p1 & M32, ((p0 >> 32) ^ c[3] ^ k[1]) & M32, p0 & M32]
    return c


class Philox:
    """PhiloxRandom: a 128-bit block counter under a 64-bit key."""

    def __init__(self, counter, key):
        self.counter = counter[0] | counter[1] << 32 | counter[2] << 64 | counter[3] << 96
        self.key = list(key)

    @staticmethod
    def seeded(seed, seed2):
        return Philox([0, 0, seed2 & M32, (seed2 >> 32) & M32], [seed & M32, (seed >> 32) & M32])

    @staticmethod
    def stateless(s0, s1):
        """GenerateKey: the seed pair mixed by one block under a fixed key."""
        s0, s1 = s0 & (2**64 - 1), s1 & (2**64 - 1)
        mix = philox_4x32_10([s0 & M32, s0 >> 32, s1 & M32, s1 >> 32], [0x3EC8F720, 0x02461E29])
        return Philox([0, 0, mix[2], mix[3]], [mix[0], mix[1]])

    def copy(self):
        p = Philox([0, 0, 0, 0], self.key)
        p.counter = self.counter
        return p

    def skip(self, n):
        self.counter = (self.counter + n) % 2**128

    def next(self):
        c = [(self.counter >> s) & M32 for s in (0, 32, 64, 96)]
        self.skip(1)
        return philox_4x32_10(c, self.key)


def uint64_to_double(x0, x1):
    bits = (1023 << 52) | ((x0 & 0xFFFFF) << 32) | x1
    return struct.unpack("<d", struct.pack("<Q", bits))[0] - 1.0


def box_muller_double(x0, x1, x2, x3):
    u1 = uint64_to_double(x0, x1)
    if u1 < 1.0e-7:
        u1 = 1.0e-7
    v1 = 2 * math.pi * uint64_to_double(x2, x3)
    u2 = sqrt(-2.0 * log(u1))
    s, c = sincos(v1)
    return s * u2, c * u2


class Buffer:
    """RandomSampleBuffer / the UNIFORM macro: 2 doubles a block, last first."""

    def __init__(self, normal):
        self.normal, self.values = normal, []

    def __call__(self, gen):
        if not self.values:
            b = gen.next()
            if self.normal:
                self.values = list(box_muller_double(*b))
            else:
                self.values = [uint64_to_double(b[0], b[1]), uint64_to_double(b[2], b[3])]
        return self.values.pop()


def gamma_sample(gen, alpha):
    uniform = Buffer(False)
    if alpha == 1.0:
        return -log1p(-uniform(gen))
    boost = alpha < 1
    d = alpha + (2.0 / 3 if boost else -1.0 / 3)
    c = 1.0 / 3 / sqrt(d)
    normal = Buffer(True)
    while True:
        x = normal(gen)
        v = 1 + c * x
        if v <= 0:
            continue
        v = v * v * v
        u = uniform(gen)
        if (u < 1 - 0.0331 * (x * x) * (x * x)) or (log(u) < 0.5 * x * x + d * (1 - v + log(v))):
            res = d * v
            if boost:
                res *= cpow(uniform(gen), 1 / alpha)
            return res


def poisson_sample(gen, rate, highest):
    uniform = Buffer(False)
    if rate < 10:
        exp_neg_rate = exp(-rate)
        prod, x = 1.0, 0.0
        while True:
            prod = prod * uniform(gen)
            if prod <= exp_neg_rate and x <= highest:
                return x
            x += 1
    log_rate = log(rate)
    b = 0.931 + 2.53 * sqrt(rate)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    while True:
        u = uniform(gen) - 0.5
        v = uniform(gen)
        u_shifted = 0.5 - abs(u)
        k = math.floor((2 * a / u_shifted + b) * u + rate + 0.43)
        if k > highest:
            continue
        if u_shifted >= 0.07 and v <= 0.9277 - 3.6224 / (b - 2):
            return float(k)
        if k < 0 or (u_shifted < 0.013 and v > u_shifted):
            continue
        s = log(v * inv_alpha / (a / (u_shifted * u_shifted) + b))
        t = -rate + k * log_rate - lgamma(k + 1)
        if s <= t:
            return float(k)


def fill(base, params, per_param, sample):
    """Sample j of parameter i at flat j * len(params) + i; output k = i * per_param + j
    starts 256 blocks * k into the generator."""
    out = [0.0] * (len(params) * per_param)
    for i, p in enumerate(params):
        for j in range(per_param):
            gen = base.copy()
            gen.skip(256 * (i * per_param + j))
            out[j * len(params) + i] = sample(gen, p)
    return out


class Seeded:
    """A seeded op's kernel: each call starts where the last one's reservation ended."""

    def __init__(self, seed, seed2):
        self.gen = Philox.seeded(seed, seed2)

    def reserve(self, outputs):
        g = self.gen.copy()
        self.gen.skip(256 * outputs)
        return g


FLT_TINY = 2.0 ** -126
DBL_TINY = 2.0 ** -1022
FLT_MAX = 3.4028234663852886e38
INT32_MAX = 2.0 ** 31 - 1
INT64_MAX = float(2 ** 63 - 1)


def gamma32(gen, shape_n, alphas, betas=None):
    """tf.random.gamma in float32: alphas as float32, samples rounded, / beta, max(tiny)."""
    alphas = [f32(a) for a in alphas]
    raw = [f32(v) for v in fill(gen, alphas, shape_n, gamma_sample)]
    betas = betas or [1.0] * len(alphas)
    return [max(FLT_TINY, f32(v / f32(betas[k % len(alphas)]))) for k, v in enumerate(raw)]


def regularized_gamma_p(a, x):
    """P(a, x) by its series (x small) or Legendre's continued fraction."""
    if x <= 0:
        return 0.0
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(1000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-17:
                break
        return total * math.exp(-x + a * math.log(x) - math.lgamma(a))
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-17:
            break
    return 1 - math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def sample_der_alpha(a, x):
    """d x / d a at fixed P(a, x): -(dP/da) / (dP/dx), dP/da by central differences."""
    h = 1e-6 * max(1.0, a)
    dp_da = (regularized_gamma_p(a + h, x) - regularized_gamma_p(a - h, x)) / (2 * h)
    dp_dx = math.exp((a - 1) * math.log(x) - x - math.lgamma(a))
    return -dp_da / dp_dx


def main():
    seed = 1234  # tf.random.set_seed(1234); every call below passes an op seed

    k = Seeded(seed, 7)
    print(gamma32(k.reserve(9), 3, [0.5, 1.0, 2.5]))
    print(gamma32(k.reserve(9), 3, [0.5, 1.0, 2.5]))

    # float64, alpha 3 broadcast with beta [1, 2] (shape [2, 2, 2]).
    k = Seeded(seed, 11)
    raw = fill(k.reserve(8), [3.0, 3.0], 4, gamma_sample)
    print([max(DBL_TINY, v / [1.0, 2.0][i % 2]) for i, v in enumerate(raw)])

    # Poisson float32 over Knuth (0.5, 3) and Hormann (12.2, 150) rates given as float64.
    k = Seeded(seed, 5)
    print([f32(v) for v in fill(k.reserve(16), [0.5, 3.0, 12.2, 150.0], 4, lambda g, r: poisson_sample(g, r, FLT_MAX))])
    k = Seeded(seed, 3)
    print([int(v) for v in fill(k.reserve(5), [7.5], 5, lambda g, r: poisson_sample(g, r, INT32_MAX))])
    k = Seeded(seed, 9)
    print([int(v) for v in fill(k.reserve(4), [30.0, 2.0], 2, lambda g, r: poisson_sample(g, r, INT64_MAX))])

    # No global seed: (DEFAULT_GRAPH_SEED, op seed).
    k = Seeded(DEFAULT_GRAPH_SEED, 21)
    print(gamma32(k.reserve(4), 4, [4.0]))

    # Stateless: shape [4, 2] with alpha [0.5, 1.5]; Poisson [3, 2] with lam [5, 15] (float32).
    print(gamma32(Philox.stateless(12, 34), 4, [0.5, 1.5]))
    print([int(v) for v in fill(Philox.stateless(12, 34), [5.0, 15.0], 3, lambda g, r: poisson_sample(g, r, INT32_MAX))])

    # The gradient of sum(gamma([6], [2, 0.7], seed=13)) in alpha: sum over the samples of d x / d alpha.
    k = Seeded(seed, 13)
    alphas = [2.0, f32(0.7)]
    samples = gamma32(k.reserve(12), 6, alphas)
    grads = [sum(sample_der_alpha(alphas[i], samples[j * 2 + i]) for j in range(6)) for i in range(2)]
    print([round(g, 3) for g in grads])

    # Means of 20000 samples each (to one decimal, so the order TF sums in does not matter).
    k = Seeded(seed, 1)
    big = gamma32(k.reserve(60000), 20000, [0.3, 1.0, 7.0])
    print([round(sum(big[i::3]) / 20000, 1) for i in range(3)])
    k = Seeded(seed, 2)
    pb = fill(k.reserve(40000), [2.0, 40.0], 20000, lambda g, r: poisson_sample(g, r, FLT_MAX))
    print([round(sum(pb[i::2]) / 20000, 1) for i in range(2)])


if __name__ == "__main__":
    main()
