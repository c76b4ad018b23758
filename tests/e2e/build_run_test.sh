#!/usr/bin/env bash
# End-to-end checks of agc emit-cpp / build / run: the files emit-cpp writes, a
# built program and library, run's cache (a second run does not recompile),
# the --results JSONL lines, printed outcomes, tracebacks and exit statuses.
# Part 1 needs no compiler; part 2 tests run's cache, exec and --results with a
# stand-in compiler that "compiles" anything into a program built here from
# tests/e2e/handwritten/boom.cpp, so agc's own behaviour is checked apart from
# the emitter's; part 3 compiles Python files for real.
# usage: build_run_test.sh AGC SOURCE_ROOT LIBAGRT
set -u
AGC=$1
ROOT=$2
LIB=$3
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export AGC_CACHE_DIR="$TMP/cache"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect STATUS CMD...: runs CMD, checks its exit status, keeps stdout/stderr.
expect() {
  local want=$1; shift
  "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  [ "$got" -eq "$want" ] || fail "exit $got, wanted $want: $* ($(head -c 600 "$TMP/err"))"
}
# same FILE TEXT: FILE holds exactly TEXT (printf-style escapes allowed).
same() {
  printf "$2" >"$TMP/want"
  cmp -s "$1" "$TMP/want" || fail "$3: got [$(cat "$1")], wanted [$(cat "$TMP/want")]"
}

cat >"$TMP/calc.py" <<'PY'
import tensorflow as tf


def add(a, b):
    return a + b


def fail(x):
    raise ValueError('bad ' + str(x))


print('hello', add(1, 2))
PY

cat >"$TMP/boom.py" <<'PY'
def inner(x):
    raise ValueError('boom ' + str(x))


def outer(x):
    return inner(x)


print('before')
outer(7)
print('after')
PY

printf 'def f(x):\n    return x +\n' >"$TMP/bad.py"

# ---- usage
expect 0 "$AGC" --help
for c in emit-cpp build run; do
  grep -q "$c" "$TMP/out" || fail "--help does not list $c"
  expect 0 "$AGC" "$c" --help
done
expect 2 "$AGC" emit-cpp "$TMP/calc.py"
expect 2 "$AGC" build "$TMP/calc.py"
expect 2 "$AGC" run
expect 2 "$AGC" run --bogus "$TMP/calc.py"

# ---- emit-cpp: both files, main() only without --lib
expect 0 "$AGC" emit-cpp "$TMP/calc.py" -o "$TMP/gen/sub"
[ -s "$TMP/gen/sub/calc.h" ] || fail "emit-cpp did not write calc.h"
[ -s "$TMP/gen/sub/calc.cpp" ] || fail "emit-cpp did not write calc.cpp"
[ -s "$TMP/out" ] && fail "emit-cpp printed on success: $(head -c 200 "$TMP/out")"
grep -q '#include <ag/ag.h>' "$TMP/gen/sub/calc.h" || fail "calc.h does not include <ag/ag.h>"
grep -q '#include "calc.h"' "$TMP/gen/sub/calc.cpp" || fail "calc.cpp does not include its header"
grep -q 'int main' "$TMP/gen/sub/calc.cpp" || fail "calc.cpp has no main()"
grep -qi 'eigen' "$TMP/gen/sub/calc.cpp" "$TMP/gen/sub/calc.h" && fail "generated code mentions Eigen"
expect 0 "$AGC" emit-cpp --lib "$TMP/calc.py" -o "$TMP/genlib"
grep -q 'int main' "$TMP/genlib/calc.cpp" && fail "emit-cpp --lib wrote a main()"
expect 1 "$AGC" emit-cpp "$TMP/bad.py" -o "$TMP/genbad"
head -n 1 "$TMP/err" | grep -qE "^$TMP/bad.py:2:[0-9]+: error: " || fail "emit-cpp diagnostic: $(head -n 1 "$TMP/err")"
[ -e "$TMP/genbad/bad.cpp" ] && fail "emit-cpp wrote output for a file with errors"

# ---- part 2: run's cache, exec and outcomes through a stand-in compiler
${CXX:-c++} -O0 -std=c++20 -I"$ROOT" -I"$ROOT/runtime/include" -o "$TMP/boom_prog" "$ROOT/tests/e2e/handwritten/boom.cpp" "$LIB" -lprotobuf -lleveldb -lre2 $(pkg-config --libs hdf5) -pthread \
  || { echo "FAIL: boom.cpp does not compile"; exit 1; }
