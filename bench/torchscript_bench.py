#!/usr/bin/env python3
"""The runtime issue's workloads in TorchScript (2 threads), with the ratio to
agc's figures from the same run, parsed from agc's benchmarks in BUILD/bench
(bench_function_call, bench_runtime, bench_fizzbuzz, bench_dynamic_rnn,
bench_kernels): the cache-hit call of a 2x2 add, the tanh while loop
(~10k iterations), fizzbuzz, dynamic_rnn, matmul 1024^3, conv2d. Each
TorchScript figure is the best of its repeats; results are checked first.
bench/run.sh runs this with a python3 that can import torch (Debian's
python3-torch).

    python3 bench/torchscript_bench.py [BUILD_DIR]
"""
import re
import subprocess
import sys
import time

import torch

torch.set_num_threads(2)


@torch.jit.script
def fizzbuzz(n: int):
    fizz = torch.tensor(0)
    buzz = torch.tensor(0)
    fb = torch.tensor(0)
    other = torch.tensor(0)
    for i in range(1, n + 1):
        t = torch.tensor(i)
        if bool(t % 15 == 0):
            fb += 1
        elif bool(t % 3 == 0):
            fizz += 1
        elif bool(t % 5 == 0):
            buzz += 1
        else:
            other += 1
    return fizz, buzz, fb, other


@torch.jit.script
def add(x, y):
    return x + y


@torch.jit.script
def tanh_loop(x, limit: float):
    n = 0
    while bool(torch.sum(x) > limit):
        x = torch.tanh(x)
        n += 1
    return x, n


@torch.jit.script
def dynamic_rnn(x, w, u, b):
    h = torch.zeros(x.shape[1], w.shape[1])
    states = []
    for t in range(x.shape[0]):
        h = torch.tanh(x[t] @ w + h @ u + b)
        states.append(h)
    return torch.stack(states)


@torch.jit.script
def matmul(a, b):
    return torch.matmul(a, b)


@torch.jit.script
def conv(x, w):
    return torch.nn.functional.conv2d(x, w)


def best_ms(f, repeats=5):
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        best = min(best, (time.perf_counter() - t0) * 1e3)
    return best


def agc_figures(build):
    """ms figures of agc's runtime, parsed from its benchmarks' output."""
    out = {}
    patterns = {
        "call": ("bench_function_call", r"Function call \(cache hit\)\s+([\d.]+) ns", 1e-6),
        "tanh_loop": ("bench_runtime", r"> 0.0613: .*\n\s+While node:\s+([\d.]+) ns/iteration", 1e-6),
        "fizzbuzz": ("bench_fizzbuzz", r"ag::Function call \(cache hit\):\s+([\d.]+) ms", 1),
        "dynamic_rnn": ("bench_dynamic_rnn", r"ag::Function call \(cache hit, 2 threads\)\n\s+best\s+([\d.]+) ms", 1),
        "matmul": ("bench_kernels", r"runtime plan \(one MatMul node\):\s+([\d.]+) ms", 1),
        "conv2d": ("bench_kernels", r"runtime plan \(one Conv2D node\):\s+([\d.]+) ms", 1),
    }
    texts = {}
    for name, (prog, pattern, scale) in patterns.items():
        if prog not in texts:
            try:
                texts[prog] = subprocess.run([f"{build}/bench/{prog}"], capture_output=True, text=True).stdout
            except OSError:
                texts[prog] = ""
        m = re.search(pattern, texts[prog])
        if m:
            out[name] = float(m.group(1)) * scale
    return out


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    counts = [int(v) for v in fizzbuzz(100000)]
    assert counts == [26667, 13334, 6666, 53333], counts
    x22, y22 = torch.rand(2, 2), torch.rand(2, 2)
    x5 = torch.full([5], 0.9)
    _, iterations = tanh_loop(x5, 0.0613)
    xs, w, u = torch.rand(100, 32, 256) * 2 - 1, (torch.rand(256, 256) * 2 - 1) / 16, (torch.rand(256, 256) * 2 - 1) / 16
    bias = (torch.rand(256) * 2 - 1) / 10
    assert dynamic_rnn(xs, w, u, bias).shape == (100, 32, 256)
    a, b = torch.rand(1024, 1024), torch.rand(1024, 1024)
    x, k = torch.rand(1, 100, 200, 200), torch.rand(100, 100, 3, 3)  # NCHW, OIHW
    calls = 100000
    # agc's figures first: PyTorch's OpenMP threads keep spinning after its
    # work, which would slow down benchmarks run beside them.
    agc_ms = agc_figures(build)

    def many_adds():
        for _ in range(calls):
            add(x22, y22)

    # (TorchScript ms per unit, unit): per call, per loop iteration, per call.
    torch_ms = {
        "call": (best_ms(many_adds) / calls, "call"),
        "tanh_loop": (best_ms(lambda: tanh_loop(x5, 0.0613)) / iterations, f"iteration ({iterations} per call)"),
        "fizzbuzz": (best_ms(lambda: fizzbuzz(100000), repeats=3), "call"),
        "dynamic_rnn": (best_ms(lambda: dynamic_rnn(xs, w, u, bias)), "call"),
        "matmul": (best_ms(lambda: matmul(a, b)), "call"),
        "conv2d": (best_ms(lambda: conv(x, k)), "call"),
    }
    print(f"TorchScript (torch {torch.__version__}, {torch.get_num_threads()} threads) against agc's runtime:")
    for name, (ms, unit) in torch_ms.items():
        scale, suffix = (1e6, "ns") if ms < 0.01 else (1, "ms")
        line = f"  {name:12s} TorchScript {ms * scale:10.1f} {suffix}/{unit}"
        if name in agc_ms:
            line += f"   agc {agc_ms[name] * scale:10.1f} {suffix}   TorchScript / agc = {ms / agc_ms[name]:.1f}x"
        print(line)


if __name__ == "__main__":
    main()
