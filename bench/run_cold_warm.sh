#!/usr/bin/env bash
# `agc run` of a 1,000-line program, cold (empty program cache) and warm
# (cached), at the default optimization and at -O0. The program is ten
# realistic programs of the repository run back to back in one file (a data
# pipeline feeding a model, a top-k sampling loop, NumPy k-means, the
# training samples, optimizers, functional control flow, tf.data transforms).
#
# usage: bench/run_cold_warm.sh BUILD_DIR
set -eu
BUILD=$(realpath "${1:-build}")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$ROOT"
cat tests/e2e/programs/data_pipeline_training.py tests/e2e/programs/text_generation_top_k.py \
    tests/e2e/programs/numpy_interop_kmeans.py samples/training/linear_regression.py \
    samples/training/mlp_classifier.py samples/training/rnn.py tests/e2e/programs/training_loops.py \
    tests/e2e/programs/optimizers.py tests/e2e/programs/tf_functional_control_flow.py \
    tests/e2e/programs/data_transforms.py > "$WORK/program.py"
echo "program: $(wc -l < "$WORK/program.py") lines"
measure() {  # label, extra environment
  local label=$1; shift
  rm -rf "$WORK/cache"
  local t0 t1 t2
  t0=$(date +%s.%N)
  env AGC_CACHE_DIR="$WORK/cache" "$@" "$BUILD/agc" run "$WORK/program.py" > "$WORK/out" 2>&1
  t1=$(date +%s.%N)
  env AGC_CACHE_DIR="$WORK/cache" "$@" "$BUILD/agc" run "$WORK/program.py" > /dev/null 2>&1
  t2=$(date +%s.%N)
  printf '%-12s cold %6.2f s   warm %5.2f s\n' "$label" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)"
}
measure "default -O2"
measure "-O0" AGC_CXXFLAGS=-O0
