#!/usr/bin/env bash
# README command 1: set up, build, and print the AutoGraph-converted code of the
# bundled samples, as tf.autograph.to_code would show it.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh
for sample in samples/*.py; do
  printf '# ===== %s =====\n' "$sample"
  ./build/agc to-code "$sample"
done
