#!/usr/bin/env bash
# `meson install` end to end, as a user of the install would work: install
# into a temporary DESTDIR (a prefix that is not the configured one, which
# the install must not care about), then, with only that install on PATH and
# PKG_CONFIG_PATH, build samples/app: the installed agc builds model.py as a
# library against the installed runtime (not this build's), the app compiles
# against it with pkg-config's flags, and prints samples/app/expected.txt;
# `agc run model.py` runs it as a program. Also: libagrt.a is a full archive,
# and agc finds its installed agc-model.
# usage: install_test.sh BUILD_DIR SOURCE_ROOT
set -u
BUILD=$1
ROOT=$2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() {
  echo "FAIL: $*"
  exit 1
}

meson install -C "$BUILD" --no-rebuild --quiet --destdir "$TMP/dest" >"$TMP/log" 2>&1 ||
  fail "meson install: $(tail -n 20 "$TMP/log")"
agc=$(find "$TMP/dest" -path '*/bin/agc' -type f)
pc=$(find "$TMP/dest" -name agc.pc)
lib=$(find "$TMP/dest" -name libagrt.a)
[ -x "$agc" ] || fail "no bin/agc installed"
[ -f "$pc" ] || fail "no agc.pc installed"
[ -f "$lib" ] || fail "no libagrt.a installed"
prefix=$(dirname "$(dirname "$agc")")
[ -f "$prefix/include/agc/ag/ag.h" ] || fail "no include/agc/ag/ag.h installed"
[ -f "$prefix/include/agc/runtime/api/embedding.h" ] || fail "the runtime's headers are not installed"
[ "$(head -c 8 "$lib")" = '!<arch>' ] || fail "libagrt.a is not a full archive: $(head -c 8 "$lib")"

# The user's view: the install on PATH, nothing of this build.
export PATH="$prefix/bin:$PATH" PKG_CONFIG_PATH=$(dirname "$pc") AGC_CACHE_DIR="$TMP/cache" AGC_NO_PCH=1
unset AGC_RUNTIME_DIR AGC_MODEL_TOOL
[ "$(command -v agc)" = "$agc" ] || fail "agc on PATH is $(command -v agc)"
mkdir "$TMP/app"
AGC_CXXFLAGS=-O0 agc build --lib --verbose "$ROOT/samples/app/model.py" -o "$TMP/app/libmodel.a" 2>"$TMP/err" ||
  fail "installed agc build --lib: $(tail -c 2000 "$TMP/err")"
grep -q -- "-I$prefix/include/agc " "$TMP/err" || fail "installed agc did not compile against the installed headers: $(head -c 1000 "$TMP/err")"
grep -q -- "-I$ROOT" "$TMP/err" && fail "installed agc compiled against the source tree: $(head -c 1000 "$TMP/err")"
# The staged install's prefix is not the configured one: pkg-config is told.
flags=$(pkg-config --define-variable=prefix="$prefix" --cflags --libs agc) || fail "pkg-config --cflags --libs agc"
case " $flags " in *" -I$prefix/include/agc "*) ;; *) fail "agc.pc's flags: $flags" ;; esac
${CXX:-c++} -O0 "$ROOT/samples/app/main.cpp" -I"$TMP/app" "$TMP/app/libmodel.a" $flags -o "$TMP/app/app" 2>"$TMP/err" ||
  fail "the app does not build with pkg-config's flags: $(head -c 2000 "$TMP/err")"
"$TMP/app/app" >"$TMP/out" 2>&1 || fail "the app failed: $(head -c 1000 "$TMP/out")"
diff -u "$ROOT/samples/app/expected.txt" "$TMP/out" || fail "the app's output"
# A program: the installed agc runs model.py from PATH, and as the main
# module its `if __name__ == "__main__":` block runs.
AGC_CXXFLAGS=-O0 agc run "$ROOT/samples/app/model.py" >"$TMP/out" 2>&1 || fail "installed agc run: $(head -c 2000 "$TMP/out")"
grep -q "shape=(1, 3), dtype=float32)" "$TMP/out" && grep -q "^tf.Tensor(111, shape=(), dtype=int32)$" "$TMP/out" ||
  fail "agc run model.py: the __main__ block did not print: $(head -c 1000 "$TMP/out")"
# agc's model commands run the installed agc-model.
agc saved-model show >"$TMP/out" 2>&1
grep -q "usage: agc saved-model show" "$TMP/out" || fail "installed agc saved-model: $(head -c 500 "$TMP/out")"
echo ok
