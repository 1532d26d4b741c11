#!/usr/bin/env bash
# The explorer's speed, native, with the release build (`locklab explore`): schedules per
# second per core for a two-client, 20 s Redis scenario and for three-server ensembles (each
# built-in's own faults replaced by the full mix), then ZooKeeper and etcd with fencing on
# every core for a million schedules each, with the lost updates they found (the seed says 0).
# Prints figures; asserts nothing.
#   bash scripts/bench-explore.sh [RUNS_PER_CORE_CASE] [RUNS_THREADED]
# "per core" is given twice: by the wall clock on one thread, and by the CPU time the process
# used (the same figure on an idle machine; the honest one on a shared, loaded one).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
per_core=${1:-20000}
threaded=${2:-1000000}
cargo build --quiet --release --bin locklab
bin=./target/release/locklab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# explore ARGS… → "runs lost schedules/s(wall) threads cpu_seconds"
measure() {
  /usr/bin/time -f "%U %S" -o "$tmp/time" "$bin" explore "$@" --json > "$tmp/out.json"
  python3 - "$tmp/out.json" "$tmp/time" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
user, system = map(float, open(sys.argv[2]).read().split()[-2:])
print(v["runs"], v["classes"]["lost_update"], v["schedules_per_s"], v["threads"], user + system)
PY
}

report() { # label runs lost rate threads cpu
  python3 - "$@" <<'PY'
import sys
label, runs, lost, rate, threads, cpu = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
per_cpu = runs / cpu if cpu > 0 else 0
print(f"{label:46} {runs:>9,} runs  {rate:>9,.0f}/s wall on {threads} thread(s)  {per_cpu:>8,.0f}/s per CPU-second  "
      f"{1e6 / per_cpu if per_cpu else 0:>6.0f} µs/run  lost updates {lost:,}")
PY
}

echo "native, one thread (budget: redis ≥ 10,000/s, ensembles ≥ 3,000/s per core)"
for case in "redis-gc-pause|--builtin redis-gc-pause" "redis-gc-pause + fencing|--builtin redis-gc-pause --fencing on" \
            "etcd-gc-pause|--builtin etcd-gc-pause" "zookeeper-session-expiry|--builtin zookeeper-session-expiry" \
            "zookeeper (explorer base, 30 s)|--approach zookeeper"; do
  label=${case%%|*}
  # shellcheck disable=SC2086
  report "$label" $(measure ${case#*|} --runs "$per_core" --threads 1)
done
echo
echo "native, every core ($(nproc) here), fencing on, the full mix"
for a in zookeeper etcd; do
  report "$a + fencing" $(measure --approach "$a" --fencing on --runs "$threaded")
done
