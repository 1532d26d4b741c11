#!/usr/bin/env bash
# Prints the release bundle's transfer size: every .wasm, .js and .css file in dist/ (but the
# explorer's worker, fetched only when a search starts, listed apart), each compressed with
# gzip -9, their totals, and the ratio to the bare-Yew floor measured in docs/TOOLCHAIN.md
# (60.0 KB wasm + 5.9 KB js, same release profile and wasm-opt -Oz).
# Figures only, no assertions. 1 KB = 1024 bytes.
#
#   scripts/bench-bundle.sh           # measures dist/ as it is (builds it when missing)
#   scripts/bench-bundle.sh --build   # trunk build --release first
#   scripts/bench-bundle.sh --floor   # also build the bare-Yew counter (scripts/bench/floor/)
#                                     # the same way and report the ratio to it (like for like:
#                                     # docs/TOOLCHAIN.md's floor predates the lean build)
#   scripts/bench-bundle.sh --record  # also write the figures to docs/measured/bundle.json
#                                     # (scripts/bench/measured.mjs; the docs quote that file)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/env.sh

build=false floor=false record=false
for a in "$@"; do
  case "$a" in
    --build) build=true ;;
    --floor) floor=true ;;
    --record) record=true ;;
    *) echo "usage: scripts/bench-bundle.sh [--build] [--floor] [--record]" >&2; exit 2 ;;
  esac
done

if $build || ! ls dist/*.wasm >/dev/null 2>&1; then
  fetch_crates
  release_build >&2
fi

kb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1024 }'; }

declare -A raw_sum=() gz_sum=()
printf 'Lock Lab release bundle (dist/, gzip -9, 1 KB = 1024 B)\n'
printf '  %-4s  %-44s %10s %10s\n' kind file raw gzip
for kind in wasm js css; do
  raw_sum[$kind]=0
  gz_sum[$kind]=0
  while IFS= read -r f; do
    r=$(wc -c <"$f")
    g=$(gzip -9 -c "$f" | wc -c)
    raw_sum[$kind]=$((raw_sum[$kind] + r))
    gz_sum[$kind]=$((gz_sum[$kind] + g))
    printf '  %-4s  %-44s %7s KB %7s KB\n' "$kind" "${f#dist/}" "$(kb "$r")" "$(kb "$g")"
  done < <(find dist -type f -name "*.$kind" ! -name 'explore-worker*' | sort)
done
# The explorer's Web Worker (src/bin/explore-worker.rs) is not part of the page's load: it is
# fetched once a search starts. Listed apart, outside the total.
while IFS= read -r f; do
  printf '  %-4s  %-44s %7s KB %7s KB  (when a search starts)\n' worker "${f#dist/}" "$(kb "$(wc -c <"$f")")" "$(kb "$(gzip -9 -c "$f" | wc -c)")"
done < <(find dist -type f -name 'explore-worker*' ! -name '*.gz' ! -name '*.br' | sort)
total=$((gz_sum[wasm] + gz_sum[js] + gz_sum[css]))
echo
printf '  wasm %s KB + js %s KB + css %s KB (gzip -9)\n' "$(kb "${gz_sum[wasm]}")" "$(kb "${gz_sum[js]}")" "$(kb "${gz_sum[css]}")"
printf '  total transfer size: %s KB (issue 4 budget: 170 KB)\n' "$(kb "$total")"
awk -v t="$total" -v w="${gz_sum[wasm]}" -v j="${gz_sum[js]}" 'BEGIN {
  floor = 60.0 + 5.9
  printf "  bare-Yew floor (docs/TOOLCHAIN.md): %.1f KB (60.0 wasm + 5.9 js)\n", floor
  printf "  ratio to the floor: %.2fx total; wasm %.2fx, js %.2fx\n", t / 1024 / floor, w / 1024 / 60.0, j / 1024 / 5.9
}'

# The floor built like the app: same profile, lean flags, Trunk and wasm-opt -Oz.
if $floor; then
  floor_build >&2
  fw=0 fj=0
  for f in target/floor-dist/*.wasm; do fw=$((fw + $(gzip -9 -c "$f" | wc -c))); done
  for f in target/floor-dist/*.js; do fj=$((fj + $(gzip -9 -c "$f" | wc -c))); done
  awk -v t="$total" -v fw="$fw" -v fj="$fj" 'BEGIN {
    printf "  bare-Yew floor built here the same way: %.1f KB (%.1f wasm + %.1f js)\n", (fw + fj) / 1024, fw / 1024, fj / 1024
    printf "  ratio to that floor: %.2fx\n", t / (fw + fj)
  }'
fi

# The figures as the docs quote them (KB to 0.1), with the wasm's brotli file the build writes.
if $record; then
  br=$(find dist -type f -name '*.wasm.br' ! -name 'explore-worker*' -exec cat {} + | wc -c)
  node --input-type=module -e "
    import { recordMeasured } from './scripts/bench/measured.mjs';
    const kb = (b) => Number((b / 1024).toFixed(1));
    recordMeasured('bundle', { gzip: { total_kb: kb($total), wasm_kb: kb(${gz_sum[wasm]}), js_kb: kb(${gz_sum[js]}), css_kb: kb(${gz_sum[css]}) }, wasm_brotli_kb: kb($br) }, 'scripts/bench-bundle.sh');
  "
fi
