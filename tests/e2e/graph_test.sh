#!/usr/bin/env bash
# agc graph end to end on tests/e2e/graph/flow.py (an `if` over a tensor, a
# `while` loop, a tf.function calling another): the DOT and GraphDef text
# against expected files (deterministic bytes), SVG and PNG through Graphviz
# when it is installed, and the errors: unknown FUNC, bad ARGS_JSON, bad
# --format, missing Graphviz, a FUNC that is no function.
# AGC_BLESS=1 rewrites the expected files (read the diff before committing).
# usage: graph_test.sh AGC SOURCE_ROOT [CACHE_DIR]
set -u
AGC=$1
ROOT=$2
DIR=$ROOT/tests/e2e/graph
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export AGC_CACHE_DIR=${3:-$TMP/cache}
# The build's defaults, then quicker compiles: the program is traced, not timed.
export AGC_CXXFLAGS=${AGC_CXXFLAGS:--O0}
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect STATUS CMD...: runs CMD, checks its exit status, keeps stdout/stderr.
expect() {
  local want=$1; shift
  "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "exit $got, wanted $want: $* ($(head -c 800 "$TMP/err"))"
}
# golden GOT NAME: GOT's bytes are tests/e2e/graph/NAME's (or become them under AGC_BLESS=1).
golden() {
  if [ -n "${AGC_BLESS:-}" ]; then
    cp "$1" "$DIR/$2"
    return
  fi
  cmp -s "$1" "$DIR/$2" || fail "$2 differs: $(diff "$DIR/$2" "$1" | head -20)"
}
# err_has TEXT: stderr of the last command says TEXT.
err_has() { grep -qF -- "$1" "$TMP/err" || fail "stderr lacks '$1': $(head -c 800 "$TMP/err")"; }

ARGS='[{"tensor": [1, 2, 3], "dtype": "float32"}, {"tensor": 3}]'
X='[{"tensor": [1.0, 2.0]}]'

# ---- usage
expect 0 "$AGC" --help
grep -q "graph FILE.py FUNC" "$TMP/out" || fail "agc --help does not list graph"
expect 0 "$AGC" graph --help
for opt in --format -o --optimized pbtxt svg png; do
  grep -q -- "$opt" "$TMP/out" || fail "graph --help does not document $opt"
done
expect 2 "$AGC" graph
expect 2 "$AGC" graph "$DIR/flow.py"
err_has "missing FUNC"
expect 2 "$AGC" graph "$DIR/flow.py" step "$ARGS" --format jpeg
err_has "unknown --format 'jpeg' (dot, svg, png or pbtxt)"
expect 2 "$AGC" graph "$DIR/flow.py" step "$ARGS" "$ARGS"
err_has "one ARGS_JSON at most"
expect 2 "$AGC" graph "$DIR/flow.py" step --bogus
err_has "unknown option '--bogus'"

# ---- Graphviz missing: said before anything is built
AGC_DOT=/nonexistent/dot expect 1 "$AGC" graph "$DIR/flow.py" step "$ARGS" --format svg
err_has "--format svg needs Graphviz's dot program"
err_has "apt-get install graphviz"
PATH=/nonexistent AGC_DOT= expect 1 "$AGC" graph "$DIR/flow.py" step "$ARGS" -o "$TMP/g.png"
err_has "--format png needs Graphviz's dot program, which is not on PATH"

# ---- DOT and GraphDef text, byte for byte
expect 0 "$AGC" graph "$DIR/flow.py" step "$ARGS"
golden "$TMP/out" step.dot
err_has "module code runs first"  # the program's own output goes to stderr
expect 0 "$AGC" graph "$DIR/flow.py" step "$ARGS" --format pbtxt -o "$TMP/step.pbtxt"
[ -s "$TMP/out" ] && fail "pbtxt with -o printed on stdout: $(head -c 200 "$TMP/out")"
golden "$TMP/step.pbtxt" step.pbtxt
# A tf.function calling another: the callee's graph a cluster under its call.
expect 0 "$AGC" graph "$DIR/flow.py" outer "$X"
golden "$TMP/out" outer.dot
err_has "tracing outer"
# The same again (from the cache now): the same bytes.
expect 0 "$AGC" graph "$DIR/flow.py" step "$ARGS" -o "$TMP/again.dot"
cmp -s "$TMP/again.dot" "$DIR/step.dot" || fail "a second run drew different bytes"

# --optimized: the graph calls run, after If lowering and fusion.
expect 0 "$AGC" graph "$DIR/flow.py" step "$ARGS" --optimized
grep -q '^digraph "step(x, n), optimized" {' "$TMP/out" || fail "--optimized title: $(head -1 "$TMP/out")"
cmp -s "$TMP/out" "$DIR/step.dot" && fail "--optimized drew the graph as traced"
expect 0 "$AGC" graph "$DIR/flow.py" step "$ARGS" --optimized --format pbtxt
grep -q '^node {' "$TMP/out" || fail "--optimized pbtxt: $(head -c 200 "$TMP/out")"

# A Python function is traced as tf.function(plain) would trace it.
expect 0 "$AGC" graph "$DIR/flow.py" plain '[{"tensor": [[1.0, 2.0]]}, {"tensor": [[3.0], [4.0]]}]'
grep -q 'label="MatMul (MatMul)\\nfloat32\[1,1\]"' "$TMP/out" || fail "plain: no MatMul node: $(cat "$TMP/out")"

# ---- SVG and PNG, when Graphviz is installed
if command -v dot >/dev/null 2>&1; then
  expect 0 "$AGC" graph "$DIR/flow.py" step "$ARGS" --format svg -o "$TMP/step.svg"
  grep -q '<svg' "$TMP/step.svg" || fail "step.svg is not SVG: $(head -c 200 "$TMP/step.svg")"
  grep -q 'then_branch' "$TMP/step.svg" || fail "step.svg lacks the If's branches"
  expect 0 "$AGC" graph "$DIR/flow.py" step "$ARGS" -o "$TMP/step.png"  # the format from the extension
  [ "$(head -c 8 "$TMP/step.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] ||
    fail "step.png is not PNG: $(head -c 16 "$TMP/step.png" | od -An -c)"
  expect 0 "$AGC" graph "$DIR/flow.py" step "$ARGS" --format svg
  grep -q '<svg' "$TMP/out" || fail "svg on stdout is not SVG"
else
  echo "SKIP: SVG and PNG (Graphviz's dot is not installed)"
fi

# ---- errors, each naming its cause
expect 1 "$AGC" graph "$DIR/flow.py" nope "$ARGS"
err_has "'nope' is not a module-level name of $DIR/flow.py (it defines: "
expect 1 "$AGC" graph "$DIR/flow.py" step '[{"tensor": [1, 2'
err_has "ARGS_JSON 1 ('[{\"tensor\": [1, 2'): not valid JSON"
expect 1 "$AGC" graph "$DIR/flow.py" count '[]'
err_has "TypeError: 'count' is of type 'int', which agc graph cannot trace"
expect 1 "$AGC" graph "$DIR/flow.py" step '[{"tensor": [1, 2, 3]}]'
err_has "TypeError: "  # a trace that raises: Python's traceback
err_has "missing 1 required positional argument: 'n'"
expect 1 "$AGC" graph "$DIR/flow.py" step "$ARGS" -o "$TMP/no/such/dir/g.dot"
err_has "cannot write '$TMP/no/such/dir/g.dot'"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "graph e2e: all passed"
