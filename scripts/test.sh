#!/usr/bin/env bash
# README command 2 (and CI): set up, build, and run the whole test suite: every
# `meson test` suite on the release build, then the runtime's unit tests under
# the sanitizers (scripts/sanitize.sh; AGC_SANITIZE=0 skips them).
#
# The runtime's unit tests (suite `runtime`) run once, under ASan+UBSan, rather
# than also in the release build: compiling them twice was a fifth of the
# suite's CPU time (docs/testing.md). With AGC_SANITIZE=0 they run in the
# release build. `meson test` builds only what the tests it runs need.
set -euo pipefail
cd "$(dirname "$0")/.."
AGC_BOOTSTRAP_BUILD=0 ./scripts/bootstrap.sh
# With the sanitizers, suites runtime and bench (the benchmarks' own checks)
# run in the ASan build instead: compiled there by Clang at -O0, in a third of
# the release build's -O3 time, and checked under ASan+UBSan.
skip_runtime=()
[ "${AGC_SANITIZE:-1}" != 0 ] && skip_runtime=(--no-suite runtime --no-suite bench)
meson test -C "${AGC_BUILD_DIR:-build}" --print-errorlogs --num-processes 2 "${skip_runtime[@]}" "$@"
if [ "${AGC_SANITIZE:-1}" != 0 ]; then
  ./scripts/sanitize.sh
fi
