#!/usr/bin/python3
"""Transpile time and peak memory on inputs that are large in one direction.

Generates five shapes, each a single function grown to N of one construct:

  and-chain    return x > 0 and x > 1 and ... (one BoolOp of N operands)
  or-chain     the same with `or`
  elif-chain   if x == 0: ... elif x == 1: ... (N branches, nested N deep in the AST)
  assignments  N assignments to distinct names in one function
  loops        N `for` loops over range(x) in one function

and runs `agc to-code` and `agc emit-cpp` on each under /usr/bin/time, printing
wall seconds, CPU seconds (user + system: less sensitive than wall time to
other work on the machine) and peak RSS, the best of --repeat runs. A run that
exceeds --timeout is reported as such. Each run's exit status and the first
line of its diagnostics are printed too, since a shape agc refuses (as CPython
does) is fast for a different reason.

  bench/transpile_large_inputs.py [--agc build/agc] [--sizes 1000,10000,100000]
                                  [--shapes and-chain,...] [--timeout 120] [--repeat 1]
"""

import argparse
import os
import subprocess
import sys
import tempfile


def and_chain(n, op="and"):
    body = f" {op}\n            ".join(f"x > {k}" for k in range(n))
    return ("import tensorflow as tf\n\n\n@tf.function\ndef f(x):\n"
            f"    return (\n            {body})\n")


def or_chain(n):
    return and_chain(n, "or")


def elif_chain(n):
    lines = ["import tensorflow as tf", "", "", "@tf.function", "def f(x):"]
    for k in range(n):
        lines.append(f"    {'if' if k == 0 else 'elif'} x == {k}:")
        lines.append(f"        y = x + {k}")
    lines += ["    else:", "        y = x", "    return y", ""]
    return "\n".join(lines)


def assignments(n):
    lines = ["import tensorflow as tf", "", "", "@tf.function", "def f(x):", "    a0 = x + 1"]
    lines += [f"    a{k} = a{k - 1} * 2 + x" for k in range(1, n)]
    lines += [f"    return a{n - 1}", ""]
    return "\n".join(lines)


def loops(n):
    lines = ["import tensorflow as tf", "", "", "@tf.function", "def f(x):", "    s = 0"]
    for k in range(n):
        lines.append(f"    for i{k} in range(x):")
        lines.append(f"        s = s + i{k}")
    lines += ["    return s", ""]
    return "\n".join(lines)


SHAPES = {
    "and-chain": and_chain,
    "or-chain": or_chain,
    "elif-chain": elif_chain,
    "assignments": assignments,
    "loops": loops,
}


def measure(cmd, timeout):
    """(wall s, cpu s, peak MB, exit status, first diagnostic line) of cmd under /usr/bin/time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf, \
            tempfile.NamedTemporaryFile("w+", suffix=".err") as err:
        full = ["/usr/bin/time", "-o", tf.name, "-f", "%e %U %S %M"] + cmd
        try:
            p = subprocess.run(full, stdout=subprocess.DEVNULL, stderr=err, timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, None, None, "timeout", ""
        fields = tf.read().split()
        err.seek(0)
        diag = next((l.strip() for l in err.read().splitlines() if ": error: " in l or ": warning: " in l), "")
        diag = diag.split(": ", 1)[-1]  # without the file name
        return (float(fields[-4]), float(fields[-3]) + float(fields[-2]), int(fields[-1]) / 1024, p.returncode,
                diag)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agc", default="build/agc")
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--repeat", type=int, default=1, help="runs per measurement; the best is printed")
    ap.add_argument("--keep", help="write the generated files into this directory")
    args = ap.parse_args()
    agc = os.path.abspath(args.agc)
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"nproc {os.cpu_count()}, load average {os.getloadavg()[0]:.2f}")
    print(f"{'shape':<12} {'N':>7} {'command':<9} {'wall s':>7} {'cpu s':>7} {'peak MB':>8}  exit  diagnostic")
    with tempfile.TemporaryDirectory() as tmp:
        out_dir = args.keep or tmp
        os.makedirs(out_dir, exist_ok=True)
        for shape in args.shapes.split(","):
            for n in sizes:
                src = os.path.join(out_dir, f"{shape.replace('-', '_')}_{n}.py")
                with open(src, "w") as f:
                    f.write(SHAPES[shape](n))
                for name, cmd in (("to-code", [agc, "to-code", src]),
                                  ("emit-cpp", [agc, "emit-cpp", src, "-o", os.path.join(tmp, "cpp")])):
                    runs = [measure(cmd, args.timeout) for _ in range(max(1, args.repeat))]
                    done = [r for r in runs if r[0] is not None]
                    if not done:
                        print(f"{shape:<12} {n:>7} {name:<9} {'>' + str(int(args.timeout)):>7} {'-':>7} {'-':>8}  timeout")
                    else:
                        wall, cpu, mb, rc, diag = min(done)
                        cpu = min(r[1] for r in done)
                        mb = min(r[2] for r in done)
                        print(f"{shape:<12} {n:>7} {name:<9} {wall:>7.2f} {cpu:>7.2f} {mb:>8.0f}  {rc:>4}  {diag[:70]}")
                    sys.stdout.flush()


if __name__ == "__main__":
    main()
