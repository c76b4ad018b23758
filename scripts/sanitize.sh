#!/usr/bin/env bash
# Part of the test suite (scripts/test.sh runs it after `meson test`): the
# runtime's unit tests (meson suite `runtime`) under AddressSanitizer +
# LeakSanitizer + UndefinedBehaviorSanitizer, with short runs of the libFuzzer
# targets (suite `libfuzzer`, tests/fuzz/libfuzzer) in the same build, and
# its multi-threaded tests under ThreadSanitizer. Any sanitizer report fails
# the run.
#
#   scripts/sanitize.sh [address] [thread]     (default: both)
#
# Each sanitizer has its own build directory (build-asan, build-tsan; or
# AGC_ASAN_BUILD_DIR, AGC_TSAN_BUILD_DIR), set up once with Clang (Debian's
# clang and libclang-rt-dev, which scripts/bootstrap.sh installs) and without
# debug info (see setup), in which only the tested targets
# are built: the rest of the project costs build time and tests nothing here.
# The transpiler is built there only for the frontend's libFuzzer target (its
# unit tests run in the release build); everything, by hand:
#   meson setup B -Dsanitize=address && ninja -C B && meson test -C B
set -euo pipefail
cd "$(dirname "$0")/.."

ASAN_BUILD_DIR=${AGC_ASAN_BUILD_DIR:-build-asan}
TSAN_BUILD_DIR=${AGC_TSAN_BUILD_DIR:-build-tsan}

# The tests that run the runtime from several threads at once, as
# "test binary under tests/unit:doctest test-case name". The rest of the
# runtime's tests is single-threaded, which TSan cannot check, so it is neither
# built nor run here (ASan runs it); unit_*_threads binaries hold only the
# files with multi-threaded tests (tests/unit/*/meson.build).
TSAN_TESTS=(
  "function/unit_function_threads:many threads calling one Function trace each signature once"
  "exec/unit_exec:one plan run by 8 threads at once"
  "exec/unit_exec:nested While with captures through two levels"
  "core/unit_core_threads:concurrent reads and assignments are atomic"
  "ops/unit_ops_threads:parallel*"
  "batching/unit_batching_threads:*"
  "ops/unit_ops_threads:BatchFunction gathers concurrent calls*"
)

log() { printf 'sanitize: %s\n' "$*" >&2; }

# setup DIR SANITIZER: configure DIR once, with Clang: its sanitizer builds
# compile in half GCC's time here (ops/math_ops.cpp under ASan+UBSan: 12.8 s
# against 26.7 s; under TSan 13.8 s against 18.4 s), and the test budget is
# mostly compile time. A directory set up with another compiler is redone.
setup() {
  local dir=$1 sanitizer=$2
  # The ASan build also serves the libFuzzer targets: everything in it is
  # compiled with libFuzzer's coverage (-Dfuzz=true; docs/testing.md has its
  # cost), so one Clang build runs both.
  local fuzz=false
  [ "$sanitizer" = address ] && fuzz=true
  if [ -f "$dir/build.ninja" ]; then
    if grep -q 'clang++' "$dir/build.ninja"; then
      if [ "$fuzz" = true ] && ! grep -q 'fsanitize=fuzzer-no-link' "$dir/build.ninja"; then
        meson configure "$dir" -Dfuzz=true >/dev/null
      fi
      return 0
    fi
    rm -rf "$dir"
  fi
  local out
  # -O0: optimizing instrumented code costs most of the compile (with GCC,
  # UBSan's -O1 compiles took ~2.5x, TSan's agrt-unity9.cpp 20.2 s at -O1 and
  # 15.8 s at -O0); the threaded tests TSan runs take seconds even at -O0.
  local opt=0
  # Unity build, as scripts/bootstrap.sh's: a third of the compile time here.
  # No debug info (AGC_SANITIZE_DEBUG=-g1 for line numbers in the reports):
  # function names symbolize the stacks, and -g1 costs 14% of the compile.
  local debug=${AGC_SANITIZE_DEBUG:--g0}
  if ! out=$(CC=clang CXX=clang++ meson setup "$dir" -Dsanitize="$sanitizer" -Dfuzz=$fuzz -Dbuildtype=plain -Doptimization=$opt \
      -Dunity=on -Dunity_size=12 -Dc_args="$debug" -Dcpp_args="$debug" 2>&1); then
    printf '%s\n' "$out" >&2
    log "meson setup $dir failed"
    exit 1
  fi
}

