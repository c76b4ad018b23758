#!/usr/bin/env bash
# README command 1: set up, build, then show the main job on bundled samples:
# the AutoGraph-converted code of a seed example (as tf.autograph.to_code
# prints it), and the same file compiled to a native program and run (as
# Python + TensorFlow would print it; tf.print output included).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh
sample=samples/seeds/000_16_fizzbuzz.py
printf '# ===== agc to-code %s =====\n' "$sample"
./build/agc to-code "$sample"
printf '# ===== agc run %s =====\n' "$sample"
./build/agc run "$sample" 2>&1
printf '# ===== agc run samples/seeds/000_02_polymorphism.py =====\n'
./build/agc run samples/seeds/000_02_polymorphism.py 2>&1
