#!/usr/bin/env bash
# What agc says while and after it compiles (issue 17), in two real compiles
# of one generated program big enough to be cut into translation units:
#  1. a compiler that first breaks the generated code of one function, as a
#     bug in agc's emitter would (a CXX wrapper: agc itself has no fault
#     injection), run on a terminal (script(1)): the progress line, each
#     compiler error at the Python line that made the code, the files kept
#     with the commands to run them again, how to report the bug;
#  2. `agc run --verbose --fast-build` of the same program: several units
#     compiled side by side, the time of each stage, the program's output.
# usage: compile_feedback_test.sh AGC
set -u
AGC=$(realpath "$1")
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# No precompiled ag.h: building one per compiler command costs more than it saves here.
export AGC_CACHE_DIR="$TMP/cache" AGC_CXXFLAGS="-O0 -Wall -Wextra -Werror" AGC_BUILD_JOBS=2 AGC_NO_PCH=1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# 40 functions, about 150 KB of C++: two units of 64 KB or more; and more
# than 16 KB of module-level code, run in parts (run_part1, ...). Only the
# last function calls abs(), on its line 3.
{
  echo "import tensorflow as tf"
  echo "values = []"
  for i in $(seq 1 40); do
    cat <<PY


@tf.function
def step$i(x, n):
    total = tf.constant(0.0)
    for k in tf.range(n):
        if x[k % 2] > $i:
            total += x[k % 2] * $i
        else:
            total -= 1.0
    return total


if len(values) < 100:
    values.append(float(step$i(tf.constant([50.0, 2.0]), 2)) + $i)
PY
  done
  cat <<'PY'


def last(values):
    out = []
    for v in values:
        out.append(abs(v) + 1)
    return out


x = tf.constant([50.0, 2.0])
print(sum(float(f(x, 4)) for f in [step1, step20, step40]), last([-1, 2]), sum(values))
PY
} >"$TMP/big.py"
abs_line=$(grep -n "abs(v)" "$TMP/big.py" | cut -d: -f1)

# ---- 1. a compiler that rejects the generated code
cat >"$TMP/breaking_cxx" <<'SH'
#!/usr/bin/env bash
# Breaks the call of abs() in the generated C++ (the last unit holds it), then compiles.
for a in "$@"; do
  case "$a" in *.cpp) sed -i 's/ag::py::abs(/ag::py::abs_broken(/' "$a" ;; esac
done
exec ${REAL_CXX:-c++} "$@"
SH
chmod +x "$TMP/breaking_cxx"
real_cxx=${CXX:-c++}
CXX="$TMP/breaking_cxx" REAL_CXX="$real_cxx" script -qec "'$AGC' build '$TMP/big.py' -o '$TMP/big'" /dev/null \
  | tr -d '\r' >"$TMP/broken"
status=${PIPESTATUS[0]}
[ "$status" -ne 0 ] || fail "a rejected compile did not fail"
[ -e "$TMP/big" ] && fail "a rejected compile made a program"
grep -q "^agc: compiling big.py (41 functions, $(wc -l <"$TMP/big.py") lines) \.\.\.$" "$TMP/broken" ||
  fail "no progress line on a terminal: $(head -c 400 "$TMP/broken")"
grep -q "^$TMP/big.py:$abs_line:20: error: the C++ agc generated for this does not compile$" "$TMP/broken" ||
  fail "the compiler's error is not at the Python line: $(head -c 800 "$TMP/broken")"
grep -A2 "^$TMP/big.py:$abs_line:20: error" "$TMP/broken" | tail -n 1 | grep -q "^                   \^~~~~~$" ||
  fail "no caret under abs(v): $(grep -A2 "^$TMP/big.py:$abs_line" "$TMP/broken")"
grep -q "^  the C++ compiler: $AGC_CACHE_DIR/failed/big-[0-9a-f]*/big_2.cpp:[0-9]*:[0-9]*: error: .*abs_broken" "$TMP/broken" ||
  fail "the compiler's own message is not shown, in the kept second unit: $(head -c 800 "$TMP/broken")"
grep -q "^agc: error: the C++ compiler failed (exit status 1) on the code agc generated from big.py: this is a bug in agc, not in your program$" "$TMP/broken" ||
  fail "the failure is not called agc's bug: $(tail -n 3 "$TMP/broken")"
grep -q "^agc: note: please report the bug with that directory attached (tar czf big-agc-bug.tar.gz -C $AGC_CACHE_DIR/failed big-" "$TMP/broken" ||
  fail "no word on reporting the bug: $(tail -n 2 "$TMP/broken")"
kept=$(ls -d "$AGC_CACHE_DIR"/failed/big-* 2>/dev/null | head -n 1)
for f in big.py big.h big.cpp big_2.cpp build.sh compiler-output.txt; do
  [ -s "$kept/$f" ] || fail "the failed build's $f is not kept in '$kept'"
done
cmp -s "$kept/big.py" "$TMP/big.py" || fail "the kept big.py is not the program"
grep -q "^void run_part2(ag::Frame& ag_frame) {" "$kept"/big*.cpp || fail "the module's code is not run in parts"
grep -q "abs_broken" "$kept/big_2.cpp" || fail "the kept unit is not the one the compiler read"
# build.sh holds the commands (each unit's compile, the link), run from the kept directory.
bash -n "$kept/build.sh" || fail "build.sh is not a shell script"
[ "$(grep -c -- " -c -o ./big\(_2\)\?\.o ./big\(_2\)\?\.cpp" "$kept/build.sh")" -eq 2 ] ||
  fail "build.sh does not compile both units from its directory: $(cat "$kept/build.sh")"
grep -q -- "./big.o ./big_2.o -o big " "$kept/build.sh" || fail "build.sh does not link them: $(cat "$kept/build.sh")"

# ---- 2. units side by side, stage times, the program's output
"$AGC" run --verbose --fast-build "$TMP/big.py" >"$TMP/out" 2>"$TMP/err"
status=$?
[ "$status" -eq 0 ] || fail "agc run --verbose --fast-build: exit $status: $(tail -c 600 "$TMP/err")"
printf '%s\n' '6100.0 [2, 3] 41783.0' | cmp -s - "$TMP/out" || fail "the program's output: $(cat "$TMP/out")"
for stage in "agc: parse [0-9.]* s, convert [0-9.]* s, emit C++ [0-9.]* s ([0-9,]* KB of C++)" \
             "agc: compile: [0-9.]* s (2 translation units, 2 at a time)" "agc: link: [0-9.]* s" \
             "agc: run: [0-9.]* s (exit status 0)"; do
  grep -q "^$stage$" "$TMP/err" || fail "--verbose does not show '$stage': $(head -c 800 "$TMP/err")"
done
grep -q -- " -Og .* -c -o [^ ]*/big_2.o [^ ]*/big_2.cpp" "$TMP/err" || fail "--fast-build does not compile at -Og"
grep -q "agc: compiling" "$TMP/err" && fail "a progress line when stderr is not a terminal"

echo "ok"
exit $((failures > 0))
