#!/usr/bin/env bash
# End-to-end checks of the agc binary: usage, exit codes, hostile inputs.
# usage: cli_test.sh AGC SOURCE_ROOT
set -u
AGC=$1
ROOT=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect STATUS CMD...: runs CMD, checks its exit status, keeps stdout/stderr.
expect() {
  local want=$1; shift
  "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "exit $got, wanted $want: $* ($(head -c 300 "$TMP/err"))"
}

expect 0 "$AGC" --help
grep -q "to-code" "$TMP/out" || fail "--help does not list to-code"
expect 2 "$AGC"
expect 2 "$AGC" frobnicate
expect 0 "$AGC" to-code --help
for opt in --function --autograph-compat --optional-features --dump-after; do
  grep -q -- "$opt" "$TMP/out" || fail "to-code --help does not document $opt"
done
expect 2 "$AGC" to-code
expect 2 "$AGC" to-code --bogus x.py
expect 1 "$AGC" to-code "$TMP/missing.py"
grep -q "cannot read" "$TMP/err" || fail "missing file message"
expect 1 "$AGC" to-code "$TMP"
grep -q "is a directory" "$TMP/err" || fail "directory message"

echo ok
exit $((failures > 0))
