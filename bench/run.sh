#!/bin/sh
# Builds agc's benchmarks and runs every one of them, one at a time, printing
# their output. Usage: bench/run.sh [BUILD_DIR]   (default: build)
# Figures are only meaningful from a release build on an otherwise idle machine.
set -eu

cd "$(dirname "$0")/.."
build=${1:-build}

if [ ! -d "$build" ]; then
  meson setup "$build" --buildtype=release
fi
# Benchmarks are not built by default (bench/meson.build): name them.
meson compile -C "$build" bench_transpile bench_runtime bench_function_call bench_kernels bench_fizzbuzz \
  bench_dynamic_rnn bench_train_steps bench_handwritten_steps

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
# --benchmark runs only benchmark() entries; -v prints their output.
meson test -C "$build" --benchmark --verbose --num-processes 1

# The same workloads in TorchScript, when PyTorch is there to run them: the
# first python3 that can import torch (the one on PATH may be another Python
# than Debian's, which python3-torch installs into).
torch_python=
for py in python3 /usr/bin/python3; do
  if "$py" -c "import torch" 2>/dev/null; then
    torch_python=$py
    break
  fi
done
if [ -n "$torch_python" ]; then
  "$torch_python" bench/torchscript_bench.py "$build"
  "$torch_python" bench/training/torch_train_steps.py "$build"
  "$torch_python" bench/training/rnn_memory.py "$build"
else
  echo "torchscript: skipped (python3 cannot import torch; install python3-torch to compare)"
fi
