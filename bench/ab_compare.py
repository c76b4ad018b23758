#!/usr/bin/env python3
# Same-run A/B of the runtime bench workloads: a baseline build against a new
# build, alternated round by round, medians of the per-run figures and of the
# paired ratios. Usage: bench/ab_compare.py BASE_BUILD NEW_BUILD ROUNDS
# (ONLY=call,tanh picks workloads by name).
import re, subprocess, sys, statistics
base, new, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
def run(build, args):
    return subprocess.run([f'{build}/bench/{args[0]}'] + args[1:], capture_output=True, text=True, timeout=900).stdout
W = {
 'call (ns)':        (['bench_function_call'], r'Function call \(cache hit\)\s+([\d.]+) ns'),
 'tanh While (ns/it)':(['bench_runtime'], r'9968 iterations per call\n\s+While node:\s+([\d.]+) ns'),
 'fizzbuzz (ms)':    (['bench_fizzbuzz', '--only', 'function'], r'cache hit\):\s+([\d.]+) ms'),
 'dynamic_rnn (ms)': (['bench_dynamic_rnn', '--only', 'runtime'], r'best of \d+ calls ([\d.]+) ms'),
 'matmul 1024 (ms)': (['bench_kernels'], r'runtime plan \(one MatMul node\):\s+([\d.]+) ms'),
 'conv2d (ms)':      (['bench_kernels'], r'runtime plan \(one Conv2D node\):\s+([\d.]+) ms'),
}
import os
only=os.environ.get('ONLY')
if only: W={k:v for k,v in W.items() if any(o in k for o in only.split(','))}
res = {k: ([], []) for k in W}
cache = {}
for r in range(rounds):
    for side, build in ((0, base), (1, new)) if r % 2 == 0 else ((1, new), (0, base)):
        outs = {}
        for k, (args, pat) in W.items():
            key = tuple(args)
            if key not in outs: outs[key] = run(build, args)
            m = re.search(pat, outs[key])
            if m: res[k][side].append(float(m.group(1)))
            else: print('no match', k, build, file=sys.stderr)
for k, (a, b) in res.items():
    ma, mb = statistics.median(a), statistics.median(b)
    ratios = [y / x for x, y in zip(a, b)]
    print(f'{k:22s} before {ma:9.2f}  after {mb:9.2f}  after/before {mb/ma:6.3f}  (median of paired ratios {statistics.median(ratios):6.3f}, n={len(a)})')