cat >"$TMP/fakecxx" <<SH
#!/usr/bin/env bash
# Each unit's compile (-c) and the link "make" the program; a build logs one line.
out=""; prev=""; link=1
for a in "\$@"; do [ "\$prev" = "-o" ] && out=\$a; [ "\$a" = "-c" ] && link=0; prev=\$a; done
[ "\$link" = 1 ] && echo compiled >>"$TMP/fakecxx.log"
cp "$TMP/boom_prog" "\$out"
SH
chmod +x "$TMP/fakecxx"
(
  export CXX="$TMP/fakecxx" AGC_CACHE_DIR="$TMP/fakecache" AGC_NO_PCH=1
  expect 1 "$AGC" run "$TMP/boom.py"
  same "$TMP/out" 'before\n' "stand-in: program output"
  grep -q '^ValueError: boom 7$' "$TMP/err" || fail "stand-in: the program's traceback is not on stderr: $(head -c 300 "$TMP/err")"
  export BOOM_SKIP=1
  expect 0 "$AGC" run "$TMP/boom.py"
  [ "$(wc -l <"$TMP/fakecxx.log")" -eq 1 ] || fail "stand-in: a second run of the same file compiled again"
  expect 0 "$AGC" run --verbose "$TMP/boom.py" outer '[1]' '[{"tensor": [2.5]}]' --results "$TMP/fr.jsonl"
  grep -q "^agc: cached: " "$TMP/err" || fail "stand-in: --verbose does not say the program came from the cache"
  same "$TMP/out" 'before\n' "stand-in: output with --results"
  same "$TMP/fr.jsonl" '{"error": {"type": "ValueError", "message": "boom 1"}}\n{"error": {"type": "ValueError", "message": "boom tf.Tensor([2.5], shape=(1,), dtype=float32)"}}\n' "stand-in: --results lines"
  # agc run's own options after FILE.py still are agc's; an unknown one is the
  # program's, which says where its Python arguments go.
  expect 0 "$AGC" run "$TMP/boom.py" --verbose outer '[1]' -v
  grep -q "^agc: cached: " "$TMP/err" || fail "stand-in: --verbose after FILE.py is not agc's"
  same "$TMP/out" 'before\nValueError: boom 1\n' "stand-in: --verbose after FILE.py reached the program"
  expect 2 "$AGC" run "$TMP/boom.py" --bogus
  grep -q "unknown option '--bogus' .*sys.argv, go after '--'" "$TMP/err" || fail "stand-in: unknown option after FILE.py: $(head -c 300 "$TMP/err")"
  expect 1 "$AGC" run "$TMP/boom.py" nope '[1]'
  grep -q "'nope' is not a module-level name" "$TMP/err" || fail "stand-in: unknown FUNC: $(head -c 300 "$TMP/err")"
  [ "$(wc -l <"$TMP/fakecxx.log")" -eq 1 ] || fail "stand-in: runs with arguments compiled again"
  # Another source is another cache entry.
  printf '\n# changed\n' >>"$TMP/boom.py"
  expect 0 "$AGC" run "$TMP/boom.py"
  [ "$(wc -l <"$TMP/fakecxx.log")" -eq 2 ] || fail "stand-in: a changed file did not recompile"
  # Over AGC_CACHE_MAX_MB the least recently used entries go, never the one just built.
  [ "$(find "$TMP/fakecache" -mindepth 1 -maxdepth 1 -type d | wc -l)" -eq 2 ] || fail "stand-in: two sources, not two entries"
  printf '\n# changed again\n' >>"$TMP/boom.py"
  AGC_CACHE_MAX_MB=0 expect 0 "$AGC" run "$TMP/boom.py"
  entries=("$TMP"/fakecache/*/boom)
  [ "${#entries[@]}" -eq 1 ] && [ -x "${entries[0]}" ] || fail "stand-in: over the cache limit, not just the new entry left: ${entries[*]}"
  exit $failures
) || failures=$((failures + $?))

# ---- part 3: real compiles
# ---- build: a program; a library and its header
expect 0 "$AGC" build "$TMP/calc.py" -o "$TMP/calc"
[ -s "$TMP/out" ] || [ -s "$TMP/err" ] && fail "build printed on success: $(head -c 300 "$TMP/out" "$TMP/err")"
[ -x "$TMP/calc" ] || fail "build did not make an executable"
expect 0 "$TMP/calc"
same "$TMP/out" 'hello 3\n' "built program output"
expect 0 "$AGC" build "$TMP/calc.py" -o "$TMP/lib/libcalc.a" --lib
[ -s "$TMP/lib/libcalc.a" ] || fail "build --lib made no library"
[ -s "$TMP/lib/calc.h" ] || fail "build --lib wrote no header beside the library"
expect 1 "$AGC" build "$TMP/bad.py" -o "$TMP/bad"
[ -e "$TMP/bad" ] && fail "build made a program from a file with errors"
# A compiler that fails: exit 1, its output and the command on stderr.
CXX=false expect 1 "$AGC" build "$TMP/calc.py" -o "$TMP/calc2"
grep -q "agc: error: the C++ compiler failed" "$TMP/err" || fail "compiler failure message: $(head -c 300 "$TMP/err")"
# --verbose shows the compiler command.
expect 0 "$AGC" build --verbose "$TMP/calc.py" -o "$TMP/calc3"
grep -q -- "-std=c++20" "$TMP/err" || fail "build --verbose does not show the compiler command"
# The precompiled ag/ag.h must be usable by the program's own compile (GCC
# skips a .gch built with other macros, e.g. without -pthread's _REENTRANT).
grep -q "not used because" "$TMP/err" && fail "the precompiled header is not used: $(grep 'not used because' "$TMP/err")"

# ---- run: compiles once into the cache, then reuses it
expect 0 "$AGC" run "$TMP/calc.py"
same "$TMP/out" 'hello 3\n' "run output"
[ -s "$TMP/err" ] && fail "run printed on stderr: $(head -c 300 "$TMP/err")"
progs=("$AGC_CACHE_DIR"/*/calc)
[ "${#progs[@]}" -eq 1 ] && [ -x "${progs[0]}" ] || fail "run did not leave one program in the cache: ${progs[*]}"
before=$(stat -c %Y.%y "${progs[0]}")
sleep 1
expect 0 "$AGC" run --verbose "$TMP/calc.py"
grep -q "agc: cached" "$TMP/err" || fail "second run was not served from the cache: $(head -c 300 "$TMP/err")"
grep -q -- "-std=c++20" "$TMP/err" && fail "second run recompiled"
[ "$(stat -c %Y.%y "${progs[0]}")" = "$before" ] || fail "second run rewrote the cached program"
same "$TMP/out" 'hello 3\n' "cached run output"

# ---- FUNC ARGS_JSON: outcomes printed, or JSONL with --results
expect 0 "$AGC" run "$TMP/calc.py" add '[1, 2]' '[{"tensor": [1.5, 2]}, 1]' '["a", 1]'
same "$TMP/out" 'hello 3\n3\ntf.Tensor([2.5 3. ], shape=(2,), dtype=float32)\nTypeError: can only concatenate str (not "int") to str\n' "printed outcomes"
expect 0 "$AGC" run "$TMP/calc.py" add '[1, 2.5]' '{"args": [{"tensor": [[1, 2]], "dtype": "float32"}], "kwargs": {"b": 0.5}}' \
  '[[1], [2]]' --results "$TMP/r.jsonl"
same "$TMP/out" 'hello 3\n' "output with --results"
same "$TMP/r.jsonl" '{"result": 3.5}\n{"result": {"tensor": [[1.5, 2.5]], "dtype": "float32", "shape": [1, 2]}}\n{"result": [1, 2]}\n' "results JSONL"
expect 0 "$AGC" run "$TMP/calc.py" fail '[3]' '["x"]' --results "$TMP/r.jsonl"
same "$TMP/r.jsonl" '{"error": {"type": "ValueError", "message": "bad 3"}}\n{"error": {"type": "ValueError", "message": "bad x"}}\n' "error JSONL"
expect 1 "$AGC" run "$TMP/calc.py" nope '[1]'
grep -q "'nope' is not a module-level name" "$TMP/err" || fail "unknown FUNC message: $(head -c 300 "$TMP/err")"
[ -s "$TMP/out" ] && fail "unknown FUNC: the module ran anyway"
expect 1 "$AGC" run "$TMP/calc.py" add '[1,'
grep -q "ARGS_JSON 1 ('\[1,'): not valid JSON" "$TMP/err" || fail "bad ARGS_JSON message: $(head -c 300 "$TMP/err")"

# ---- exit statuses: a transpile diagnostic, an exception escaping the module
expect 1 "$AGC" run "$TMP/bad.py"
head -n 1 "$TMP/err" | grep -qE "^$TMP/bad.py:2:[0-9]+: error: " || fail "run diagnostic: $(head -n 1 "$TMP/err")"
expect 1 "$AGC" run "$TMP/boom.py"
same "$TMP/out" 'before\n' "output before the exception"
same "$TMP/err" "Traceback (most recent call last):\n  File \"$TMP/boom.py\", line 10, in <module>\n    outer(7)\n  File \"$TMP/boom.py\", line 6, in outer\n    return inner(x)\n           ^^^^^^^^\n  File \"$TMP/boom.py\", line 2, in inner\n    raise ValueError('boom ' + str(x))\nValueError: boom 7\n" "traceback"
# The module's frame is on a decorated def's line while its decorator runs
# (it used to say line 0 when the def's converted body ended on that line).
printf 'import tensorflow as tf\n\n@tf.function(input_signature=3)\ndef f(x):\n    return x\n' >"$TMP/deco.py"
expect 1 "$AGC" run "$TMP/deco.py"
same "$TMP/err" "Traceback (most recent call last):\n  File \"$TMP/deco.py\", line 3, in <module>\n    @tf.function(input_signature=3)\n     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\nTypeError: input_signature must be either a tuple or a list, got int.\n" "decorator traceback"
# An op's error while a tf.function traces marks the user's expression, in
# traceback.print_exc's layout and in the interpreter's (a line's trailing
# whitespace kept); a multi-line call is marked on its first line.
cat >"$TMP/graph_error.py" <<'PY'
import sys
import traceback
import tensorflow as tf


@tf.function
def step(x, w):
    h = tf.tanh(x)
    return tf.reduce_sum(tf.matmul(h, w) * 2.0)


try:
    step(tf.ones([2, 3]), tf.ones([2, 3]))
except ValueError:
    traceback.print_exc(file=sys.stdout)
print(step(tf.ones([2, 3]),   
           tf.ones([2, 3])))
PY
expect 1 "$AGC" run "$TMP/graph_error.py"
grep -v "^ValueError" "$TMP/out" >"$TMP/out_frames"
same "$TMP/out_frames" "Traceback (most recent call last):\n  File \"$TMP/graph_error.py\", line 13, in <module>\n    step(tf.ones([2, 3]), tf.ones([2, 3]))\n  File \"$TMP/graph_error.py\", line 9, in step\n    return tf.reduce_sum(tf.matmul(h, w) * 2.0)\n                         ^^^^^^^^^^^^^^^\n" "a graph-time error's traceback"
grep -v "^ValueError" "$TMP/err" >"$TMP/err_frames"
same "$TMP/err_frames" "Traceback (most recent call last):\n  File \"$TMP/graph_error.py\", line 16, in <module>\n    print(step(tf.ones([2, 3]),   \n          ^^^^^^^^^^^^^^^^^^^^^\n  File \"$TMP/graph_error.py\", line 9, in step\n    return tf.reduce_sum(tf.matmul(h, w) * 2.0)\n                         ^^^^^^^^^^^^^^^\n" "an uncaught graph-time error's traceback"
# 2>&1 keeps program order.
"$AGC" run "$TMP/boom.py" >"$TMP/both" 2>&1
head -n 2 "$TMP/both" | tr '\n' '|' | grep -q '^before|Traceback' || fail "2>&1 order: $(head -c 200 "$TMP/both")"

# ---- subscripts with Ellipsis and tf.newaxis, eager and in a tf.function, and
# tf.TensorShape, as TF prints them
cat >"$TMP/slices.py" <<'PY'
import tensorflow as tf

@tf.function
def pick(x, i):
    print(x[i, ..., tf.newaxis].shape)
    return x[..., i]

x = tf.reshape(tf.range(8), [2, 2, 2])
print(x[..., 0])
print(pick(x, tf.constant(1)))
print(...)
print(repr(x.shape), x.shape.as_list(), x.shape[1:], isinstance(x.shape, tf.TensorShape))
PY
expect 0 "$AGC" run "$TMP/slices.py"
same "$TMP/out" 'tf.Tensor(\n[[0 2]\n [4 6]], shape=(2, 2), dtype=int32)\n(2, 2, 1)\ntf.Tensor(\n[[1 3]\n [5 7]], shape=(2, 2), dtype=int32)\nEllipsis\nTensorShape([2, 2, 2]) [2, 2, 2] (2, 2) True\n' "Ellipsis subscripts, TensorShape"

# ---- functions agc cannot convert fail alone, as TF fails only a function it
# cannot convert: warnings, and the rest of the file runs. for/else and a
# mangled name run as written (TF's fallback, inside a tf.function too); a
# generator, which agc cannot run, raises NotImplementedError when called.
# stdout is TensorFlow's but for that last line (TF runs the generator).
cat >"$TMP/partial.py" <<'PY'
import tensorflow as tf


def first_positive(xs):
    for x in xs:
        if x > 0:
            break
    else:
        x = None
    return x


class Scaled:
    def __init__(self, k):
        self.__k = k

    def __call__(self, x):
        return x * self.__k


def numbers():
    return (yield 1) + 1


@tf.function
def traced(x):
    return first_positive([-1, 2, 3]) + Scaled(10)(x)


print(first_positive([-1, -2]), first_positive([-1, 5]))
print(traced(tf.constant(1)), Scaled(3)._Scaled__k)
try:
    numbers()
except NotImplementedError as e:
    print('NotImplementedError:', e)
if True:
    def counted():
        return (yield 2)
    try:
        counted()
    except NotImplementedError:
        print('counted raises too')
numbers()
PY
expect 1 "$AGC" run "$TMP/partial.py"
same "$TMP/out" 'None 5\ntf.Tensor(12, shape=(), dtype=int32) 3\nNotImplementedError: a yield inside an expression is not supported; yield on a line of its own, or assign its value (x = yield v)\ncounted raises too\n' "functions agc cannot convert"
for w in "8:5: warning: for/else is not supported by AutoGraph" "4:1: note: 'first_positive' runs as written" \
         "15:9: warning: mangled names are not supported" "14:5: note: 'Scaled.__init__' runs as written" \
         "22:13: warning: a yield inside an expression is not supported" "21:1: note: calling 'numbers' raises NotImplementedError"; do
  grep -q "^$TMP/partial.py:$w" "$TMP/err" || fail "partial.py: no '$w' on stderr: $(head -c 600 "$TMP/err")"
done
tail -n 4 "$TMP/err" | head -n 3 | grep -q "line 22, in numbers" || fail "partial.py: the generator's traceback: $(tail -c 300 "$TMP/err")"
# Outside any function such a construct fails only its statement, which
# raises when it runs: the statements before it run, and one in a branch not
# taken costs nothing.
cat >"$TMP/module_level.py" <<'PY'
import tensorflow as tf
print('start')
x = tf.constant([1.0, 2.0])
if x.shape[0] > 5:
    print(tf.math.special.bessel_k0e(x))
else:
    print('skipped')
print((y := 1))
print('never')
PY
expect 1 "$AGC" run "$TMP/module_level.py"
same "$TMP/out" 'start\nskipped\n' "module-level statements agc cannot compile"
for w in "5:11: warning: 'tf.math.special.bessel_k0e' is not supported by agc" "5:5: note: running this statement raises NotImplementedError" \
         "8:8: warning: assignment expressions (:=) are not supported" "8:1: note: running this statement raises NotImplementedError"; do
  grep -q "^$TMP/module_level.py:$w" "$TMP/err" || fail "module_level.py: no '$w' on stderr: $(head -c 600 "$TMP/err")"
done
tail -n 4 "$TMP/err" | grep -q "^  File \"$TMP/module_level.py\", line 8, in <module>" || fail "module_level.py traceback: $(tail -c 300 "$TMP/err")"
tail -n 1 "$TMP/err" | grep -q "^NotImplementedError: assignment expressions" || fail "module_level.py error: $(tail -n 1 "$TMP/err")"

# ---- --optional-features for every function: an assert on a tensor is a graph
# assertion, == is tf.equal, print with a tensor prints when the graph runs.
cat >"$TMP/features.py" <<'PY'
import tensorflow as tf

@tf.function
def f(x):
    assert x > 0, 'positive'
    print('x is', x)
    return x == 2

print(f(tf.constant(2)))
print(f(tf.constant(3)))
try:
    f(tf.constant(-1))
except tf.errors.InvalidArgumentError:
    print('InvalidArgumentError')
PY
expect 0 "$AGC" run --optional-features=ASSERT_STATEMENTS,EQUALITY_OPERATORS,BUILTIN_FUNCTIONS "$TMP/features.py"
same "$TMP/out" 'x is 2\ntf.Tensor(True, shape=(), dtype=bool)\nx is 3\ntf.Tensor(False, shape=(), dtype=bool)\nInvalidArgumentError\n' "--optional-features"

# ---- how long a cached `agc run` takes to start (a figure, never an assertion)
expect 0 "$AGC" run "$TMP/calc.py"
start=$(date +%s%N)
for _ in 1 2 3 4 5 6 7 8 9 10; do "$AGC" run "$TMP/calc.py" >/dev/null; done
end=$(date +%s%N)
echo "cached agc run (trivial program, incl. the program's own run): $(( (end - start) / 10000000 )) ms each, load $(cut -d' ' -f1 /proc/loadavg)"

echo "ok"
exit $((failures > 0))
