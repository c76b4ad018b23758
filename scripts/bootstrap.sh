#!/usr/bin/env bash
# Makes a fresh Debian 12 machine ready to build agc, then builds it. Idempotent:
# installs only what is missing, fetches the pinned grammar only when absent or
# stale, configures the build directory only once. AGC_BOOTSTRAP_BUILD=0 stops
# after configuring (scripts/test.sh: `meson test` builds what its tests need).
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${AGC_BUILD_DIR:-build}
GRAMMAR_VERSION=0.23.6
# npm's integrity string for tree-sitter-python-0.23.6.tgz (language ABI 14, the
# newest Debian's libtree-sitter 0.20 loads).
GRAMMAR_INTEGRITY=sha512-yIM9z0oxKIxT7bAtPOhgoVl6gTXlmlIhue7liFT4oBPF/lha7Ha4dQBS82Av6hMMRZoVnFJI8M6mL+SwWoLD3A==
GRAMMAR_DIR=grammars/tree-sitter-python

log() { printf 'bootstrap: %s\n' "$*" >&2; }

install_packages() {
  local missing=()
  # clang, libclang-rt-dev (the sanitizer runtimes, and libFuzzer: it is in
  # libclang-rt-14-dev, which that package pulls in) and lld serve
  # scripts/sanitize.sh's builds and the fuzz targets (docs/testing.md).
  for pkg in g++ pkg-config meson ninja-build libtree-sitter-dev libfmt-dev libeigen3-dev doctest-dev libmimalloc-dev \
      libprotobuf-dev protobuf-compiler libleveldb-dev libre2-dev libcpp-httplib-dev libhdf5-dev clang libclang-rt-dev lld \
      graphviz; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  command -v npm >/dev/null 2>&1 || missing+=(npm)
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { log "missing packages (${missing[*]}) and not root; rerun as root"; exit 1; }
    sudo=sudo
  fi
  log "installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

fetch_grammar() {
  local stamp="$GRAMMAR_DIR/.agc-stamp"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$GRAMMAR_VERSION $GRAMMAR_INTEGRITY" ]; then
    return 0
  fi
  log "fetching tree-sitter-python@$GRAMMAR_VERSION from the npm registry"
  local tmp
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  # The registry fails now and then; try three times before giving up, and say why.
  local attempt
  for attempt in 1 2 3; do
    if (cd "$tmp" && npm pack "tree-sitter-python@$GRAMMAR_VERSION" --silent >/dev/null 2>"$tmp/npm.err"); then
      break
    fi
    if [ "$attempt" -eq 3 ]; then
      log "npm pack tree-sitter-python@$GRAMMAR_VERSION failed three times:"
      cat "$tmp/npm.err" >&2
      exit 1
    fi
    log "npm pack failed (attempt $attempt); retrying in $((attempt * 5)) s"
    sleep $((attempt * 5))
  done
  local tgz="$tmp/tree-sitter-python-$GRAMMAR_VERSION.tgz"
  local actual
  actual=$(node -e 'const c=require("crypto"),fs=require("fs");process.stdout.write("sha512-"+c.createHash("sha512").update(fs.readFileSync(process.argv[1])).digest("base64"))' "$tgz")
  if [ "$actual" != "$GRAMMAR_INTEGRITY" ]; then
    log "integrity mismatch for tree-sitter-python@$GRAMMAR_VERSION"
    log "  expected $GRAMMAR_INTEGRITY"
    log "  got      $actual"
    exit 1
  fi
  tar -xzf "$tgz" -C "$tmp"
  rm -rf "$GRAMMAR_DIR"
  mkdir -p "$GRAMMAR_DIR/src/tree_sitter"
  cp "$tmp/package/src/parser.c" "$tmp/package/src/scanner.c" "$GRAMMAR_DIR/src/"
  cp "$tmp/package/src/tree_sitter/"*.h "$GRAMMAR_DIR/src/tree_sitter/"
  cp "$tmp/package/LICENSE" "$GRAMMAR_DIR/"
  echo "$GRAMMAR_VERSION $GRAMMAR_INTEGRITY" >"$stamp"
}

build() {
  if [ ! -f "$BUILD_DIR/build.ninja" ]; then
    # meson reports configuration errors on stdout: show them when it fails.
    local out
    # Unity build (12 sources per translation unit): the runtime's and the
    # transpiler's files share most of their headers and inline templates, so
    # compiling them together costs half the CPU of one TU per file
    # (docs/testing.md). Development build dirs keep unity off for fast
    # incremental rebuilds.
    if ! out=$(meson setup "$BUILD_DIR" --buildtype=release -Dunity=on -Dunity_size=12 "$@" 2>&1); then
      printf '%s\n' "$out" >&2
      log "meson setup failed"
      exit 1
    fi
  fi
  [ "${AGC_BOOTSTRAP_BUILD:-1}" = 0 ] && return 0
  ninja -C "$BUILD_DIR" >/dev/null || ninja -C "$BUILD_DIR"
}

install_packages
fetch_grammar
build "$@"
