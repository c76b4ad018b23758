#!/bin/sh
# `meson install`'s step for the runtime's headers (runtime/meson.build):
# every .h, .def and .inc under runtime/, found when installing (a list in
# meson.build would miss a header added without touching it), into
# $DESTDIR$1, so that <ag/ag.h> and "runtime/..." resolve with -I$1 as they do
# in the source tree.
# usage: install_headers.sh INCLUDEDIR   (absolute: the prefix's include/agc)
set -eu
dest="${DESTDIR:-}$1"
cd "$MESON_SOURCE_ROOT"
mkdir -p "$dest/ag"
cp runtime/include/ag/*.h "$dest/ag/"
find runtime -path runtime/include -prune -o \( -name '*.h' -o -name '*.def' -o -name '*.inc' \) -print |
  while IFS= read -r f; do
    mkdir -p "$dest/$(dirname "$f")"
    cp "$f" "$dest/$f"
  done
chmod -R a+rX "$dest"
