#!/usr/bin/env bash
# Issues 11 and 25's load figures, run by hand (not a timed test: on a shared machine they vary
# with the load, so they are figures to read, each against its budget): the first diagram on
# screen (pre-drawn or live), the live one, and when the app answers input, on loopback and
# under Chromium's network emulation (150 ms latency, 1.6 Mbps), for the default address, a
# built-in's address and an embed. See bench-browser.mjs.
#
#   scripts/bench-load.sh [--build] [--runs N]    # --build: trunk build --release first
#
# Builds dist/ when it is missing.
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
    --record) args+=(--record) ;;
    *) echo "usage: scripts/bench-load.sh [--build] [--runs N] [--record]" >&2; exit 2 ;;
  esac
  shift
done
if $build || [ ! -f dist/index.html ]; then
  fetch_crates
  release_build >&2
fi
exec node scripts/bench-browser.mjs --load-only --runs 11 "${args[@]}"
