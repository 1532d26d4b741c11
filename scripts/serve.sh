#!/usr/bin/env bash
# Builds Lock Lab's release bundle and serves it on 127.0.0.1.
#
#   scripts/serve.sh            # http://127.0.0.1:8080/
#   PORT=9000 scripts/serve.sh  # another port (PORT=0 picks a free one)
#
# On a fresh machine the first run installs the build tools into .tools/ (~12 min, once).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
source scripts/env.sh

bash scripts/install-tools.sh build
fetch_crates
release_build
exec node scripts/static-server.mjs dist --host 127.0.0.1 --port "${PORT:-8080}"