# build DIR BINARY...: build test binaries (paths under tests/unit) and what they link.
build() {
  local dir=$1
  shift
  local targets=()
  for binary in "$@"; do targets+=("tests/unit/$binary"); done
  ninja -C "$dir" "${targets[@]}" >/dev/null || ninja -C "$dir" "${targets[@]}"
}

# run NAME COMMAND...: run one test binary; on failure, show its output.
# doctest prints "test cases: N | ..."; N == 0 means a filter matched nothing,
# which would pass silently, so it fails too.
failures=0
run() {
  local name=$1
  shift
  local out status=0
  out=$(timeout 600 "$@" 2>&1) || status=$?
  if [ "$status" -ne 0 ] || ! grep -Eq 'test cases: *[1-9]' <<<"$out"; then
    printf '%s\n' "$out" >&2
    log "FAIL $name (exit $status)"
    failures=$((failures + 1))
  else
    log "ok   $name"
  fi
}

run_address() {
  setup "$ASAN_BUILD_DIR" address
  # detect_stack_use_after_return catches references into dead frames (a
  # dangling span into a temporary, say); halt_on_error makes every report fatal.
  export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1
  export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
  # Every test in suites `runtime`, `bench` and `libfuzzer` (meson builds only
  # what those tests need); -t 20: a 30 s test timeout becomes 10 min, for the
  # slow -O0 instrumented code.
  local out
  if ! out=$(meson test -C "$ASAN_BUILD_DIR" --suite runtime --suite bench --suite libfuzzer --print-errorlogs \
      --num-processes 2 -t 20 2>&1); then
    printf '%s\n' "$out" >&2
    log "FAIL asan+ubsan suites runtime, bench and libfuzzer"
    failures=$((failures + 1))
  else
    grep -E '^ *[0-9]+/[0-9]+ ' <<<"$out" | sed 's/^/sanitize: asan+ubsan /' >&2
  fi
}

run_thread() {
  local binaries=() entry
  for entry in "${TSAN_TESTS[@]}"; do binaries+=("${entry%%:*}"); done
  setup "$TSAN_BUILD_DIR" thread
  build "$TSAN_BUILD_DIR" $(printf '%s\n' "${binaries[@]}" | sort -u)
  export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
  # GCC 12's TSan cannot map its shadow memory when the kernel randomizes mmap
  # with more than 28 bits (some newer kernels); there, run without ASLR.
  local no_aslr=()
  if [ "$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo 28)" -gt 28 ]; then
    no_aslr=(setarch "$(uname -m)" -R)
  fi
  for entry in "${TSAN_TESTS[@]}"; do
    local binary=${entry%%:*} name=${entry#*:}
    # doctest filters treat , as a separator and * ? [ ] as wildcards.
    run "tsan ${binary#*/} \"$name\"" "${no_aslr[@]}" "$TSAN_BUILD_DIR/tests/unit/$binary" "--test-case=$name"
  done
}

kinds=("$@")
[ ${#kinds[@]} -eq 0 ] && kinds=(address thread)
for kind in "${kinds[@]}"; do
  case $kind in
    address) run_address ;;
    thread) run_thread ;;
    *) log "unknown sanitizer '$kind' (address or thread)"; exit 2 ;;
  esac
done
[ "$failures" -eq 0 ] || { log "$failures failed"; exit 1; }
