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

# One function agc cannot convert fails alone, as tf.autograph.to_code fails
# only for it: the others are printed, it is diagnosed, the exit status is 1.
cat >"$TMP/partial.py" <<'PY'
def first(xs):
    for x in xs:
        break
    else:
        x = None
    return x


def numbers():
    yield 1


def plus_one(x):
    return x + 1
PY
expect 1 "$AGC" to-code "$TMP/partial.py"
grep -q "^def tf__plus_one(x):" "$TMP/out" || fail "partial.py: plus_one not printed"
grep -q "tf__first\|tf__numbers" "$TMP/out" && fail "partial.py: a function that cannot convert was printed"
grep -q "^$TMP/partial.py:4:5: error: for/else is not supported" "$TMP/err" || fail "partial.py: for/else not diagnosed"
grep -q "^$TMP/partial.py:10:5: error: generators are not supported" "$TMP/err" || fail "partial.py: yield not diagnosed"
expect 0 "$AGC" to-code "$TMP/partial.py" --function plus_one
[ -s "$TMP/err" ] && fail "partial.py --function plus_one: diagnostics of other functions: $(head -c 300 "$TMP/err")"


# ---- Hostile inputs: never a crash (status >= 128, or 3 = internal error), never a
# hang (180 s: generous, a loaded CI machine is slow), never text on stdout with an
# error (each input is one function); a diagnostic is clean UTF-8 and
# starts with FILE:LINE:COL: error:.
# hostile WANT NAME: runs to-code on $TMP/NAME; WANT is a status or "0|1" (either is
# fine, e.g. agc's documented nesting limit). Sets $secs to the run time.
hostile() {
  local want=$1 name=$2 f="$TMP/$2" start end got
  start=$(date +%s%N)
  timeout 180 "$AGC" to-code "$f" >"$TMP/out" 2>"$TMP/err"
  got=$?
  end=$(date +%s%N)
  secs=$(awk -v ns=$((end - start)) 'BEGIN { printf "%.2f", ns / 1e9 }')
  if [ "$got" -eq 124 ]; then fail "$name: hang (no answer in 180 s)"; return; fi
  if [ "$got" -ge 128 ] || [ "$got" -eq 3 ]; then
    fail "$name: crash, exit $got ($(head -c 300 "$TMP/err" | tr -d '\000'))"; return
  fi
  case "|$want|" in *"|$got|"*) ;; *) fail "$name: exit $got, wanted $want ($(head -c 300 "$TMP/err"))"; return ;; esac
  if [ "$got" -eq 0 ]; then
    [ -s "$TMP/err" ] && fail "$name: exit 0 but stderr: $(head -c 300 "$TMP/err")"
    return
  fi
  [ -s "$TMP/out" ] && fail "$name: exit $got but stdout has $(wc -c <"$TMP/out") bytes"
  head -n 1 "$TMP/err" | grep -qE "^$f:[0-9]+:[0-9]+: error: [^ ]" \
    || fail "$name: first line is not '$f:LINE:COL: error: ...': $(head -c 200 "$TMP/err")"
  iconv -f UTF-8 -t UTF-8 "$TMP/err" >/dev/null 2>&1 || fail "$name: diagnostic is not valid UTF-8 (raw source bytes echoed)"
  grep -qiE "internal error|sanitizer|assert|abort" "$TMP/err" && fail "$name: internal failure text in stderr"
  return 0
}
# line_of: the LINE of the first diagnostic.
line_of() { head -n 1 "$TMP/err" | sed -E "s|^.*\.py:([0-9]+):[0-9]+: .*|\1|"; }

: >"$TMP/empty.py"
hostile 0 empty.py
[ -s "$TMP/out" ] && fail "empty.py: output is not empty"

printf '# only comments\n#\n    # indented comment\n' >"$TMP/comments.py"
hostile 0 comments.py

head -c 4096 /bin/ls >"$TMP/binary.py"
hostile 1 binary.py

printf 'import tensorflow as tf\n\ndef f(x):\n    y = x + 1\0\n    return y\n' >"$TMP/nul.py"
hostile 1 nul.py
grep -q "^$TMP/nul.py:4:14: " "$TMP/err" || fail "nul.py: NUL not reported at 4:14: $(head -n 1 "$TMP/err")"

printf 'def f(x):\n    s = "caf\xe9"\n    return x\n' >"$TMP/latin1.py"
hostile 1 latin1.py
grep -q "^$TMP/latin1.py:2:13: " "$TMP/err" || fail "latin1.py: bad byte not reported at 2:13: $(head -n 1 "$TMP/err")"

printf '\xef\xbb\xbfimport tensorflow as tf\n\ndef f(x):\n    return x + 1\n' >"$TMP/bom.py"
hostile 0 bom.py
grep -q "def tf__f(x):" "$TMP/out" || fail "bom.py: f not converted"
printf '\xef\xbb\xbfdef f(x):\n    return x +\n' >"$TMP/bom_bad.py"
hostile 1 bom_bad.py
grep -q "^$TMP/bom_bad.py:2:" "$TMP/err" || fail "bom_bad.py: error not on line 2: $(head -n 1 "$TMP/err")"

