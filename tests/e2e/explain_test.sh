#!/usr/bin/env bash
# agc explain end to end: its usage and exit statuses, `to-code --report`
# printing the same report, and the report's predictions held against what
# running the program raises: every function of explain/rules.py breaks one
# of AutoGraph's rules, and each TF error the test names must be both quoted
# by `agc explain` and raised, word for word, by `agc run`.
# usage: explain_test.sh AGC SOURCE_ROOT CACHE_DIR
set -u
AGC=$(realpath "$1")
ROOT=$2
export AGC_CACHE_DIR=$3
export AGC_CXXFLAGS="-O0"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

expect() {
  local want=$1; shift
  "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "exit $got, wanted $want: $* ($(head -c 300 "$TMP/err"))"
}

expect 0 "$AGC" explain --help
for opt in --function --autograph-compat --optional-features; do
  grep -q -- "$opt" "$TMP/out" || fail "explain --help does not document $opt"
done
expect 0 "$AGC" to-code --help
grep -q -- "--report" "$TMP/out" || fail "to-code --help does not document --report"
expect 0 "$AGC" --help
grep -q "explain" "$TMP/out" || fail "agc --help does not list explain"
expect 2 "$AGC" explain
expect 2 "$AGC" explain --bogus x.py
expect 2 "$AGC" explain x.py --dump-after=all
grep -q "agc explain: error: unknown option '--dump-after=all'" "$TMP/err" || fail "explain's usage error"
expect 1 "$AGC" explain "$TMP/missing.py"
expect 1 "$AGC" explain "$ROOT/tests/e2e/explain/rules.py" --function nothing_by_that_name
grep -q "no function named 'nothing_by_that_name'" "$TMP/err" || fail "explain --function of a missing name"

# A file with an error: the functions that convert are still explained.
cat >"$TMP/partial.py" <<'PY'
def first(x):
    if x:
        return 1
    return 2

def second(xs):
    for x in xs:
        pass
    else:
        pass
PY
expect 1 "$AGC" explain "$TMP/partial.py"
grep -q "def first" "$TMP/out" || fail "the function that converts is not explained"
grep -q "agc cannot convert it" "$TMP/out" || fail "the function agc cannot convert is not named"
grep -q "error:" "$TMP/err" || fail "the error is not on stderr"

prog="$ROOT/tests/e2e/explain/rules.py"
cd "$ROOT"
expect 0 "$AGC" explain tests/e2e/explain/rules.py
cp "$TMP/out" "$TMP/explained"
expect 0 "$AGC" to-code tests/e2e/explain/rules.py --report
cmp -s "$TMP/out" "$TMP/explained" || fail "to-code --report differs from explain"

expect 0 "$AGC" run tests/e2e/explain/rules.py
cp "$TMP/out" "$TMP/ran"
# FUNCTION|what it raises (its first line), as explain quotes it.
while IFS='|' read -r fn raised; do
  grep -qF "$fn raised $raised" "$TMP/ran" || fail "$fn: running it does not raise '$raised': $(grep "^$fn " "$TMP/ran")"
  grep -qF "TF raises $raised" "$TMP/explained" || fail "$fn: agc explain does not predict '$raised'"
done <<'RULES'
set_in_main_branch_only|ValueError: 'y' must also be initialized in the else branch
returns_in_main_branch_only|ValueError: the else branch must also have a return statement.
read_before_the_loop_sets_it|ValueError: 'y' must be defined before the loop
return_in_a_tensor_loop|NotImplementedError: a return statement cannot be placed inside this TensorFlow loop; this may happen if a return statement depends on a static Python condition such as a hyperparameter
python_while_broken_by_a_tensor|NotImplementedError: The condition of while loop started as non-Tensor, then changed to Tensor. This may happen either because variables changed type, or when a break or return statement inside the loop depends on a Tensor condition. In both cases, changing to a TF loop should remove the error.
python_for_broken_by_a_tensor|NotImplementedError: break and return statements which depend on a TF condition are not supported in Python for loops. Did you intend to make it a TF loop?
python_while_test_becomes_a_tensor|NotImplementedError: The condition of while loop started as non-Tensor, then changed to Tensor.
unconverted_tensor_if|OperatorNotAllowedInGraphError: Using a symbolic `tf.Tensor` as a Python `bool` is not allowed.
RULES
# The dtype rule names TypeError; what the op says depends on the op.
grep -qF "int_accumulator_of_floats raised TypeError:" "$TMP/ran" || fail "int_accumulator_of_floats does not raise TypeError"
grep -q "dtype: acc enters the loop as the Python int 0, staged, an int32 Tensor: the loop must keep it int32" "$TMP/explained" ||
  fail "agc explain does not warn about acc's dtype"
# Every function raised (each breaks a rule), and the report has one block per function.
[ "$(grep -c ' raised ' "$TMP/ran")" -eq 9 ] || fail "not every function of rules.py raised: $(cat "$TMP/ran")"
[ "$(grep -c ': def ' "$TMP/explained")" -eq 9 ] || fail "the report does not explain every function"

if [ "$failures" -gt 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "agc explain: all checks passed"
