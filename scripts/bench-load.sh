#!/usr/bin/env bash
# Issue 11's load figures, run by hand (not a timed test: on a shared machine they vary with
# the load, so they are figures to read, not a pass/fail): first diagram on screen on loopback
# (p50/p95), the bare-Yew floor page loaded in turn in the same run and the ratio to it, and the
# same load under Chromium's network emulation (150 ms latency, 1.6 Mbps). See bench-browser.mjs.
#
#   scripts/bench-load.sh [--build] [--runs N]    # --build: trunk build --release first
#
# Builds dist/ and the floor (target/floor-dist/) when they are missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/env.sh

build=false
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=true ;;
    --runs) args+=(--runs "$2"); shift ;;
    *) echo "usage: scripts/bench-load.sh [--build] [--runs N]" >&2; exit 2 ;;
  esac
  shift
done
if $build || [ ! -f dist/index.html ]; then
  fetch_crates
  release_build >&2
fi
[ -f target/floor-dist/index.html ] || floor_build >&2
exec node scripts/bench-browser.mjs --load-only --runs 11 "${args[@]}"