printf 'def f(x):\r\n    if x > 0:\r\n        x = x + 1\r\n    return x\r\n' >"$TMP/crlf.py"
hostile 0 crlf.py
grep -q "ag__.if_stmt" "$TMP/out" || fail "crlf.py: if not converted"
grep -q $'\r' "$TMP/out" && fail "crlf.py: carriage returns in the output"
printf 'def f(x):\r\n    return x <> 1\r\n' >"$TMP/crlf_bad.py"
hostile 1 crlf_bad.py
grep -q "^$TMP/crlf_bad.py:2:14: " "$TMP/err" || fail "crlf_bad.py: not reported at 2:14: $(head -n 1 "$TMP/err")"
grep -q $'\r' "$TMP/err" && fail "crlf_bad.py: carriage return in the diagnostic"

printf 'def f(x):\n    return x' >"$TMP/no_newline.py"
hostile 0 no_newline.py

# ~10 MB of valid functions: must finish within the timeout.
awk 'BEGIN {
  print "import tensorflow as tf\n"
  for (i = 0; bytes < 10 * 1024 * 1024; i++) {
    s = sprintf("@tf.function\ndef f%d(x, y):\n    if x > y:\n        z = x * 2\n    else:\n        z = y - 1\n    for i in tf.range(3):\n        z = z + i\n    return z\n\n", i)
    printf "%s", s
    bytes += length(s)
  }
}' >"$TMP/big.py"
hostile 0 big.py
echo "10 MB file ($(wc -c <"$TMP/big.py") bytes): ${secs} s"

