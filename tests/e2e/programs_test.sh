#!/usr/bin/env bash
# Python programs end to end: every tests/e2e/programs/NAME.py is run with
# `agc run NAME.py 2>&1` (its generated C++ compiled with -Wall -Wextra
# -Werror at -O0) and what it prints must be exactly NAME.expected: Python's
# or TensorFlow's output for the same program, as each file's header says.
#
# usage: programs_test.sh AGC SOURCE_ROOT CACHE_DIR [SHARD COUNT]
# With SHARD and COUNT, only the programs whose index (in name order) is
# SHARD modulo COUNT: meson runs the shards side by side.
set -u
SHARD=${4:-0}
COUNT=${5:-1}
AGC=$(realpath "$1")
DIR=$(realpath "$2")/tests/e2e/programs
export AGC_CACHE_DIR=$(realpath -m "$3")
export AGC_CXXFLAGS="-O0 -Wall -Wextra -Werror"
mkdir -p "$AGC_CACHE_DIR"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

failed=0
index=0
for py in "$DIR"/*.py; do
  index=$((index + 1))
  [ $(((index - 1) % COUNT)) -eq "$SHARD" ] || continue
  name=$(basename "${py%.py}")
  (cd "$DIR" && timeout 600 "$AGC" run "$name.py") >"$TMP/got" 2>&1
  status=$?
  if [ "$status" -eq 0 ] && cmp -s "$DIR/$name.expected" "$TMP/got"; then
    echo "PASS $name"
  else
    echo "FAIL $name (exit status $status)"
    diff -u --label "$name.expected" --label "agc run $name.py 2>&1" "$DIR/$name.expected" "$TMP/got" | head -n 100
    failed=$((failed + 1))
  fi
done
[ "$failed" -eq 0 ]
