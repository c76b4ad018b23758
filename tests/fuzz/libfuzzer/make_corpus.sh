#!/usr/bin/env bash
# Rebuilds the kept corpus of libFuzzer targets (tests/fuzz/corpus/TARGET)
# from their seeds, the corpus kept now and any extra directories (a long
# run's corpus), minimized with -merge=1: one input per coverage edge the
# others miss (-use_counters=0, so the corpus stays a few hundred small
# files; hit counts are the long runs' business).
#
#   tests/fuzz/libfuzzer/make_corpus.sh BUILD_DIR [TARGET [EXTRA_DIR...]]
#
# BUILD_DIR is a build configured with -Dfuzz=true (scripts/sanitize.sh's
# build-asan); the targets and fuzz_seed_corpus are built in it. Seeds: for
# frontend, the Python files of samples/ and tests/e2e/programs; for the
# others, what fuzz_seed_corpus writes with agc's own writers. Without
# TARGET, every target. Regression inputs (tests/fuzz/corpus/TARGET/regress-*)
# are kept whatever the merge says.
set -euo pipefail
cd "$(dirname "$0")/../../.."
build=$1
shift
targets=(frontend json_args tfrecord checkpoint hdf5 saved_model ops)
extra=()
if [ $# -gt 0 ]; then
  targets=("$1")
  shift
  extra=("$@")
fi

binaries=(tests/fuzz/libfuzzer/fuzz_seed_corpus)
for t in "${targets[@]}"; do binaries+=("tests/fuzz/libfuzzer/${t}_fuzz"); done
ninja -C "$build" "${binaries[@]}" >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/tests/fuzz/libfuzzer/fuzz_seed_corpus" "$work/seeds"
mkdir -p "$work/seeds/frontend"
for f in $(find samples tests/e2e/programs -name '*.py' -size -16k); do
  cp "$f" "$work/seeds/frontend/$(printf '%s' "$f" | tr / _)"
done

export ASAN_OPTIONS=allocator_may_return_null=1:max_allocation_size_mb=1024
for t in "${targets[@]}"; do
  corpus=tests/fuzz/corpus/$t
  mkdir -p "$corpus" "$work/$t" "$work/kept-$t"
  find "$corpus" -type f ! -name 'regress-*' -exec cp {} "$work/kept-$t"/ \;
  # Python files past 1 KiB cost more per run (at -O0, in the test command)
  # than they add.
  max_len=()
  [ "$t" = frontend ] && max_len=(-max_len=1024)
  "$build/tests/fuzz/libfuzzer/${t}_fuzz" -merge=1 -use_counters=0 "${max_len[@]}" -close_fd_mask=1 \
    "$work/$t" "$work/kept-$t" "$work/seeds/$t" "${extra[@]}" 2>"$work/$t.log" ||
    { tail -20 "$work/$t.log"; exit 1; }
  find "$corpus" -type f ! -name 'regress-*' -delete
  cp "$work/$t"/* "$corpus"/ 2>/dev/null || true
  echo "make_corpus: $t: $(ls "$corpus" | wc -l) files, $(cat "$corpus"/* 2>/dev/null | wc -c) bytes"
done
