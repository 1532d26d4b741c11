#!/usr/bin/env bash
# Prints the release bundle's sizes: every .wasm, .js and .css file, raw, gzip -9 and brotli
# -q 11 (Node's zlib, as scripts/post-build.mjs compresses: no brotli binary needed), the full
# app's transfer total and its ratio to the bare-Yew floor measured in docs/TOOLCHAIN.md (60.0
# KB wasm + 5.9 KB js, same release profile and wasm-opt -Oz), and each wasm on its own.
# Exits 1 when a wasm is over its ceiling (scripts/bench/bundle.mjs: the embeds' player, issue
# 38, at most 150 KB brotli and 450 KB raw). 1 KB = 1024 bytes.
#
#   scripts/bench-bundle.sh              # measures dist/ as it is (builds it when missing)
#   scripts/bench-bundle.sh --build      # trunk build --release first
#   scripts/bench-bundle.sh --check      # measures the build as it is and never builds (the
#                                        # test command, after its release build)
#   scripts/bench-bundle.sh --dist DIR   # another build folder than dist/
#   scripts/bench-bundle.sh --floor      # also build the bare-Yew counter (scripts/bench/floor/)
#                                        # the same way and report the ratio to it (like for like:
#                                        # docs/TOOLCHAIN.md's floor predates the lean build)
#   scripts/bench-bundle.sh --record     # also write the figures to docs/measured/bundle.json
#                                        # (scripts/bench/measured.mjs; the docs quote that file)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/env.sh

build=false floor=false record=false check=false dist=dist
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=true ;;
    --check) check=true ;;
    --floor) floor=true ;;
    --record) record=true ;;
    --dist) dist="${2:?--dist needs a folder}"; shift ;;
    *) echo "usage: scripts/bench-bundle.sh [--build | --check] [--dist DIR] [--floor] [--record]" >&2; exit 2 ;;
  esac
  shift
done

if $check; then
  ls "$dist"/*.wasm >/dev/null 2>&1 || { echo "bench-bundle: no build in $dist/ to check" >&2; exit 1; }
elif $build || ! ls "$dist"/*.wasm >/dev/null 2>&1; then
  fetch_crates
  release_build --dist "$dist" >&2
fi

status=0
node scripts/bench/bundle.mjs "$dist" $($record && echo --record) || status=$?

# The floor built like the app: same profile, lean flags, Trunk and wasm-opt -Oz.
if $floor; then
  floor_build >&2
  fw=0 fj=0
  for f in target/floor-dist/*.wasm; do fw=$((fw + $(gzip -9 -c "$f" | wc -c))); done
  for f in target/floor-dist/*.js; do fj=$((fj + $(gzip -9 -c "$f" | wc -c))); done
  printf '  bare-Yew floor built here the same way: %s KB (%s wasm + %s js)\n' \
    "$(awk -v b=$((fw + fj)) 'BEGIN { printf "%.1f", b / 1024 }')" \
    "$(awk -v b=$fw 'BEGIN { printf "%.1f", b / 1024 }')" "$(awk -v b=$fj 'BEGIN { printf "%.1f", b / 1024 }')"
fi
exit $status
