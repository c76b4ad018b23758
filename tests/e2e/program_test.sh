#!/usr/bin/env bash
# The generated program's main (runtime/api/program.h) in a real process,
# through tests/e2e/handwritten/boom.cpp (a module written by hand in the
# emitter's shape): exit statuses, the Python traceback on stderr, output
# order under 2>&1, FUNC calls with --results lines and printed outcomes.
# usage: program_test.sh SOURCE_ROOT LIBAGRT
set -u
ROOT=$1
LIB=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect() {
  local want=$1; shift
  "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "exit $got, wanted $want: $* ($(head -c 600 "$TMP/err"))"
}
same() {
  printf "$2" >"$TMP/want"
  cmp -s "$1" "$TMP/want" || fail "$3: got [$(cat "$1")], wanted [$(cat "$TMP/want")]"
}

${CXX:-c++} -O0 -std=c++20 -I"$ROOT" -I"$ROOT/runtime/include" -o "$TMP/boom" "$ROOT/tests/e2e/handwritten/boom.cpp" "$LIB" -lprotobuf -lleveldb -lre2 $(pkg-config --libs hdf5) -pthread \
  || { echo "FAIL: boom.cpp does not compile"; exit 1; }

expect 1 "$TMP/boom"
same "$TMP/out" 'before\n' "output before the exception"
same "$TMP/err" 'Traceback (most recent call last):\n  File "boom.py", line 10, in <module>\n    outer(7)\n  File "boom.py", line 6, in outer\n    return inner(x)\n  File "boom.py", line 2, in inner\n    raise ValueError('"'"'boom '"'"' + str(x))\nValueError: boom 7\n' "traceback"
"$TMP/boom" >"$TMP/both" 2>&1
head -n 2 "$TMP/both" | tr '\n' '|' | grep -q '^before|Traceback' || fail "2>&1 order: $(head -c 200 "$TMP/both")"

export BOOM_SKIP=1
expect 0 "$TMP/boom"
same "$TMP/out" 'before\n' "module output"
expect 0 "$TMP/boom" outer '[1]' '{"args": ["x"]}'
same "$TMP/out" 'before\nValueError: boom 1\nValueError: boom x\n' "printed outcomes"
expect 0 "$TMP/boom" outer '[{"tensor": [1.5], "dtype": "float64"}]' --results "$TMP/r.jsonl"
same "$TMP/r.jsonl" '{"error": {"type": "ValueError", "message": "boom tf.Tensor([1.5], shape=(1,), dtype=float64)"}}\n' "results"
expect 1 "$TMP/boom" nope '[1]'
same "$TMP/err" "boom: error: 'nope' is not a module-level name of boom.py (it defines: inner, outer)\n" "unknown FUNC"
[ -s "$TMP/out" ] && fail "unknown FUNC: the module ran"
expect 1 "$TMP/boom" outer '[1' '[2]'
same "$TMP/err" "boom: error: ARGS_JSON 1 ('[1'): not valid JSON: expected ',' or ']' but found end of input at offset 2\n" "bad ARGS_JSON"
expect 2 "$TMP/boom" outer '[1]' --results
expect 2 "$TMP/boom" --frobnicate
expect 0 "$TMP/boom" --help
grep -q "ARGS_JSON" "$TMP/out" || fail "--help"

echo ok
exit $((failures > 0))