# Inputs large in one direction (issue 17; bench/transpile_large_inputs.py
# times them): one function with 20,000 of one construct converts, in time and
# memory linear in it (nothing is timed here; the test's timeout bounds it).
# count PATTERN FILE: how many times PATTERN occurs in FILE.
count() { grep -o -- "$1" "$2" | wc -l; }
gen_chain() {  # gen_chain N OP: return (x > 0 OP x > 1 OP ...)
  awk -v n="$1" -v op="$2" 'BEGIN { printf "def f(x):\n    return (x > 0"; for (k = 1; k < n; k++) printf " %s x > %d", op, k; print ")" }'
}
for op in and or; do
  gen_chain 20000 $op >"$TMP/chain_$op.py"
  expect 0 "$AGC" to-code "$TMP/chain_$op.py"
  [ "$(count "ag__.${op}_(" "$TMP/out")" = 19999 ] || fail "chain_$op.py: not 19999 ag__.${op}_ calls"
  grep -q "(lambda : (ag__.ld(x) > 19998)), (lambda : (ag__.ld(x) > 19999)))" "$TMP/out" || fail "chain_$op.py: last operands"
  expect 0 "$AGC" emit-cpp "$TMP/chain_$op.py" -o "$TMP/chain_$op"
  [ "$(count "ag::autograph::${op}_(" "$TMP/chain_$op/chain_$op.cpp")" = 39998 ] ||
    fail "chain_$op.py: not 19999 ag::autograph::${op}_ calls in each form"
done
gen_elifs() {  # gen_elifs N: if x == 0 ... elif x == N-1
  awk -v n="$1" 'BEGIN { print "def f(x):"; for (k = 0; k < n; k++) printf "    %s x == %d:\n        y = %d\n", k ? "elif" : "if", k, k; print "    return y" }'
}
# CPython compiles 2,000 elifs; the conversion would nest 2,002 blocks: it is
# refused before converting, and the function runs as written.
gen_elifs 2000 >"$TMP/elifs.py"
expect 1 "$AGC" to-code "$TMP/elifs.py"
grep -q "^$TMP/elifs.py:4001:9: error: converting 'f' would nest this code at least 2002 blocks deep" "$TMP/err" ||
  fail "elifs.py: depth not refused: $(head -n 1 "$TMP/err")"
expect 0 "$AGC" emit-cpp "$TMP/elifs.py" -o "$TMP/elifs"
[ "$(count "} else if (ag::truthy((ag_frame.at(kPos" "$TMP/elifs/elifs.cpp")" = 1999 ] || fail "elifs.py: plain form not an else-if chain"
# 20,000 elifs: CPython cannot compile it (RecursionError, MemoryError past ~6,000); neither does agc.
gen_elifs 20000 >"$TMP/elifs_20k.py"
expect 1 "$AGC" emit-cpp "$TMP/elifs_20k.py" -o "$TMP/elifs_20k"
grep -q "^$TMP/elifs_20k.py:6002:5: error: too many elif clauses" "$TMP/err" || fail "elifs_20k.py: $(head -n 1 "$TMP/err")"
awk 'BEGIN { print "def f(x):\n    a0 = x + 1"; for (k = 1; k < 20000; k++) printf "    a%d = a%d * 2 + x\n", k, k - 1; print "    return a19999" }' \
  >"$TMP/assigns.py"
expect 0 "$AGC" to-code "$TMP/assigns.py"
[ "$(grep -cE "^        a[0-9]+ = " "$TMP/out")" = 20000 ] || fail "assigns.py: not 20000 assignments"
grep -q "^        a19999 = ((ag__.ld(a19998) \* 2) + ag__.ld(x))$" "$TMP/out" || fail "assigns.py: last assignment"
expect 0 "$AGC" emit-cpp "$TMP/assigns.py" -o "$TMP/assigns"
[ "$(grep -cE "^ *a[0-9]+ = .*;$" "$TMP/assigns/assigns.cpp")" = 40000 ] || fail "assigns.py: not 20000 assignments per form"
# 10,000 loops (the conversion makes each three functions; sanitizer builds run this too).
awk 'BEGIN { print "def f(x):\n    s = 0"; for (k = 0; k < 10000; k++) printf "    for i%d in range(x):\n        s = s + i%d\n", k, k; print "    return s" }' \
  >"$TMP/loops.py"
expect 0 "$AGC" to-code "$TMP/loops.py"
[ "$(count "ag__.for_stmt(" "$TMP/out")" = 10000 ] || fail "loops.py: not 10000 for_stmt calls"
grep -q "^        ag__.for_stmt(ag__.converted_call(ag__.ld(range), (ag__.ld(x),), None, fscope), None, loop_body_9999, get_state_9999, set_state_9999, ('s',), {'iterate_names': 'i9999'})$" "$TMP/out" ||
  fail "loops.py: last loop"
grep -q "^        i9999 = ag__.Undefined('i9999')$" "$TMP/out" || fail "loops.py: last loop's name not initialized as undefined"
expect 0 "$AGC" emit-cpp "$TMP/loops.py" -o "$TMP/loops"
[ "$(count "ag::autograph::for_stmt(" "$TMP/loops/loops.cpp")" = 10000 ] || fail "loops.py: not 10000 for_stmt calls in C++"

# 1000 nested parentheses: CPython says "too many nested parentheses" (limit 200).
{ printf 'def f(x):\n    return '; printf '(%.0s' $(seq 1000); printf 'x'; printf ')%.0s' $(seq 1000); printf '\n'; } >"$TMP/parens.py"
hostile 1 parens.py
[ "$(line_of)" = 2 ] || fail "parens.py: error not on line 2: $(head -n 1 "$TMP/err")"

# 300 nested if/for statements: CPython stops at 100 levels of indentation; the
# diagnostic must point into the nest, not at 'def' on line 1.
awk 'BEGIN {
  print "def f(x):"
  for (d = 0; d < 300; d++) {
    ind = sprintf("%*s", 4 * (d + 1), "")
    if (d % 2 == 0) print ind "if x > " d ":"; else print ind "for i" d " in range(x):"
  }
  print sprintf("%*s", 4 * 301, "") "x = x + 1"
  print "    return x"
}' >"$TMP/deep.py"
hostile 1 deep.py
[ "$(line_of)" -gt 1 ] 2>/dev/null || fail "deep.py: error not inside the nest: $(head -n 1 "$TMP/err")"

# A 100000-character line: a flat list converts; a 33333-term sum may be refused
# (CPython's compiler overflows its recursion limit) but cleanly.
awk 'BEGIN { printf "def f(x):\n    xs = ["; for (i = 0; i < 33400; i++) printf "%s%d", (i ? ", " : ""), i % 10; print "]\n    return xs" }' >"$TMP/longline.py"
hostile 0 longline.py
awk 'BEGIN { printf "def f(x):\n    return x"; for (i = 0; i < 33333; i++) printf " + x"; print "" }' >"$TMP/longsum.py"
hostile "0|1" longsum.py
awk 'BEGIN { printf "def f(x):\n    return [1, 2"; for (i = 0; i < 33333; i++) printf ", 3"; print ",, 4]" }' >"$TMP/longline_bad.py"
hostile 1 longline_bad.py
[ "$(line_of)" = 2 ] || fail "longline_bad.py: error not on line 2: $(head -n 1 "$TMP/err")"

# 200 'not' operators: valid Python (CPython compiles it); agc may refuse it with its
# nesting limit, cleanly.
awk 'BEGIN { printf "def f(x):\n    return "; for (i = 0; i < 200; i++) printf "not "; print "x" }' >"$TMP/nots.py"
hostile "0|1" nots.py

# Indentation past 255 columns (tree-sitter-python keeps indents in a byte): the
# structure must survive. Here 'return x' belongs to f, not to the if.
{ pad=$(printf '%260s' ''); printf 'def f(x):\n%sif x:\n%s    x = 1\n%sreturn x\n' "$pad" "$pad" "$pad"; } >"$TMP/wide.py"
hostile "0|1" wide.py
if [ -s "$TMP/out" ]; then
  mv "$TMP/out" "$TMP/wide.out"
  printf 'def f(x):\nif x:\n    x = 1\nreturn x\n' | sed '2,$s/^/    /' >"$TMP/narrow.py"
  hostile 0 narrow.py
  cmp -s "$TMP/out" "$TMP/wide.out" || fail "wide.py: converts unlike the same code indented narrowly (indentation wrapped at 256 columns)"
fi

echo ok
exit $((failures > 0))
