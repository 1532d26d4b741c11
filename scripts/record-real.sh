#!/usr/bin/env bash
# Records the real runs the app shows beside their simulations ("Compare with: real Redis
# 7.0.15 (recorded)") into src/recorded/recordings/, one compact JSON file per built-in and fencing
# setting: the trace locklab-real observed on real servers, when and on what it ran, and the
# fingerprint of the scenario as it ran. Run by hand (the servers must be installed:
# scripts/install-tools.sh), then commit the files; the native test tests/recorded.rs fails
# once a built-in changes under its recording (re-run this with its id).
#
#   scripts/record-real.sh            # every recording the app lists
#   scripts/record-real.sh ID...      # only these built-ins' recordings
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out=src/recorded/recordings
mkdir -p "$out"

# The recordings the app carries, as src/recorded/mod.rs lists them ("ID-fencing-on|off"), each
# at its case's scale in real/cases/suite.txt. To add one, list it there first (the wasm's
# budget is in that file's comment).
mapfile -t RECORDED < <(sed -n 's/^    "\(.*\)-fencing-\(on\|off\)",$/\1 \2/p' src/recorded/mod.rs)
# A newly listed recording has no file yet, and the app (so locklab-real) includes every listed
# file: an empty one stands in until it is recorded below.
for entry in "${RECORDED[@]}"; do
  read -r id f <<<"$entry"
  [ -e "$out/$id-fencing-$f.json" ] || : >"$out/$id-fencing-$f.json"
done
cargo build --quiet -p locklab-real

failed=()
for entry in "${RECORDED[@]}"; do
  read -r id f <<<"$entry"
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$id"; then continue; fi
  scale=$(awk -v s="builtin:$id" '$1 == s { print $2 }' real/cases/suite.txt)
  [ -n "$scale" ] || { echo "record-real: $id is not a built-in of real/cases/suite.txt" >&2; exit 2; }
  echo "== $id, fencing $f, scale $scale"
  target/debug/locklab-real record --builtin "$id" --fencing "$f" --scale "$scale" -o "$out/$id-fencing-$f.json" \
    || failed+=("$id (fencing $f)")
done
echo
# Sizes, raw and brotli (node's zlib: Debian's node has it; no brotli CLI needed).
node -e '
const z = require("zlib"), fs = require("fs"), dir = process.argv[1];
const br = (b) => z.brotliCompressSync(b, { params: { [z.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const files = fs.readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
const all = Buffer.concat(files.map((f) => fs.readFileSync(dir + "/" + f)));
for (const f of files) { const b = fs.readFileSync(dir + "/" + f); console.log(`  ${f.padEnd(44)} ${String(b.length).padStart(6)} B raw ${String(br(b)).padStart(6)} B brotli`); }
console.log(`  ${"all, as one stream".padEnd(44)} ${String(all.length).padStart(6)} B raw ${String(br(all)).padStart(6)} B brotli`);
' "$out"
if [ ${#failed[@]} -gt 0 ]; then
  printf 'record-real: not recorded (the error is above; re-run with its id): %s\n' "${failed[*]}" >&2
  exit 1
fi
