#!/usr/bin/env bash
# README command 2 (and CI): set up, build, and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh
meson test -C build --print-errorlogs --num-processes 2 "$@"
