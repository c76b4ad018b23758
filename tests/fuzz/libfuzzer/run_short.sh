#!/usr/bin/env bash
# A short libFuzzer run of one target over its kept corpus, for the test
# command (meson suite libfuzzer, which scripts/sanitize.sh runs in its ASan
# build): every corpus file is run first (the regression inputs included),
# then the fuzzer mutates for AGC_FUZZ_SECONDS (default 5) from a fixed seed.
# New inputs go to a temporary directory, never into the repository's corpus.
#
#   run_short.sh FUZZER CORPUS_DIR ARTIFACT_DIR [libFuzzer flags...]
#
# A crash, hang, leak or sanitizer report fails the run; the input is saved in
# ARTIFACT_DIR, and `FUZZER FILE` reproduces it.
set -euo pipefail
fuzzer=$1 corpus=$2 artifacts=$3
shift 3
mkdir -p "$artifacts"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Allocations past 1 GB fail (agc raises ResourceExhaustedError for them)
# rather than abort the run.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:max_allocation_size_mb=1024"
status=0
# Every finding exits 1: libFuzzer's own exit code for a leak or a crash,
# 77, is what meson reads as "skipped", and a leak would pass unseen.
# -entropic=0: libFuzzer's default power schedule costs more per run than
# the targets themselves (frontend: 2.3x the CPU per run with it, ops: 1.6x).
"$fuzzer" "$work" "$corpus" -seed=1 -max_total_time="${AGC_FUZZ_SECONDS:-5}" -timeout=10 -rss_limit_mb=2048 -entropic=0 \
  -error_exitcode=1 -timeout_exitcode=1 -artifact_prefix="$artifacts/" -print_final_stats=1 "$@" 2>"$work.log" ||
  status=$?
if [ "$status" -ne 0 ]; then
  cat "$work.log"
  echo "run_short: $(basename "$fuzzer") failed; its input is in $artifacts (reproduce: $fuzzer FILE)"
else
  grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "$work.log" || true
fi
rm -f "$work.log"
exit "$status"
