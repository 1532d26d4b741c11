#!/usr/bin/env bash
# Simulation speed of every built-in scenario, native and wasm (headless Chromium), measured in
# one run, with the wasm/native ratio. Prints figures; asserts nothing.
#   bash scripts/bench-sim.sh [ITERATIONS]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/env.sh
iterations=${1:-200}
out=$(mktemp -d)
cargo build --quiet --release --bin locklab
./target/release/locklab bench "$iterations" > "$out/native.txt"
CHROMEDRIVER=/usr/bin/chromedriver cargo test --release --target wasm32-unknown-unknown \
  --test web_bench -- --include-ignored --nocapture 2>&1 | grep '^bench ' > "$out/wasm.txt"
python3 - "$out/native.txt" "$out/wasm.txt" <<'PY'
import sys
def load(path):
    rows = {}
    for line in open(path):
        _, sid, events, sim_ms, micros = line.split()
        rows[sid] = (int(events), int(sim_ms), float(micros))
    return rows
native, wasm = load(sys.argv[1]), load(sys.argv[2])
print(f"{'scenario':40} {'events':>7} {'sim s':>6} {'native µs':>10} {'wasm µs':>9} {'wasm/native':>11} {'native µs per 30 s':>19}")
tn = tw = 0.0
for sid, (events, sim_ms, n) in native.items():
    w = wasm[sid][2]
    tn += n; tw += w
    print(f"{sid:40} {events:7} {sim_ms/1000:6.0f} {n:10.1f} {w:9.1f} {w/n:11.2f} {n*30000/sim_ms:19.1f}")
print(f"{'all built-ins':40} {'':7} {'':6} {tn:10.1f} {tw:9.1f} {tw/tn:11.2f}")
PY
