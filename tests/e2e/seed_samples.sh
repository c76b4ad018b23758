#!/usr/bin/env bash
# The seed samples end to end: every samples/seeds/NAME.py is run with
# `agc run NAME.py 2>&1` and what it prints must be exactly NAME.expected (the
# tf.function guide's output, see samples/seeds/README.md), with exit status 0,
# its generated C++ compiled with -Wall -Wextra -Werror. Every mismatch is
# reported with a unified diff; the test fails if any sample differs. A sample
# whose first lines hold `# xfail: <reason>` is known to fail: it is reported
# apart and fails the test only if it unexpectedly passes (then its xfail line
# has to go).
#
# usage: seed_samples.sh AGC SOURCE_ROOT CACHE_DIR [NAME ...]
#   CACHE_DIR is agc run's build cache (AGC_CACHE_DIR), kept between runs so
#   that an unchanged sample is not recompiled; NAMEs (e.g. 000_01_usage)
#   restrict the run to those samples. AGC_SAMPLES_DIR runs the programs of
#   another directory the same way (tests/e2e/closures).
set -u
if [ $# -lt 3 ]; then
  echo "usage: $0 AGC SOURCE_ROOT CACHE_DIR [NAME ...]" >&2
  exit 2
fi
AGC=$(realpath "$1")
DIR=$(realpath "${AGC_SAMPLES_DIR:-$2/samples/seeds}")
export AGC_CACHE_DIR=$3
# The generated code of every sample must compile warning-free (issue 4), and
# compiles at -O0: a third of the CPU of agc's -O2 for 25 programs, and these
# programs test behaviour, not speed.
export AGC_CXXFLAGS="-O0 -Wall -Wextra -Werror"
shift 3
mkdir -p "$AGC_CACHE_DIR"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

names=()
if [ $# -gt 0 ]; then
  for n in "$@"; do names+=("$(basename "${n%.py}")"); done
else
  for f in "$DIR"/*.py; do names+=("$(basename "${f%.py}")"); done
  # An expected output without its program is a mistake too.
  for f in "$DIR"/*.expected; do
    [ -e "${f%.expected}.py" ] || names+=("$(basename "${f%.expected}")")
  done
fi

passed=() failed=() xfailed=() xpassed=()
for name in "${names[@]}"; do
  py=$DIR/$name.py
  want=$DIR/$name.expected
  if [ ! -e "$py" ] || [ ! -e "$want" ]; then
    echo "FAIL $name: needs both $name.py and $name.expected"
    failed+=("$name")
    continue
  fi
  reason=$(head -n 8 "$py" | sed -n 's/^# xfail: //p' | head -n 1)
  # Run from the samples' directory so that tracebacks name the file as NAME.py.
  (cd "$DIR" && timeout 600 "$AGC" run "$name.py") >"$TMP/got" 2>&1
  status=$?
  if [ "$status" -eq 0 ] && cmp -s "$want" "$TMP/got"; then
    if [ -n "$reason" ]; then
      echo "XPASS $name: passes but is marked '# xfail: $reason' (remove that line)"
      xpassed+=("$name")
    else
      echo "PASS $name"
      passed+=("$name")
    fi
    continue
  fi
  if [ -n "$reason" ]; then
    echo "XFAIL $name: $reason"
    xfailed+=("$name")
    continue
  fi
  echo "FAIL $name (exit status $status)"
  diff -u --label "$name.expected" --label "agc run $name.py 2>&1" "$want" "$TMP/got" | head -n 200
  failed+=("$name")
done

echo
echo "seed samples: ${#passed[@]} passed, ${#failed[@]} failed, ${#xfailed[@]} known failures, ${#xpassed[@]} unexpected passes"
[ ${#failed[@]} -eq 0 ] || echo "failed: ${failed[*]}"
[ ${#xfailed[@]} -eq 0 ] || echo "known failures: ${xfailed[*]}"
[ ${#xpassed[@]} -eq 0 ] || echo "unexpected passes: ${xpassed[*]}"
[ ${#failed[@]} -eq 0 ] && [ ${#xpassed[@]} -eq 0 ]
