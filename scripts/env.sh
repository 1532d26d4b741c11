# Sourced by the other scripts: puts the project's own tools (.tools/, see install-tools.sh)
# first on PATH, so Trunk finds wasm-bindgen 0.2.130 and wasm-opt (binaryen 132) there and
# never tries to download them.
root="${root:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
export PATH="$root/.tools/bin:$root/.tools/binaryen/node_modules/.bin:$PATH"
# Trunk.toml builds with `offline = true` (cargo --offline): fetch the crates first.
fetch_crates() { (cd "$root" && cargo fetch --quiet); }
