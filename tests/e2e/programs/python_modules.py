# Python's math and time modules as CPython 3.11 computes them. Expected
# output: CPython's (the same file runs under /usr/bin/python3).
import math
import time
import math as m

print(math.sqrt(2), math.sqrt(16), math.exp(1), math.log(100, 10), math.log(8, 2), math.log2(1024))
print(math.log10(0.001), math.log1p(1e-10), math.expm1(1e-10), math.pow(2, 10), math.pow(2.5, -1.5))
print(math.sin(1), math.cos(1), math.tan(1), math.atan2(1, -1), math.hypot(3, 4), math.hypot(1, 2, 2))
print(math.floor(2.7), math.ceil(2.1), math.trunc(-2.7), math.floor(-0.5), math.ceil(-0.5), math.floor(7))
print(math.isnan(math.nan), math.isinf(-math.inf), math.isfinite(1e308), math.isclose(0.1 + 0.2, 0.3))
print(math.isclose(1.0, 1.1), math.isclose(1.0, 1.1, rel_tol=0.2), math.isclose(0.0, 1e-12, abs_tol=1e-9))
print(math.fsum([0.1] * 10), sum([0.1] * 10), math.fsum([1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50]))
print(math.prod([1, 2, 3, 4]), math.prod([0.5, 4], start=2), math.prod([]), math.factorial(20))
print(math.gcd(12, 18), math.gcd(), math.gcd(-4, 6, 10), math.comb(10, 3), math.comb(60, 30), math.perm(5, 2), math.perm(5))
print(math.pi, math.e, math.tau, math.inf, -math.inf, math.nan)
print(math.degrees(math.pi), math.radians(180), math.copysign(3, -0.0), math.fmod(7, -3), math.remainder(7, 3))
print(math.erf(0.5), math.erfc(0.5), math.gamma(5), math.lgamma(1), math.fabs(-3))
print(m.sqrt(9), m.asinh(1), m.acosh(2), m.atanh(0.5), m.sinh(1), m.cosh(1), m.tanh(1))
print(math.sqrt(True), math.floor(True), type(math.floor(2.5)), type(math.sqrt(4)))
f = math.sqrt
print(f(25), list(map(math.floor, [1.5, 2.5, -1.5])))

for call in [lambda: math.sqrt(-1), lambda: math.log(0), lambda: math.exp(1000), lambda: math.factorial(-1),
             lambda: math.factorial(2.0), lambda: math.sqrt("4"), lambda: math.floor(math.inf),
             lambda: math.floor(math.nan), lambda: math.isclose(1, 1, rel_tol=-1), lambda: math.pow(0, -1),
             lambda: math.fsum([math.inf, -math.inf]), lambda: math.comb(-1, 2), lambda: math.log(10, 1),
             lambda: math.gamma(0), lambda: math.acos(2), lambda: math.fmod(1, 0), lambda: time.sleep(-1)]:
    try:
        call()
    except (ValueError, TypeError, OverflowError, ZeroDivisionError) as e:
        print(type(e).__name__ + ":", e)

t0 = time.time()
p0 = time.perf_counter()
n0 = time.perf_counter_ns()
time.sleep(0.01)
print(time.perf_counter() - p0 >= 0.01, time.perf_counter_ns() - n0 >= 10000000, t0 > 1.7e9)
print(type(time.time()), type(time.time_ns()), time.monotonic() > 0, time.process_time() >= 0)


# A program's module is __main__ (a library's is named after its file:
# tests/e2e/embed), also where a function reads it.
def module_name():
    return __name__


print(__name__, module_name())
if __name__ == '__main__':
    print('the __main__ block runs')
